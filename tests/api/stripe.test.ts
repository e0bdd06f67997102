/**
 * Paying through Stripe, as a deployed build does, against the local double of Stripe's API that
 * the test run starts (tests/doubles/stripe-api.ts): Checkout Sessions for cards, WeChat Pay's QR
 * and Alipay's redirect, webhooks signed with the library's own test helper, refunds, and amounts
 * in Stripe's minor units.
 */
import { env } from 'cloudflare:workers';
import Stripe from 'stripe';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { CheckoutQuote, OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import type { PaymentState } from '../../src/lib/services/payments/payment-page.ts';
import { refundOrderPayment } from '../../src/lib/services/payments/refunds.ts';
import type { PaymentStart } from '../../src/lib/services/payments/start.ts';
import { database } from '../../src/lib/data/client.ts';
import { signedInClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { eTicketSource, newKey, placeOrder, type ETicketSource } from './shop.ts';

const DEPLOYED = {
  APP_ENV: 'production',
  PUBLIC_ORIGIN: 'https://tickets.example.com',
  APP_SECRET: 'stripe-test-app-secret-0123456789',
} as const;
const stripeTestCrypto = Stripe.createSubtleCryptoProvider();
const webhooks = new Stripe('sk_test_double').webhooks;

let source: ETicketSource;

beforeAll(async () => {
  await seed();
  source = await eTicketSource();
});

/** A signed-in buyer of a deployed build, paying in `currency`. */
async function deployedBuyer(label: string, currency = 'HKD', language = 'en'): Promise<TestClient> {
  const local = await signedInClient(label);
  const client = new TestClient(DEPLOYED);
  for (const [name, value] of local.cookies) client.cookies.set(name, value);
  client.cookies.set('currencyCode', currency);
  client.cookies.set('language', language);
  return client;
}

async function order(client: TestClient): Promise<OrderDetail> {
  const placed = await placeOrder(client, source.listingId, 1);
  expect(placed.status, placed.text).toBe(200);
  return placed.body.data as OrderDetail;
}

function pay(client: TestClient, orderId: number, method: string, key = newKey()) {
  return client.call<PaymentStart>(`/api/v1/orders/${orderId}/payments`, {
    method: 'POST',
    headers: { 'idempotency-key': key },
    body: { method },
  });
}

async function requestsTo(
  path: string,
): Promise<Array<{ method: string; path: string; idempotencyKey: string | null; params: Record<string, unknown> }>> {
  return (
    (await (await fetch(`${env.STRIPE_API_URL}/_double/requests`, { method: 'POST' })).json()) as Array<{
      method: string;
      path: string;
      idempotencyKey: string | null;
      params: Record<string, unknown>;
    }>
  ).filter((request) => request.path === path);
}

/** The buyer acts on Stripe's page (`pay`, `decline`, `expire`); answers the Event Stripe sends about it. */
async function onStripe(kind: 'checkout_sessions' | 'payment_intents', ref: string, action: 'pay' | 'decline' | 'expire'): Promise<string> {
  const answer = await fetch(`${env.STRIPE_API_URL}/_double/${kind}/${ref}/${action}`, { method: 'POST' });
  expect(answer.status).toBe(200);
  return answer.text();
}

/** Delivers an event to our webhook endpoint, signed as Stripe signs it (the library's test helper). */
async function deliver(payload: string, options: { secret?: string; timestamp?: number } = {}) {
  const signature = await webhooks.generateTestHeaderStringAsync({
    payload,
    secret: options.secret ?? 'whsec_double',
    timestamp: options.timestamp,
    cryptoProvider: stripeTestCrypto,
  });
  return new TestClient(DEPLOYED).call<{ duplicate: boolean }>('/api/v1/payments/webhooks/stripe', {
    method: 'POST',
    headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
    body: payload,
  });
}

async function stateOf(client: TestClient, orderId: number): Promise<PaymentState> {
  const answer = await client.call<PaymentState>(`/api/v1/orders/${orderId}/payment`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data;
}

async function paymentRow(orderId: number) {
  return env.DB.prepare('SELECT provider, provider_ref AS ref, status, amount, currency FROM payments WHERE order_id = ? ORDER BY id DESC')
    .bind(orderId)
    .first<{ provider: string; ref: string; status: string; amount: number; currency: string }>();
}

describe('a deployed build with Stripe configured', () => {
  it("offers only the methods Stripe takes for the buyer's currency", async () => {
    const hkd = await deployedBuyer('stripe-methods-hkd');
    const quoted = await hkd.call<CheckoutQuote>(
      `/api/v1/checkout/quote?listingId=${source.listingId}&quantity=1&deliveryType=e_ticket&coupon=none`,
    );
    expect(quoted.body.data.paymentMethods).toContain('wechat_pay');
    expect(quoted.body.data.paymentMethods).not.toContain('paypal');
    expect(quoted.body.data.paymentMethods).not.toContain('paynow');

    const twd = await deployedBuyer('stripe-methods-twd', 'TWD');
    const twdQuote = await twd.call<CheckoutQuote>(
      `/api/v1/checkout/quote?listingId=${source.listingId}&quantity=1&deliveryType=e_ticket&coupon=none`,
    );
    expect(twdQuote.body.data.paymentMethods).not.toContain('wechat_pay');
    const placed = await order(twd);
    const refused = await pay(twd, placed.id, 'wechat_pay');
    expect(refused.body).toMatchObject({ code: 400, errorCode: 'payment_method_unavailable', field: 'method' });
    const paypal = await pay(hkd, (await order(hkd)).id, 'paypal');
    expect(paypal.body).toMatchObject({ code: 400, errorCode: 'payment_method_unavailable' });
  });

  it('pays by card on a Checkout Session: our key, the locked total, our origin; the webhook only makes us ask', async () => {
    const client = await deployedBuyer('stripe-card', 'HKD', 'zh-HK');
    const placed = await order(client);
    const key = newKey();
    const started = await pay(client, placed.id, 'visa', key);
    expect(started.status, started.text).toBe(200);
    expect(started.body.data.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(started.body.data.qrContent).toBeNull();
    // A double-clicked Pay is the same Checkout Session.
    expect((await pay(client, placed.id, 'visa', key)).body.data).toEqual(started.body.data);

    const sessions = (await requestsTo('/v1/checkout/sessions')).filter(
      (request) => request.params.client_reference_id === `order-${placed.id}`,
    );
    expect(sessions).toHaveLength(1);
    const [created] = sessions;
    expect(created.idempotencyKey).toBe(`order-${placed.id}:${key}`);
    expect(created.params).toMatchObject({
      mode: 'payment',
      locale: 'zh-HK',
      client_reference_id: `order-${placed.id}`,
      allowed_payment_method_types: ['card'],
      success_url: `https://tickets.example.com/zh-HK/order/${placed.id}/pay?returned=1`,
      line_items: [
        {
          quantity: '1',
          price_data: { currency: 'hkd', unit_amount: String(placed.cost.total), product_data: { name: `門票，訂單 ${placed.orderNo}` } },
        },
      ],
    });

    const row = (await paymentRow(placed.id))!;
    expect(row).toMatchObject({ provider: 'stripe', status: 'created', amount: placed.cost.total, currency: 'HKD' });
    const event = await onStripe('checkout_sessions', row.ref, 'pay');
    expect((await deliver(event)).body.data).toEqual({ duplicate: false });
    expect(await stateOf(client, placed.id)).toMatchObject({ orderStatus: 'pending_ticketing', paymentStatus: 'succeeded' });
    // The same event again changes nothing.
    expect((await deliver(event)).body.data).toEqual({ duplicate: true });
  });

  it('never believes a webhook\'s body: a forged "completed" for an unpaid session leaves the order unpaid', async () => {
    const client = await deployedBuyer('stripe-forged');
    const placed = await order(client);
    expect((await pay(client, placed.id, 'mastercard')).status).toBe(200);
    const { ref } = (await paymentRow(placed.id))!;
    const forged = JSON.stringify({
      id: 'evt_forged_completed',
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'checkout.session.completed',
      data: { object: { id: ref, object: 'checkout.session', status: 'complete', payment_status: 'paid' } },
    });
    expect((await deliver(forged)).status).toBe(200);
    expect(await stateOf(client, placed.id)).toMatchObject({ orderStatus: 'pending_payment', paymentStatus: 'created' });

    expect((await deliver(forged, { secret: 'whsec_someone_else' })).body).toMatchObject({
      code: 400,
      errorCode: 'webhook_signature_invalid',
    });
    const old = await deliver(forged.replace('evt_forged_completed', 'evt_forged_old'), {
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(old.body).toMatchObject({ code: 400, errorCode: 'webhook_timestamp_stale' });
    const unsigned = await new TestClient(DEPLOYED).call('/api/v1/payments/webhooks/stripe', { method: 'POST', body: forged });
    expect(unsigned.body).toMatchObject({ code: 400, errorCode: 'webhook_signature_invalid' });
  });

  it('refuses a webhook signed in the future as it refuses an old one', async () => {
    const client = await deployedBuyer('stripe-future');
    const placed = await order(client);
    expect((await pay(client, placed.id, 'visa')).status).toBe(200);
    const event = await onStripe('checkout_sessions', (await paymentRow(placed.id))!.ref, 'pay');
    const ahead = await deliver(event, { timestamp: Math.floor(Date.now() / 1000) + 600 });
    expect(ahead.body).toMatchObject({ code: 400, errorCode: 'webhook_timestamp_stale' });
    expect((await paymentRow(placed.id))!.status).toBe('created');
    // Refused, not taken: the same event delivered on time is handled.
    expect((await deliver(event)).body.data).toEqual({ duplicate: false });
    expect((await paymentRow(placed.id))!.status).toBe('succeeded');
  });

  it('never settles a payment on another amount or currency than its own, and logs it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const [label, tamper] of [
      ['stripe-amount', 'UPDATE payments SET amount = amount + 100 WHERE order_id = ?'],
      ['stripe-currency', "UPDATE payments SET currency = 'USD' WHERE order_id = ?"],
    ] as const) {
      const client = await deployedBuyer(label);
      const placed = await order(client);
      expect((await pay(client, placed.id, 'visa')).status).toBe(200);
      // Stripe's session carries the amount it was opened with; our record now says otherwise.
      await env.DB.prepare(tamper).bind(placed.id).run();
      const { ref } = (await paymentRow(placed.id))!;
      expect((await deliver(await onStripe('checkout_sessions', ref, 'pay'))).status).toBe(200);
      expect(await stateOf(client, placed.id)).toMatchObject({ orderStatus: 'pending_payment', paymentStatus: 'created' });
      expect(log).toHaveBeenCalledWith('Payment not settled: the provider reports other money', expect.objectContaining({ ref }));
    }
    log.mockRestore();
  });

  it("shows WeChat Pay's QR and sends Alipay to its redirect; a declined attempt is a failed payment", async () => {
    const client = await deployedBuyer('stripe-wallets', 'CNY', 'zh-CN');
    const placed = await order(client);
    const wechat = await pay(client, placed.id, 'wechat_pay');
    expect(wechat.status, wechat.text).toBe(200);
    expect(wechat.body.data.qrContent).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(wechat.body.data.qrSvg).toContain('<svg');
    expect(wechat.body.data.checkoutUrl).toMatch(/^https:\/\/payments\.stripe\.com\/wechat_pay\/qr\//);
    const [intent] = (await requestsTo('/v1/payment_intents')).filter(
      (request) => (request.params.metadata as { merchantRef?: string }).merchantRef === `order-${placed.id}`,
    );
    expect(intent.params).toMatchObject({
      amount: String(placed.cost.total),
      currency: 'cny',
      confirm: 'true',
      allowed_payment_method_types: ['wechat_pay'],
      payment_method_data: { type: 'wechat_pay' },
      payment_method_options: { wechat_pay: { client: 'web' } },
    });
    const wechatRef = (await paymentRow(placed.id))!.ref;
    expect(wechatRef).toMatch(/^pi_/);
    await deliver(await onStripe('payment_intents', wechatRef, 'decline'));
    expect(await stateOf(client, placed.id)).toMatchObject({ orderStatus: 'pending_payment', paymentStatus: 'failed' });

    const alipay = await pay(client, placed.id, 'alipay');
    expect(alipay.body.data.checkoutUrl).toMatch(/^https:\/\/pm-redirects\.stripe\.com\/authorize\//);
    expect(alipay.body.data.qrContent).toBe(alipay.body.data.checkoutUrl);
    await deliver(await onStripe('payment_intents', (await paymentRow(placed.id))!.ref, 'pay'));
    expect(await stateOf(client, placed.id)).toMatchObject({ orderStatus: 'pending_ticketing', paymentStatus: 'succeeded' });
  });

  it("charges TWD and IDR in Stripe's hundredths, and refunds once, through Stripe", async () => {
    for (const currency of ['TWD', 'IDR']) {
      const client = await deployedBuyer(`stripe-${currency.toLowerCase()}`, currency);
      const placed = await order(client);
      expect((await pay(client, placed.id, 'visa')).status).toBe(200);
      const sessions = await requestsTo('/v1/checkout/sessions');
      const created = sessions.find((request) => request.params.client_reference_id === `order-${placed.id}`)!;
      expect(created.params.line_items).toEqual([
        {
          quantity: '1',
          price_data: {
            currency: currency.toLowerCase(),
            unit_amount: String(placed.cost.total * 100),
            product_data: { name: `Tickets, order ${placed.orderNo}` },
          },
        },
      ]);
      const { ref } = (await paymentRow(placed.id))!;
      await deliver(await onStripe('checkout_sessions', ref, 'pay'));
      expect((await stateOf(client, placed.id)).orderStatus).toBe('pending_ticketing');

      // The seller fails to deliver: half is given back, and asking twice gives back nothing more.
      const half = Math.floor(placed.cost.total / 2);
      const [first, second] = await Promise.all([
        refundOrderPayment(database(env.DB), env, placed.id, half, Date.now()),
        refundOrderPayment(database(env.DB), env, placed.id, half, Date.now()).catch(() => null),
      ]);
      expect(first).toEqual({ amount: half, currency });
      expect(second === null || second.amount === half).toBe(true);
      const refunds = (await (await fetch(`${env.STRIPE_API_URL}/_double/refunds`, { method: 'POST' })).json()) as Array<{
        amount: number;
        currency: string;
        metadata: { ref?: string };
      }>;
      const ours = refunds.filter((refund) => refund.metadata.ref === ref);
      expect(ours).toEqual([expect.objectContaining({ amount: half * 100, currency: currency.toLowerCase() })]);
      expect((await paymentRow(placed.id))!.status).toBe('refunded');
    }
  });

  it('closes a payment whose Checkout Session expired, and opens a new one on the next Pay', async () => {
    const client = await deployedBuyer('stripe-expired');
    const placed = await order(client);
    expect((await pay(client, placed.id, 'visa')).status).toBe(200);
    const first = (await paymentRow(placed.id))!;
    await onStripe('checkout_sessions', first.ref, 'expire');
    const again = await pay(client, placed.id, 'visa');
    expect(again.status, again.text).toBe(200);
    const second = (await paymentRow(placed.id))!;
    expect(second.ref).not.toBe(first.ref);
    const { results } = await env.DB.prepare('SELECT status FROM payments WHERE order_id = ? ORDER BY id')
      .bind(placed.id)
      .all<{ status: string }>();
    expect(results.map((row) => row.status)).toEqual(['cancelled', 'created']);
  });
});
