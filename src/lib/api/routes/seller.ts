/**
 * Seller fulfilment (signed in as a seller: 403 not_a_seller otherwise; another seller's order is a
 * 404 order_not_found, like a missing one).
 *
 *   GET  v1/seller/orders?status=pending_ticketing|all|<order status>&page=1
 *        a page of the seller's orders, soonest show first
 *   POST v1/seller/orders/{id}/fulfil
 *        { method: 'e_ticket' } | { method: 'courier', trackingNo } | { method: 'pickup', pickupAddress, pickupTime }
 *        (pickupTime in ms, before the show), plus optional seats: string[] (one per ticket);
 *        pending ticketing → pending receipt
 *   POST v1/seller/orders/{id}/fail   { reason }
 *        → refunded: the payment is refunded and the buyer gets the compensation coupon
 *
 * Both writes answer the seller's view of the order; a second fulfilment or a failure in the wrong
 * state is a 409 order_state_conflict.
 */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import {
  FAIL_REASON_MAX_LENGTH,
  FULFILMENT_METHODS,
  PICKUP_ADDRESS_MAX_LENGTH,
  SEAT_MAX_LENGTH,
  TRACKING_NO_PATTERN,
} from '../../domain/fulfilment.ts';
import { ORDER_STATUSES } from '../../domain/order-state.ts';
import { failOrder, fulfilOrder, listSellerOrders, requireSeller } from '../../services/marketplace/fulfilment.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { epochMs, idParam, pageNumber } from '../params.ts';
import { signedIn, type SignedInEnv } from '../session.ts';
import { input } from '../validate.ts';

const MAX_SEATS = 99;

/** An optional text where an empty string means "not given", so it gets the rule's own message. */
const optionalText = (rule: z.ZodString) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .pipe(rule.optional());

const listQuery = z.object({
  status: z.enum(['all', ...ORDER_STATUSES]).default('pending_ticketing'),
  page: pageNumber,
});

const fulfilBody = z.object({
  method: z.enum(FULFILMENT_METHODS),
  trackingNo: optionalText(z.string().regex(TRACKING_NO_PATTERN)),
  pickupAddress: optionalText(z.string().max(PICKUP_ADDRESS_MAX_LENGTH)),
  pickupTime: epochMs.optional(),
  seats: z.array(z.string().trim().min(1).max(SEAT_MAX_LENGTH)).max(MAX_SEATS).optional(),
});

const failBody = z.object({ reason: z.string().trim().min(1).max(FAIL_REASON_MAX_LENGTH) });

/** After signedIn: only sellers go on (403 not_a_seller). */
const sellerOnly = createMiddleware<SignedInEnv>(async (c, next) => {
  await requireSeller(c.var.scope);
  await next();
});

const doc = describe('Seller');

export const sellerRoutes = new Hono<ApiEnv>()
  .get(
    '/v1/seller/orders',
    doc.user("A page of the seller's orders, soonest show first (sellers)"),
    signedIn,
    sellerOnly,
    input('query', listQuery),
    async (c) => c.json(success(await listSellerOrders(c.var.scope, c.req.valid('query')))),
  )
  .post(
    '/v1/seller/orders/:id/fulfil',
    doc.user('Fulfils an order: e-ticket, courier or pickup (sellers)'),
    signedIn,
    sellerOnly,
    input('param', idParam),
    input('json', fulfilBody),
    async (c) => {
      return c.json(success(await fulfilOrder(c.var.scope, c.req.valid('param').id, c.req.valid('json'))));
    },
  )
  .post(
    '/v1/seller/orders/:id/fail',
    doc.user('Fails an order: refunded, and the buyer compensated (sellers)'),
    signedIn,
    sellerOnly,
    input('param', idParam),
    input('json', failBody),
    async (c) => {
      return c.json(success(await failOrder(c.var.scope, c.req.valid('param').id, c.req.valid('json').reason)));
    },
  );
