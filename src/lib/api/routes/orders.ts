/**
 * Checkout and the buyer's orders (signed in; only the owner sees an order).
 *
 *   GET  v1/checkout/quote?listingId=&quantity=&deliveryType=&coupon=best|none|<userCouponId>
 *   POST v1/orders                      Idempotency-Key; creates the order and holds its tickets
 *   GET  v1/orders?tab=&keyword=&page=  a page of the buyer's orders
 *   GET  v1/orders/{id}                 one order (404 order_not_found when missing or someone else's)
 *   POST v1/orders/{id}/cancel          pending payment → cancelled
 *   POST v1/orders/{id}/confirm-receipt pending receipt → completed
 *   POST v1/orders/{id}/refund          a postponed show's refund, asked for before its deadline → refunded
 *   POST v1/dev/orders/{id}/end-payment-time   local builds only: the unpaid order expires now
 *
 * Bodies are described beside their schemas; the answers are the views of services/orders/presenters.ts.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { DELIVERY_TYPES, HEADER, ORDER_KEYWORD_MAX_LENGTH, PAYMENT_METHODS } from '../../config.ts';
import { ORDER_TABS } from '../../domain/order-state.ts';
import { requireUser } from '../../services/auth.ts';
import { paymentSetup } from '../../services/payment-providers/index.ts';
import { requestPostponementRefund } from '../../services/show-changes.ts';
import { createOrder, quoteCheckout } from '../../services/orders/checkout.ts';
import { cancelOrder, confirmReceipt, endPaymentTimeNow } from '../../services/orders/lifecycle.ts';
import { listOrders, orderDetail } from '../../services/orders/queries.ts';
import type { ApiEnv } from '../context.ts';
import { ApiError, success } from '../errors.ts';
import { jsonBody, parseInput } from '../validate.ts';
import { bodyId, idParam, queryId } from '../params.ts';

const quantity = z.coerce.number().int().min(1).max(99);
const couponChoice = z.union([z.enum(['best', 'none']), queryId]);

const quoteQuery = z.object({
  listingId: queryId,
  quantity,
  deliveryType: z.enum(DELIVERY_TYPES).optional(),
  coupon: couponChoice.default('best'),
});

const createBody = z.object({
  listingId: queryId,
  quantity: z.number().int().min(1).max(99),
  deliveryType: z.enum(DELIVERY_TYPES),
  paymentMethod: z.enum(PAYMENT_METHODS),
  coupon: z.union([z.literal('none'), bodyId]),
  addressId: bodyId.optional(),
  takerName: z.string().max(200).optional(),
  takerPhoneCountryCode: z.string().regex(/^\+\d{1,4}$/).optional(),
  takerPhone: z.string().max(30).optional(),
  attendeeIds: z.array(bodyId).max(99).optional(),
  acceptNotes: z.boolean(),
  expectedTotal: z.number().int().nonnegative(),
});

const listQuery = z.object({
  tab: z.enum(ORDER_TABS).default('all'),
  keyword: z.string().max(ORDER_KEYWORD_MAX_LENGTH).default(''),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,64}$/;

/** The Idempotency-Key of a retryable write (DESIGN.md); required, so a retry can never double up. */
export function idempotencyKeyOf(header: string | undefined): string {
  if (!header || !IDEMPOTENCY_KEY.test(header)) throw new ApiError(400, 'idempotency_key_required');
  return header;
}

export const orderRoutes = new Hono<ApiEnv>()
  .get('/v1/checkout/quote', async (c) => {
    const user = await requireUser(c);
    const input = parseInput(quoteQuery, c.req.query());
    return c.json(success(await quoteCheckout(c.get('db'), c.get('ctx'), c.get('currencies'), paymentSetup(c.env), user.userId, input, Date.now())));
  })
  .post('/v1/orders', async (c) => {
    const user = await requireUser(c);
    const key = idempotencyKeyOf(c.req.header(HEADER.idempotencyKey));
    const input = parseInput(createBody, await jsonBody(c.req.raw));
    return c.json(success(await createOrder(c.get('db'), c.get('ctx'), c.get('currencies'), paymentSetup(c.env), user.userId, input, key, Date.now())));
  })
  .get('/v1/orders', async (c) => {
    const user = await requireUser(c);
    const query = parseInput(listQuery, c.req.query());
    return c.json(success(await listOrders(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId, query, Date.now())));
  })
  .get('/v1/orders/:id', async (c) => {
    const user = await requireUser(c);
    const { id: orderId } = parseInput(idParam, c.req.param());
    return c.json(success(await orderDetail(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId, orderId, Date.now())));
  })
  .post('/v1/orders/:id/cancel', async (c) => {
    const user = await requireUser(c);
    const { id: orderId } = parseInput(idParam, c.req.param());
    return c.json(success(await cancelOrder(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId, orderId, Date.now())));
  })
  .post('/v1/orders/:id/confirm-receipt', async (c) => {
    const user = await requireUser(c);
    const { id: orderId } = parseInput(idParam, c.req.param());
    return c.json(success(await confirmReceipt(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId, orderId, Date.now())));
  })
  .post('/v1/orders/:id/refund', async (c) => {
    const user = await requireUser(c);
    const { id: orderId } = parseInput(idParam, c.req.param());
    const now = Date.now();
    await requestPostponementRefund(c.get('db'), user.userId, orderId, now);
    return c.json(success(await orderDetail(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId, orderId, now)));
  })
  .post('/v1/dev/orders/:id/end-payment-time', async (c) => {
    const user = await requireUser(c);
    const { id: orderId } = parseInput(idParam, c.req.param());
    await endPaymentTimeNow(c.get('db'), user.userId, orderId, Date.now());
    return c.json(success(await orderDetail(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId, orderId, Date.now())));
  });
