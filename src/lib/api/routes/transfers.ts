/**
 * Ticket-transfer listings (signed in; only the holder of an order lists its tickets, and only the
 * seller sees or changes a listing: anyone else's is a 404 like a missing one).
 *
 *   POST   v1/orders/{id}/transfer-listings   { quantity, price, currency, acceptAgreement: true }
 *          price per ticket in minor units of `currency`, within config TRANSFER_PRICE_BAND of face value
 *   GET    v1/transfer-listings               the caller's listings, newest first ("My listings")
 *   PUT    v1/transfer-listings/{id}          { price, currency }   while the listing is active
 *   DELETE v1/transfer-listings/{id}          withdraw, only while no ticket is held or sold
 *   GET    v1/transfer-payouts                the caller's recorded proceeds, payable after each event
 *
 * Buying a transfer listing is the normal checkout; its tickets are reissued when it is paid.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { requireUser } from '../../services/auth.ts';
import {
  changeTransferPrice, createTransferListing, listMyTransferListings, myPayouts, withdrawTransferListing,
} from '../../services/transfers.ts';
import type { ApiEnv } from '../context.ts';
import { success } from '../errors.ts';
import { jsonBody, parseInput } from '../validate.ts';
import { idParam } from '../params.ts';

/** D1 binds at most 100 values per statement; a listing links its tickets in one. */
const MAX_TRANSFER_QUANTITY = 50;

/** Any whole amount: a negative or absurd one is refused by the price band with its own message. */
const price = z.number().int().safe();
const currency = z.string().regex(/^[A-Z]{3}$/);

const createBody = z.object({
  quantity: z.number().int().min(1).max(MAX_TRANSFER_QUANTITY),
  price,
  currency,
  acceptAgreement: z.boolean(),
});

const priceBody = z.object({ price, currency });

export const transferRoutes = new Hono<ApiEnv>()
  .post('/v1/orders/:id/transfer-listings', async (c) => {
    const user = await requireUser(c);
    const { id: orderId } = parseInput(idParam, c.req.param());
    const input = parseInput(createBody, await jsonBody(c.req.raw));
    return c.json(success(await createTransferListing(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId, orderId, input, Date.now())));
  })
  .get('/v1/transfer-listings', async (c) => {
    const user = await requireUser(c);
    return c.json(success(await listMyTransferListings(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId, Date.now())));
  })
  .put('/v1/transfer-listings/:id', async (c) => {
    const user = await requireUser(c);
    const { id: listingId } = parseInput(idParam, c.req.param());
    const input = parseInput(priceBody, await jsonBody(c.req.raw));
    return c.json(success(await changeTransferPrice(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId, listingId, input, Date.now())));
  })
  .delete('/v1/transfer-listings/:id', async (c) => {
    const user = await requireUser(c);
    const { id: listingId } = parseInput(idParam, c.req.param());
    return c.json(success(await withdrawTransferListing(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId, listingId, Date.now())));
  })
  .get('/v1/transfer-payouts', async (c) => {
    const user = await requireUser(c);
    return c.json(success(await myPayouts(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId)));
  });
