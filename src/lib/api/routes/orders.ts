/**
 * Checkout and the buyer's orders (signed in; only the owner sees an order).
 *
 *   GET  v1/checkout/quote?listingId=&quantity=&deliveryType=&coupon=best|none|<userCouponId>&waitlistOfferId=
 *   POST v1/orders                      Idempotency-Key; creates the order and holds its tickets (or claims the offer's)
 *   GET  v1/orders?tab=&keyword=&page=  a page of the buyer's orders
 *   GET  v1/orders/{id}                 one order (404 order_not_found when missing or someone else's)
 *   POST v1/orders/{id}/cancel          pending payment → cancelled
 *   POST v1/orders/{id}/confirm-receipt pending receipt → completed
 *   POST v1/orders/{id}/refund          a postponed show's refund, asked for before its deadline → refunded
 *   POST v1/orders/{id}/taker-phone/code     sends a code to the pickup taker's number (sign-in codes' send limits)
 *   POST v1/orders/{id}/taker-phone/confirm  {code}: the number confirmed, pickup details go to it
 *
 * Bodies are described beside their schemas; the answers are the views of services/orders/presenters.ts.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { CODE_RESEND_SECONDS } from '../../config/accounts.ts';
import { ORDER_KEYWORD_MAX_LENGTH } from '../../config/orders.ts';
import { DELIVERY_TYPES } from '../../domain/delivery.ts';
import { PAYMENT_METHODS } from '../../domain/payment-methods.ts';
import { ORDER_TABS } from '../../domain/order-state.ts';
import { paymentSetup } from '../../services/payments/providers/index.ts';
import { requestPostponementRefund } from '../../services/catalogue/show-changes.ts';
import { quoteCheckout } from '../../services/orders/checkout.ts';
import { createOrder } from '../../services/orders/create-order.ts';
import { cancelOrder, confirmReceipt } from '../../services/orders/lifecycle.ts';
import { claimedOrderDetail, listOrders, orderDetail } from '../../services/orders/queries.ts';
import { confirmTakerPhone, sendTakerPhoneCode } from '../../services/orders/taker-phone.ts';
import { authDeps } from '../auth-deps.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { bodyId, idParam, minorAmount, pageNumber, phoneCountryCode, queryId, verificationCode } from '../params.ts';
import { claimsSignIn, signedIn } from '../session.ts';
import { idempotent, input } from '../validate.ts';

const quantity = z.coerce.number().int().min(1).max(99);
const couponChoice = z.union([z.enum(['best', 'none']), queryId]);

const quoteQuery = z.object({
  listingId: queryId,
  quantity,
  deliveryType: z.enum(DELIVERY_TYPES).optional(),
  coupon: couponChoice.default('best'),
  /** Buys the tickets a waitlist offer holds for the buyer. */
  waitlistOfferId: queryId.optional(),
});

const createBody = z.object({
  listingId: queryId,
  quantity: z.number().int().min(1).max(99),
  deliveryType: z.enum(DELIVERY_TYPES),
  paymentMethod: z.enum(PAYMENT_METHODS),
  coupon: z.union([z.literal('none'), bodyId]),
  addressId: bodyId.optional(),
  takerName: z.string().max(200).optional(),
  takerPhoneCountryCode: phoneCountryCode.optional(),
  takerPhone: z.string().max(30).optional(),
  attendeeIds: z.array(bodyId).max(99).optional(),
  acceptNotes: z.boolean(),
  expectedTotal: minorAmount.nonnegative(),
  waitlistOfferId: bodyId.optional(),
  /** A high-demand session's waiting-room pass, given to the buyer once let through. */
  waitingRoomPass: z.string().max(200).optional(),
});

const takerCodeBody = z.object({ code: verificationCode });

const listQuery = z.object({
  tab: z.enum(ORDER_TABS).default('all'),
  keyword: z.string().max(ORDER_KEYWORD_MAX_LENGTH).default(''),
  page: pageNumber,
});

const doc = describe('Orders');

export const orderRoutes = new Hono<ApiEnv>()
  .get(
    '/v1/checkout/quote',
    doc.user("The checkout's quote: price, fees, coupon and delivery choices"),
    claimsSignIn,
    input('query', quoteQuery),
    async (c) => {
      return c.json(success(await quoteCheckout(c.var.scope, paymentSetup(c.env), c.req.valid('query'))));
    },
  )
  .post(
    '/v1/orders',
    doc.user('Creates an order and holds its tickets (Idempotency-Key header)'),
    claimsSignIn,
    idempotent,
    input('json', createBody),
    async (c) => {
      const { scope, afterWrite, idempotencyKey } = c.var;
      return c.json(success(await createOrder(scope, paymentSetup(c.env), c.req.valid('json'), idempotencyKey, afterWrite)));
    },
  )
  .get('/v1/orders', doc.user("A page of the buyer's orders"), signedIn, input('query', listQuery), async (c) =>
    c.json(success(await listOrders(c.var.scope, c.req.valid('query')))),
  )
  .get('/v1/orders/:id', doc.user("One of the buyer's orders"), claimsSignIn, input('param', idParam), async (c) =>
    c.json(success(await claimedOrderDetail(c.var.scope, c.req.valid('param').id))),
  )
  .post('/v1/orders/:id/cancel', doc.user('Cancels an order pending payment'), signedIn, input('param', idParam), async (c) =>
    c.json(success(await cancelOrder(c.var.scope, c.req.valid('param').id))),
  )
  .post('/v1/orders/:id/confirm-receipt', doc.user("Confirms an order's tickets arrived"), signedIn, input('param', idParam), async (c) =>
    c.json(success(await confirmReceipt(c.var.scope, c.req.valid('param').id))),
  )
  .post(
    '/v1/orders/:id/taker-phone/code',
    doc.user("Sends a code to the pickup taker's number, to confirm it"),
    signedIn,
    input('param', idParam),
    async (c) => {
      await sendTakerPhoneCode(await authDeps(c), c.var.scope.userId, c.req.valid('param').id);
      return c.json(success({ resendAfterSeconds: CODE_RESEND_SECONDS }));
    },
  )
  .post(
    '/v1/orders/:id/taker-phone/confirm',
    doc.user("Confirms the pickup taker's number with the code sent to it"),
    signedIn,
    input('param', idParam),
    input('json', takerCodeBody),
    async (c) => {
      const { scope } = c.var;
      const orderId = c.req.valid('param').id;
      await confirmTakerPhone(await authDeps(c), scope.userId, orderId, c.req.valid('json').code);
      return c.json(success(await orderDetail(scope, orderId)));
    },
  )
  .post(
    '/v1/orders/:id/refund',
    doc.user("Asks for a postponed show's refund, before its deadline"),
    signedIn,
    input('param', idParam),
    async (c) => {
      const { scope } = c.var;
      const orderId = c.req.valid('param').id;
      await requestPostponementRefund(scope, orderId);
      return c.json(success(await orderDetail(scope, orderId)));
    },
  );
