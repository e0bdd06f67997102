/**
 * Stripe, through its official library with the fetch HTTP client and Web Crypto (both run on
 * Workers). Cards, PayNow and PayPal pay on a Stripe Checkout Session's hosted page (our reference
 * is the session id, cs_…); WeChat Pay and Alipay on a PaymentIntent confirmed here, whose next
 * action is the QR code or the redirect Stripe gives for them (reference pi_…).
 *
 * Stripe is the source of truth: `query` reads the session or intent back, and a webhook only names
 * the object to read. Our Idempotency-Key is Stripe's idempotency key, so a retried pay call never
 * opens a second charge; a refund's key is derived from the payment, so it is made once.
 */
import Stripe from 'stripe';
import { STRIPE_PROVIDER, STRIPE_SESSION_MIN_LIFETIME_MS } from '../../../config/orders.ts';
import { DomainError } from '../../../domain/errors.ts';
import type { CurrencyTable, Money } from '../../../domain/money.ts';
import type { ProviderPaymentStatus } from '../../../domain/payment-outcome.ts';
import { timestampFresh } from '../../../domain/payment-webhook.ts';
import { fromStripeAmount, stripeLocale, stripeMethodOf, stripeSignatureTime, toStripeAmount } from '../../../domain/stripe.ts';
import type { CreatedPayment, CreatePaymentInput, PaymentProvider, ProviderPayment, WebhookNotice } from './types.ts';

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** Another address for Stripe's API (a local double in tests), e.g. http://127.0.0.1:12111; unset: api.stripe.com. */
  apiUrl?: string;
}

/** Events that mean "this payment may have changed"; every other event is acknowledged and ignored. */
const SESSION_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);
const INTENT_EVENTS = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed', 'payment_intent.canceled', 'charge.refunded']);

/** The Stripe client for a configuration: fetch for HTTP, no automatic retries (our callers retry, with the same keys). */
export function stripeClient(config: StripeConfig): Stripe {
  const api = config.apiUrl ? new URL(config.apiUrl) : null;
  return new Stripe(config.secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 0,
    timeout: 20_000,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'http:' ? 80 : 443),
          protocol: api.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
}

function isMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeError && error.statusCode === 404;
}

function intentStatus(intent: Stripe.PaymentIntent): ProviderPaymentStatus {
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  if (intent.status === 'succeeded') return charge && charge.amount_refunded > 0 ? 'refunded' : 'succeeded';
  if (intent.status === 'canceled') return 'cancelled';
  // Back to needing a payment method after an attempt: that attempt was declined.
  if (intent.status === 'requires_payment_method' && intent.last_payment_error) return 'failed';
  return 'pending';
}

function sessionStatus(session: Stripe.Checkout.Session): ProviderPaymentStatus {
  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
  if (intent && intent.status !== 'requires_payment_method') return intentStatus(intent);
  if (session.status === 'expired') return 'cancelled';
  if (session.status === 'complete' && session.payment_status === 'paid') return 'succeeded';
  if (intent) return intentStatus(intent);
  return 'pending';
}

/** The page and QR of a PaymentIntent waiting for the buyer (WeChat Pay's QR, Alipay's redirect). */
function intentCheckout(intent: Stripe.PaymentIntent, returnUrl: string): CreatedPayment {
  const action = intent.next_action;
  const wechat = action?.wechat_pay_display_qr_code;
  if (wechat) return { ref: intent.id, checkoutUrl: wechat.hosted_instructions_url, qrContent: wechat.data };
  const alipay = action?.alipay_handle_redirect?.url;
  if (alipay) return { ref: intent.id, checkoutUrl: alipay, qrContent: alipay };
  // Nothing left for the buyer to do there (paid, failed or cancelled): back to our payment page.
  return { ref: intent.id, checkoutUrl: returnUrl, qrContent: null };
}

export function stripeProvider(config: StripeConfig, currencies: () => Promise<CurrencyTable>): PaymentProvider {
  const stripe = stripeClient(config);
  const crypto = Stripe.createSubtleCryptoProvider();

  async function digitsOf(currency: string): Promise<number> {
    const found = (await currencies()).get(currency);
    if (!found) throw new Error(`Unknown currency ${currency}`);
    return found.minorDigits;
  }

  async function retrieve(
    ref: string,
  ): Promise<{ status: ProviderPaymentStatus; amount: number; currency: string; intent: Stripe.PaymentIntent | null } | null> {
    try {
      if (ref.startsWith('pi_')) {
        const intent = await stripe.paymentIntents.retrieve(ref, { expand: ['latest_charge'] });
        return { status: intentStatus(intent), amount: intent.amount, currency: intent.currency, intent };
      }
      const session = await stripe.checkout.sessions.retrieve(ref, { expand: ['payment_intent.latest_charge'] });
      const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
      return { status: sessionStatus(session), amount: session.amount_total ?? 0, currency: session.currency ?? '', intent };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  return {
    name: STRIPE_PROVIDER,

    async create(input: CreatePaymentInput, now: number): Promise<CreatedPayment> {
      const { amount, currency } = toStripeAmount(input.amount, await digitsOf(input.amount.currency));
      const type = stripeMethodOf(input.method);
      const metadata = { merchantRef: input.merchantRef };
      const options = { idempotencyKey: `${input.merchantRef}:${input.idempotencyKey}` };
      if (type === 'wechat_pay' || type === 'alipay') {
        const intent = await stripe.paymentIntents.create(
          {
            amount,
            currency,
            description: input.description,
            metadata,
            allowed_payment_method_types: [type],
            payment_method_data: { type },
            ...(type === 'wechat_pay' ? { payment_method_options: { wechat_pay: { client: 'web' } } } : {}),
            confirm: true,
            return_url: input.returnUrl,
          },
          options,
        );
        return intentCheckout(intent, input.returnUrl);
      }
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [{ quantity: 1, price_data: { currency, unit_amount: amount, product_data: { name: input.description } } }],
          allowed_payment_method_types: [type],
          client_reference_id: input.merchantRef,
          metadata,
          payment_intent_data: { metadata },
          success_url: input.returnUrl,
          cancel_url: input.returnUrl,
          locale: stripeLocale(input.locale),
          expires_at: Math.ceil((now + STRIPE_SESSION_MIN_LIFETIME_MS) / 1000),
        },
        options,
      );
      if (!session.url) throw new Error(`Stripe gave checkout session ${session.id} no page`);
      return { ref: session.id, checkoutUrl: session.url, qrContent: null };
    },

    async reopen(ref: string, input: Pick<CreatePaymentInput, 'returnUrl'>): Promise<CreatedPayment> {
      if (ref.startsWith('pi_')) return intentCheckout(await stripe.paymentIntents.retrieve(ref), input.returnUrl);
      const session = await stripe.checkout.sessions.retrieve(ref);
      return { ref, checkoutUrl: session.status === 'open' && session.url ? session.url : input.returnUrl, qrContent: null };
    },

    async query(ref: string): Promise<ProviderPayment | null> {
      const found = await retrieve(ref);
      if (!found) return null;
      const currency = found.currency.toUpperCase();
      return { ref, status: found.status, amount: fromStripeAmount(found.amount, currency, await digitsOf(currency)) };
    },

    async refund(ref: string, money: Money): Promise<ProviderPayment> {
      const found = await retrieve(ref);
      if (!found) throw new Error(`Stripe knows no payment ${ref}`);
      const payment = async (status: ProviderPaymentStatus) => ({
        ref,
        status,
        amount: fromStripeAmount(found.amount, found.currency, await digitsOf(money.currency)),
      });
      if (found.status === 'refunded') return payment('refunded');
      if (found.status !== 'succeeded' || !found.intent)
        throw new Error(`Stripe payment ${ref} is ${found.status}, not succeeded: nothing to refund`);
      const { amount, currency } = toStripeAmount(money, await digitsOf(money.currency));
      if (currency !== found.currency || amount <= 0 || amount > found.amount)
        throw new Error(`Stripe payment ${ref} cannot refund ${money.amount} ${money.currency}`);
      // One refund per payment: the key makes a retried call (the sweep, a concurrent close) the same refund.
      await stripe.refunds.create({ payment_intent: found.intent.id, amount, metadata: { ref } }, { idempotencyKey: `refund:${ref}` });
      return payment('refunded');
    },

    async verifyWebhook(headers: Headers, body: string, now: number): Promise<WebhookNotice> {
      const signature = headers.get('stripe-signature');
      if (!signature) throw new DomainError('webhook_signature_invalid');
      let event: Stripe.Event;
      try {
        // Tolerance 0: the library would refuse only old deliveries, and one signed in the future
        // (a replay prepared ahead) must be refused too, so the age is checked below, both ways.
        event = await stripe.webhooks.constructEventAsync(body, signature, config.webhookSecret, 0, crypto, now);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new DomainError('webhook_signature_invalid');
        throw new DomainError('invalid_input', { field: 'body' }, 'body');
      }
      const signedAt = stripeSignatureTime(signature);
      if (signedAt === null || !timestampFresh(signedAt, now)) throw new DomainError('webhook_timestamp_stale');
      const object = event.data.object as { id?: unknown; object?: unknown; payment_intent?: unknown };
      if (SESSION_EVENTS.has(event.type) && typeof object.id === 'string') return { eventId: event.id, ref: object.id };
      if (INTENT_EVENTS.has(event.type)) {
        const intent = object.object === 'payment_intent' ? object.id : object.payment_intent;
        if (typeof intent === 'string') return { eventId: event.id, ref: intent };
      }
      return { eventId: event.id, ref: null };
    },
  };
}
