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
import { myPayouts } from '../../services/marketplace/seller-payouts.ts';
import { changeTransferPrice, createTransferListing, withdrawTransferListing } from '../../services/marketplace/transfer-listings.ts';
import { listMyTransferListings } from '../../services/marketplace/transfer-views.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { currencyCode, idParam, minorAmount } from '../params.ts';
import { signedIn } from '../session.ts';
import { input } from '../validate.ts';

/** D1 binds at most 100 values per statement; a listing links its tickets in one. */
const MAX_TRANSFER_QUANTITY = 50;

const createBody = z.object({
  quantity: z.number().int().min(1).max(MAX_TRANSFER_QUANTITY),
  price: minorAmount,
  currency: currencyCode,
  acceptAgreement: z.boolean(),
});

const priceBody = z.object({ price: minorAmount, currency: currencyCode });

const doc = describe('Transfers');

export const transferRoutes = new Hono<ApiEnv>()
  .post(
    '/v1/orders/:id/transfer-listings',
    doc.user('Lists tickets of an order for transfer'),
    signedIn,
    input('param', idParam),
    input('json', createBody),
    async (c) => {
      const orderId = c.req.valid('param').id;
      return c.json(success(await createTransferListing(c.var.scope, orderId, c.req.valid('json'))));
    },
  )
  .get('/v1/transfer-listings', doc.user("The caller's transfer listings, newest first"), signedIn, async (c) =>
    c.json(success(await listMyTransferListings(c.var.scope))),
  )
  .put(
    '/v1/transfer-listings/:id',
    doc.user("Changes an active listing's price"),
    signedIn,
    input('param', idParam),
    input('json', priceBody),
    async (c) => {
      const listingId = c.req.valid('param').id;
      return c.json(success(await changeTransferPrice(c.var.scope, listingId, c.req.valid('json'))));
    },
  )
  .delete(
    '/v1/transfer-listings/:id',
    doc.user('Withdraws a listing while no ticket is held or sold'),
    signedIn,
    input('param', idParam),
    async (c) => c.json(success(await withdrawTransferListing(c.var.scope, c.req.valid('param').id))),
  )
  .get('/v1/transfer-payouts', doc.user("The caller's recorded proceeds, payable after each event"), signedIn, async (c) =>
    c.json(success(await myPayouts(c.var.scope))),
  );
