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
import { DomainError } from '../../domain/errors.ts';
import { isPaymentMethod } from '../../domain/payment-outcome.ts';
import { checkoutProvider, type PaymentSetup } from '../../domain/payment-provider-choice.ts';
import type { ServiceEnv } from '../../services/platform/env.ts';
import { paymentSetup } from '../../services/payments/providers/index.ts';
import { requirePublicOrigin } from '../../services/platform/public-origin.ts';
import { paymentState } from '../../services/payments/payment-page.ts';
import { receiveWebhook } from '../../services/payments/settlement.ts';
import { startPayment } from '../../services/payments/start.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { idParam } from '../params.ts';
import { claimsSignIn, signedIn } from '../session.ts';
import { idempotent, input } from '../validate.ts';

const payBody = z.object({ method: z.string().max(40) });

let reportedUnavailable = false;

/** The payment setup here, when it has a provider for new payments; else a 503 (logged once per isolate). */
function availableSetup(config: ServiceEnv): PaymentSetup {
  const setup = paymentSetup(config);
  if (checkoutProvider(setup)) return setup;
  if (!reportedUnavailable) {
    reportedUnavailable = true;
    console.error(
      `Payments are unavailable: APP_ENV=${setup.appEnv} has no real payment provider configured (set STRIPE_SECRET_KEY), and the sandbox is for local builds only.`,
    );
  }
  throw new DomainError('payments_unavailable');
}
// Any name: one that is not a provider's, however it is spelled, is a 404 like any path not served (paymentProvider).
const providerParam = z.object({ provider: z.string() });

const doc = describe('Payments');

export const paymentRoutes = new Hono<ApiEnv>()
  .post(
    '/v1/orders/:id/payments',
    doc.user('Starts paying an order (Idempotency-Key header: the same key answers the same payment)'),
    claimsSignIn,
    input('param', idParam),
    idempotent,
    input('json', payBody),
    async (c) => {
      const { method } = c.req.valid('json');
      if (!isPaymentMethod(method)) throw new DomainError('payment_method_unavailable', {}, 'method');
      const setup = availableSetup(c.env);
      const where = { origin: requirePublicOrigin(c.env, c.req.url), locale: c.get('ctx').locale };
      const orderId = c.req.valid('param').id;
      const { scope, idempotencyKey, afterWrite } = c.var;
      return c.json(success(await startPayment(scope, orderId, method, idempotencyKey, setup, where, afterWrite)));
    },
  )
  .get(
    '/v1/orders/:id/payment',
    doc.user("An order's payment state, after asking the provider about open payments"),
    signedIn,
    input('param', idParam),
    async (c) => c.json(success(await paymentState(c.var.scope, c.req.valid('param').id))),
  )
  .post('/v1/payments/webhooks/:provider', doc.anyone("A payment provider's signed notice"), input('param', providerParam), async (c) => {
    const body = await c.req.text();
    const { scope, afterWrite } = c.var;
    return c.json(success(await receiveWebhook(scope, c.req.valid('param').provider, c.req.raw.headers, body, afterWrite)));
  });
