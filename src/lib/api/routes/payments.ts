/**
 * Paying for an order (signed in, owner only) and the providers' webhooks (signed by the provider).
 *
 *   POST v1/orders/{id}/payments         Idempotency-Key; { method } → PaymentStart
 *                                        (the same key answers the same payment; 409 order_not_payable
 *                                        once the order is paid, closed or past its deadline)
 *   GET  v1/orders/{id}/payment          PaymentState, after asking the provider about open payments
 *   POST v1/payments/webhooks/{provider} the provider's signed notice; 200 { duplicate } when taken
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { HEADER } from '../../config.ts';
import { isPaymentMethod } from '../../domain/payment-outcome.ts';
import { checkoutProvider, type PaymentSetup } from '../../domain/payment-provider-choice.ts';
import { requireUser } from '../../services/auth.ts';
import { paymentSetup } from '../../services/payment-providers/index.ts';
import { requirePublicOrigin } from '../../services/public-origin.ts';
import { paymentState, receiveWebhook, startPayment } from '../../services/payments.ts';
import type { ApiEnv } from '../context.ts';
import { ApiError, success } from '../errors.ts';
import { jsonBody, parseInput } from '../validate.ts';
import { idempotencyKeyOf } from './orders.ts';
import { idParam } from '../params.ts';

const payBody = z.object({ method: z.string().max(40) });

let reportedUnavailable = false;

/** The payment setup here, when it has a provider for new payments; else a 503 (logged once per isolate). */
function availableSetup(config: Cloudflare.Env): PaymentSetup {
  const setup = paymentSetup(config);
  if (checkoutProvider(setup)) return setup;
  if (!reportedUnavailable) {
    reportedUnavailable = true;
    console.error(`Payments are unavailable: APP_ENV=${setup.appEnv} has no real payment provider configured (set STRIPE_SECRET_KEY), and the sandbox is for local builds only.`);
  }
  throw new ApiError(503, 'payments_unavailable');
}
const providerParam = z.object({ provider: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/) });

export const paymentRoutes = new Hono<ApiEnv>()
  .post('/v1/orders/:id/payments', async (c) => {
    const user = await requireUser(c);
    const { id: orderId } = parseInput(idParam, c.req.param());
    const key = idempotencyKeyOf(c.req.header(HEADER.idempotencyKey));
    const { method } = parseInput(payBody, await jsonBody(c.req.raw));
    if (!isPaymentMethod(method)) throw new ApiError(400, 'payment_method_unavailable', {}, 'method');
    const setup = availableSetup(c.env);
    const where = { origin: requirePublicOrigin(c.env, c.req.url), locale: c.get('ctx').locale };
    return c.json(success(await startPayment(c.get('db'), user.userId, orderId, method, key, setup, where, Date.now())));
  })
  .get('/v1/orders/:id/payment', async (c) => {
    const user = await requireUser(c);
    const { id: orderId } = parseInput(idParam, c.req.param());
    return c.json(success(await paymentState(c.get('db'), user.userId, orderId, Date.now())));
  })
  .post('/v1/payments/webhooks/:provider', async (c) => {
    const { provider } = parseInput(providerParam, c.req.param());
    const body = await c.req.text();
    return c.json(success(await receiveWebhook(c.get('db'), provider, c.req.raw.headers, body, Date.now())));
  });
