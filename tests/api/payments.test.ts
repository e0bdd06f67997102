import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/lib/api/app.ts';
import { database } from '../../src/lib/data/client.ts';
import { countingRoundTrips } from '../../src/lib/data/measured-d1.ts';
import {
  decideSandboxPayment,
  sandboxWebhook,
  SANDBOX_SIGNATURE_HEADER,
  type SandboxDecision,
  type WebhookDelivery,
} from '../../src/lib/services/payments/providers/sandbox.ts';
import type { PaymentState } from '../../src/lib/services/payments/payment-page.ts';
import { refundOrderPayment } from '../../src/lib/services/payments/refunds.ts';
import type { PaymentStart } from '../../src/lib/services/payments/start.ts';
import { signedInClient, TestClient } from './auth-client.ts';
import { call, seed } from './helpers.ts';

const db = () => database(env.DB);
const DAY = 24 * 3600 * 1000;

interface Order {
  id: number;
  orderNo: string;
  status: string;
  paymentSubstatus: string | null;
  paymentMethod: string | null;
  paidAt: number | null;
  updatedAt: number;
  cancelReason: string | null;
  cost: { total: number };
  refund: { amount: number; currency: string } | null;
}

let listingIds: number[] = [];
let nextListing = 0;
let keyCount = 0;
const newKey = () => `pay-test-key-${Date.now()}-${keyCount++}`;

beforeAll(async () => {
  await seed();
  const now = Date.now();
  // Listings anyone can buy one e-ticket of right now, without real-name attendees.
  const { results } = await env.DB.prepare(`
    SELECT l.id FROM listings l
    JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
    WHERE l.status = 'active' AND l.quantity_available >= 2 AND l.delivery_types LIKE '%e_ticket%'
      AND a.status IN (1, 4) AND a.real_name_required = 0 AND a.num_min <= 1 AND a.sale_starts_at <= ? AND s.starts_at > ?
    ORDER BY l.quantity_available DESC, l.id LIMIT 40`)
    .bind(now, now + 2 * DAY)
    .all<{ id: number }>();
  listingIds = results.map((row) => row.id);
  expect(listingIds.length).toBeGreaterThan(10);
});

/** Places an order for one e-ticket through the order API, as the confirmation page does. */
async function placeOrder(client: TestClient): Promise<Order> {
  for (let attempt = 0; attempt < listingIds.length; attempt++) {
    const listingId = listingIds[nextListing++ % listingIds.length];
    const quote = await client.call<{ cost: { total: number } }>(
      `/api/v1/checkout/quote?listingId=${listingId}&quantity=1&deliveryType=e_ticket&coupon=none`,
    );
    if (quote.status !== 200) continue;
    const created = await client.call<Order>('/api/v1/orders', {
      method: 'POST',
      headers: { 'idempotency-key': newKey() },
      body: {
        listingId,
        quantity: 1,
        deliveryType: 'e_ticket',
        paymentMethod: 'visa',
        coupon: 'none',
        acceptNotes: true,
        expectedTotal: quote.body.data.cost.total,
      },
    });
    if (created.status === 200) return created.body.data;
  }
  throw new Error('No listing could be ordered');
}

function pay(client: TestClient, orderId: number, method: string, key = newKey()) {
  return client.call<PaymentStart>(`/api/v1/orders/${orderId}/payments`, {
    method: 'POST',
    headers: { 'idempotency-key': key },
    body: { method },
  });
}

async function startPaying(client: TestClient, orderId: number, method = 'visa'): Promise<PaymentStart> {
  const answer = await pay(client, orderId, method);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data;
}

function refOf(payment: PaymentStart): string {
  return new URL(payment.checkoutUrl).pathname.split('/').pop()!;
}

/** What the sandbox's hosted page does with a choice: ledger first, then its webhook (returned, not yet sent). */
async function decide(payment: PaymentStart, decision: SandboxDecision): Promise<WebhookDelivery> {
  const result = await decideSandboxPayment(db(), env, refOf(payment), decision, Date.now());
  expect(result?.webhook).toBeTruthy();
  return result!.webhook!;
}

function deliver(webhook: WebhookDelivery, changes: { headers?: Record<string, string>; body?: string } = {}) {
  return call<{ duplicate: boolean }>(new URL(webhook.url).pathname, {
    method: 'POST',
    headers: { ...webhook.init.headers, ...changes.headers },
    body: changes.body ?? webhook.init.body,
  });
}

async function orderOf(client: TestClient, orderId: number): Promise<Order> {
  const answer = await client.call<Order>(`/api/v1/orders/${orderId}`);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

async function stateOf(client: TestClient, orderId: number): Promise<PaymentState> {
  const answer = await client.call<PaymentState>(`/api/v1/orders/${orderId}/payment`);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

async function paymentRows(orderId: number) {
  const { results } = await env.DB.prepare('SELECT id, status, amount, paid_at, refunded_at FROM payments WHERE order_id = ? ORDER BY id')
    .bind(orderId)
    .all<{
      id: number;
      status: string;
      amount: number;
      paid_at: number | null;
      refunded_at: number | null;
    }>();
  return results;
}

async function ledgerStatus(payment: PaymentStart): Promise<string | null> {
  return env.DB.prepare('SELECT status FROM sandbox_payments WHERE ref = ?').bind(refOf(payment)).first<string>('status');
}

describe('starting a payment', () => {
  it("needs a session, an Idempotency-Key and a known method; someone else's order is not found", async () => {
    const owner = await signedInClient('payer');
    const order = await placeOrder(owner);

    expect((await pay(new TestClient(), order.id, 'visa')).status).toBe(401);
    const noKey = await owner.call(`/api/v1/orders/${order.id}/payments`, { method: 'POST', body: { method: 'visa' } });
    expect(noKey.body).toMatchObject({ code: 400, errorCode: 'idempotency_key_required' });
    const badMethod = await pay(owner, order.id, 'bitcoin');
    expect(badMethod.body).toMatchObject({ code: 400, errorCode: 'payment_method_unavailable', field: 'method' });
    expect(
      (await owner.call(`/api/v1/orders/${order.id}/payments`, { method: 'POST', headers: { 'idempotency-key': newKey() }, body: '{' }))
        .status,
    ).toBe(400);
    expect((await pay(owner, 0, 'visa')).status).toBe(400);

    const stranger = await signedInClient('stranger');
    const theirs = await pay(stranger, order.id, 'visa');
    expect(theirs.body).toMatchObject({ code: 404, errorCode: 'order_not_found' });
    expect((await stranger.call(`/api/v1/orders/${order.id}/payment`)).body).toMatchObject({ code: 404, errorCode: 'order_not_found' });
    expect((await pay(owner, 999_999, 'visa')).body).toMatchObject({ code: 404, errorCode: 'order_not_found' });
    expect(await paymentRows(order.id)).toEqual([]);
  });

  it('answers a double-clicked Pay with the same payment, and opens another only for another method', async () => {
    const client = await signedInClient('payer');
    const order = await placeOrder(client);
    const key = newKey();
    const [first, second] = await Promise.all([pay(client, order.id, 'visa', key), pay(client, order.id, 'visa', key)]);
    expect(first.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    expect(first.body.data).toMatchObject({
      method: 'visa',
      status: 'created',
      qrContent: null,
      qrSvg: null,
      deadline: expect.any(Number),
    });
    expect(first.body.data.checkoutUrl).toMatch(/^http:\/\/localhost\/en\/sandbox\/pay\/sbx_[A-Za-z0-9_-]{43}$/);

    // A reloaded page (a new key) finds the open payment of the same method instead of opening another.
    const reloaded = await pay(client, order.id, 'visa');
    expect(reloaded.body.data.paymentId).toBe(first.body.data.paymentId);

    const wechat = await startPaying(client, order.id, 'wechat_pay');
    expect(wechat.paymentId).not.toBe(first.body.data.paymentId);
    expect(wechat.qrContent).toBe(wechat.checkoutUrl);
    expect(wechat.qrSvg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+"/);

    expect((await paymentRows(order.id)).map((row) => row.status)).toEqual(['created', 'created']);
    const { count } = (await env.DB.prepare('SELECT count(*) AS count FROM sandbox_payments WHERE merchant_ref = ?')
      .bind(`order-${order.id}`)
      .first<{ count: number }>())!;
    expect(count).toBe(2);
    expect(await orderOf(client, order.id)).toMatchObject({
      status: 'pending_payment',
      paymentSubstatus: 'paying',
      paymentMethod: 'wechat_pay',
    });
  });

  it('speaks the request language on the hosted page and the return address', async () => {
    const client = await signedInClient('payer');
    const order = await placeOrder(client);
    const answer = await client.call<PaymentStart>(`/api/v1/orders/${order.id}/payments`, {
      method: 'POST',
      headers: { 'idempotency-key': newKey(), language: 'zh-HK' },
      body: { method: 'alipay' },
    });
    expect(answer.body.data.checkoutUrl).toContain('/zh-HK/sandbox/pay/');
    const returnUrl = await env.DB.prepare('SELECT return_url FROM sandbox_payments WHERE ref = ?')
      .bind(refOf(answer.body.data))
      .first<string>('return_url');
    expect(returnUrl).toBe(`http://localhost/zh-HK/order/${order.id}/pay?returned=1`);
  });
});

describe('confirming a payment', () => {
  it('confirms the order when the sandbox says the payment is approved, and a second confirmation changes nothing', async () => {
    const client = await signedInClient('payer');
    const order = await placeOrder(client);
    const key = newKey();
    const payment = (await pay(client, order.id, 'visa', key)).body.data;

    const delivered = await deliver(await decide(payment, 'approve'));
    expect(delivered.status).toBe(200);
    expect(delivered.body.data).toEqual({ duplicate: false });
    const paid = await orderOf(client, order.id);
    expect(paid).toMatchObject({ status: 'pending_ticketing', paymentSubstatus: null, paidAt: expect.any(Number), refund: null });
    expect(await stateOf(client, order.id)).toMatchObject({
      orderStatus: 'pending_ticketing',
      paymentId: payment.paymentId,
      paymentStatus: 'succeeded',
    });

    // The provider notifies again (a new event): the server asks again and finds nothing to do.
    const again = await deliver(await sandboxWebhook(env, `http://localhost/api/v1/payments/webhooks/sandbox`, refOf(payment), Date.now()));
    expect(again.body.data).toEqual({ duplicate: false });
    const after = await orderOf(client, order.id);
    expect(after).toMatchObject({ status: 'pending_ticketing', paidAt: paid.paidAt, updatedAt: paid.updatedAt });
    expect((await paymentRows(order.id)).map((row) => row.status)).toEqual(['succeeded']);
    expect(await ledgerStatus(payment)).toBe('approved');

    // Paid: no new payment, but a retried Pay with the same key still answers its payment.
    expect((await pay(client, order.id, 'visa')).body).toMatchObject({ code: 409, errorCode: 'order_not_payable' });
    expect((await pay(client, order.id, 'visa', key)).body.data).toMatchObject({ paymentId: payment.paymentId, status: 'succeeded' });
  });

  it('takes a webhook only as a trigger: its body cannot claim a payment, and a replayed event is ignored', async () => {
    const client = await signedInClient('payer');
    const order = await placeOrder(client);
    const payment = await startPaying(client, order.id, 'alipay');

    // Signed and fresh, but the sandbox still says pending: nothing happens.
    const early = await sandboxWebhook(env, 'http://localhost/api/v1/payments/webhooks/sandbox', refOf(payment), Date.now());
    expect((await deliver(early)).body.data).toEqual({ duplicate: false });
    expect((await orderOf(client, order.id)).status).toBe('pending_payment');

    // The payer approves, but the sandbox's own notice is lost; the old event replayed is acknowledged and ignored.
    await decide(payment, 'approve');
    const replayed = await deliver(early);
    expect(replayed.status).toBe(200);
    expect(replayed.body.data).toEqual({ duplicate: true });
    expect((await orderOf(client, order.id)).status).toBe('pending_payment');

    // The payment page's poll asks the sandbox, which confirms the order.
    expect(await stateOf(client, order.id)).toMatchObject({ orderStatus: 'pending_ticketing', paymentStatus: 'succeeded' });
  });

  it('refuses forged and stale webhooks without changing anything', async () => {
    const client = await signedInClient('payer');
    const order = await placeOrder(client);
    const payment = await startPaying(client, order.id);
    const genuine = await decide(payment, 'approve');
    const eventsBefore = (await env.DB.prepare('SELECT count(*) AS n FROM payment_webhook_events').first<number>('n'))!;
    const header = genuine.init.headers[SANDBOX_SIGNATURE_HEADER];

    const forgedSignature = header.replace(/v1=(.)/, (_, first: string) => `v1=${first === 'A' ? 'B' : 'A'}`);
    const forged = await deliver(genuine, { headers: { [SANDBOX_SIGNATURE_HEADER]: forgedSignature } });
    expect(forged.body).toMatchObject({ code: 400, errorCode: 'webhook_signature_invalid' });

    const tamperedBody = genuine.init.body.replace(/"id":"evt_[0-9a-f]+"/, `"id":"evt_${'0'.repeat(32)}"`);
    expect((await deliver(genuine, { body: tamperedBody })).body).toMatchObject({ code: 400, errorCode: 'webhook_signature_invalid' });
    expect((await deliver(genuine, { headers: { [SANDBOX_SIGNATURE_HEADER]: '' } })).body).toMatchObject({
      code: 400,
      errorCode: 'webhook_signature_invalid',
    });

    const url = 'http://localhost/api/v1/payments/webhooks/sandbox';
    const stale = await deliver(await sandboxWebhook(env, url, refOf(payment), Date.now() - 6 * 60 * 1000));
    expect(stale.body).toMatchObject({ code: 400, errorCode: 'webhook_timestamp_stale' });
    const future = await deliver(await sandboxWebhook(env, url, refOf(payment), Date.now() + 6 * 60 * 1000));
    expect(future.body).toMatchObject({ code: 400, errorCode: 'webhook_timestamp_stale' });
    expect(future.body.message).toBe('The webhook is too old, or its time is wrong.');

    expect((await call('/api/v1/payments/webhooks/paypal', genuine.init)).body).toMatchObject({ code: 404, errorCode: 'not_found' });

    const order2 = await env.DB.prepare('SELECT status FROM orders WHERE id = ?').bind(order.id).first<string>('status');
    expect(order2).toBe('pending_payment');
    expect((await paymentRows(order.id)).map((row) => row.status)).toEqual(['created']);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM payment_webhook_events').first<number>('n')).toBe(eventsBefore);

    // The genuine delivery still works afterwards.
    expect((await deliver(genuine)).status).toBe(200);
    expect((await orderOf(client, order.id)).status).toBe('pending_ticketing');
  });
});

describe('money that arrives too late', () => {
  it('refunds a payment that arrives after the order expired, and shows the refund on the order', async () => {
    const client = await signedInClient('payer');
    const order = await placeOrder(client);
    const payment = await startPaying(client, order.id);
    const listing = (await env.DB.prepare('SELECT listing_id FROM orders WHERE id = ?').bind(order.id).first<number>('listing_id'))!;
    const stockBefore = (await env.DB.prepare('SELECT quantity_available FROM listings WHERE id = ?')
      .bind(listing)
      .first<number>('quantity_available'))!;
    await env.DB.prepare('UPDATE orders SET payment_deadline = ? WHERE id = ?')
      .bind(Date.now() - 1000, order.id)
      .run();

    expect((await deliver(await decide(payment, 'approve'))).status).toBe(200);

    const closed = await orderOf(client, order.id);
    expect(closed).toMatchObject({ status: 'cancelled', cancelReason: 'timeout', paidAt: null, refund: { amount: order.cost.total } });
    const [row] = await paymentRows(order.id);
    expect(row).toMatchObject({
      status: 'refunded',
      amount: order.cost.total,
      paid_at: expect.any(Number),
      refunded_at: expect.any(Number),
    });
    expect(await ledgerStatus(payment)).toBe('refunded');
    expect(
      await env.DB.prepare('SELECT quantity_available FROM listings WHERE id = ?').bind(listing).first<number>('quantity_available'),
    ).toBe(stockBefore + 1);
    expect(await stateOf(client, order.id)).toMatchObject({ orderStatus: 'cancelled', paymentStatus: 'refunded' });
  });

  it('refunds a payment that arrives after the buyer cancelled the order', async () => {
    const client = await signedInClient('payer');
    const order = await placeOrder(client);
    const payment = await startPaying(client, order.id, 'wechat_pay');
    expect((await client.call(`/api/v1/orders/${order.id}/cancel`, { method: 'POST' })).status).toBe(200);

    expect((await deliver(await decide(payment, 'approve'))).status).toBe(200);
    expect(await orderOf(client, order.id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'user',
      refund: { amount: order.cost.total },
    });
    expect(await ledgerStatus(payment)).toBe('refunded');
    expect((await pay(client, order.id, 'visa')).body).toMatchObject({ code: 409, errorCode: 'order_not_payable' });
  });

  it('refunds a second payment when another one already paid the order: never charged twice', async () => {
    const client = await signedInClient('payer');
    const order = await placeOrder(client);
    const card = await startPaying(client, order.id, 'visa');
    const qr = await startPaying(client, order.id, 'alipay');
    const cardNotice = await decide(card, 'approve');
    const qrNotice = await decide(qr, 'approve');
    const answers = await Promise.all([deliver(cardNotice), deliver(qrNotice)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);

    const rows = await paymentRows(order.id);
    expect(rows.map((row) => row.status).sort()).toEqual(['refunded', 'succeeded']);
    const statuses = [await ledgerStatus(card), await ledgerStatus(qr)].sort();
    expect(statuses).toEqual(['approved', 'refunded']);
    expect(await orderOf(client, order.id)).toMatchObject({ status: 'pending_ticketing', refund: null });
  });

  it('does not let an expired order be paid', async () => {
    const client = await signedInClient('payer');
    const order = await placeOrder(client);
    await env.DB.prepare('UPDATE orders SET payment_deadline = ? WHERE id = ?')
      .bind(Date.now() - 1000, order.id)
      .run();
    expect((await pay(client, order.id, 'visa')).body).toMatchObject({ code: 409, errorCode: 'order_not_payable' });
    expect(await stateOf(client, order.id)).toMatchObject({ orderStatus: 'cancelled', paymentId: null, paymentStatus: null });
  });
});

describe('payments that do not go through', () => {
  it('records a decline and a cancel, and leaves the order payable with a fresh payment', async () => {
    const client = await signedInClient('payer');
    const order = await placeOrder(client);
    const declined = await startPaying(client, order.id, 'mastercard');
    await deliver(await decide(declined, 'decline'));
    expect(await stateOf(client, order.id)).toMatchObject({
      orderStatus: 'pending_payment',
      paymentSubstatus: null,
      paymentId: declined.paymentId,
      paymentStatus: 'failed',
    });

    const retry = await startPaying(client, order.id, 'mastercard');
    expect(retry.paymentId).not.toBe(declined.paymentId);
    await deliver(await decide(retry, 'cancel'));
    expect(await stateOf(client, order.id)).toMatchObject({
      orderStatus: 'pending_payment',
      paymentId: retry.paymentId,
      paymentStatus: 'cancelled',
    });

    // A decided sandbox payment cannot be decided again.
    const second = await decideSandboxPayment(db(), env, refOf(retry), 'approve', Date.now());
    expect(second).toMatchObject({ webhook: null, payment: { status: 'cancelled' } });
  });
});

describe('refundOrderPayment', () => {
  it('refunds the payment of a paid order through the provider, once', async () => {
    const client = await signedInClient('payer');
    const order = await placeOrder(client);
    const payment = await startPaying(client, order.id);
    await deliver(await decide(payment, 'approve'));

    await expect(refundOrderPayment(db(), env, order.id, order.cost.total + 1, Date.now())).rejects.toThrow();
    const refunded = await refundOrderPayment(db(), env, order.id, order.cost.total, Date.now());
    expect(refunded).toEqual({ amount: order.cost.total, currency: expect.stringMatching(/^[A-Z]{3}$/) });
    expect((await paymentRows(order.id)).map((row) => row.status)).toEqual(['refunded']);
    expect(await ledgerStatus(payment)).toBe('refunded');
    expect(await refundOrderPayment(db(), env, order.id, order.cost.total, Date.now())).toBeNull();
  });

  it('refunds a forgotten second payment approved after the first was refunded', async () => {
    const client = await signedInClient('payer');
    const order = await placeOrder(client);
    const first = await startPaying(client, order.id, 'visa');
    const forgotten = await startPaying(client, order.id, 'wechat_pay');
    await deliver(await decide(first, 'approve'));
    await refundOrderPayment(db(), env, order.id, order.cost.total, Date.now());

    expect((await deliver(await decide(forgotten, 'approve'))).status).toBe(200);
    expect((await paymentRows(order.id)).map((row) => row.status)).toEqual(['refunded', 'refunded']);
    expect(await ledgerStatus(forgotten)).toBe('refunded');
  });
});

describe('a deployed worker (APP_ENV=production)', () => {
  /** The same signed-in buyer, talking to a production build with no payment provider configured. */
  function inProduction(client: TestClient, language?: string): TestClient {
    const production = new TestClient({ APP_ENV: 'production', STRIPE_SECRET_KEY: undefined });
    for (const [name, value] of client.cookies) production.cookies.set(name, value);
    if (language) production.cookies.set('language', language);
    return production;
  }

  it('opens no payment without a real provider: a localized 503, the order still unpaid', async () => {
    const client = await signedInClient('prodpay');
    const order = await placeOrder(client);
    const refused = await pay(inProduction(client), order.id, 'visa');
    expect(refused.body).toMatchObject({
      code: 503,
      errorCode: 'payments_unavailable',
      message: expect.stringContaining('Payments cannot be taken right now'),
    });
    const inChinese = await pay(inProduction(client, 'zh-HK'), order.id, 'visa');
    expect(inChinese.body).toMatchObject({
      code: 503,
      errorCode: 'payments_unavailable',
      message: expect.stringContaining('目前暫時無法付款'),
    });
    const state = await client.call<PaymentState>(`/api/v1/orders/${order.id}/payment`);
    expect(state.body.data).toMatchObject({ orderStatus: 'pending_payment', paymentId: null });
  });

  it('has no sandbox webhook and no dev routes, whatever the request', async () => {
    const client = await signedInClient('proddev');
    const order = await placeOrder(client);
    const production = inProduction(client);
    const paths = [
      ['POST', '/api/v1/payments/webhooks/sandbox'],
      ['POST', '/api/api/v1/payments/webhooks/sandbox'],
      ['GET', '/api/v1/dev/outbox?target=prodpay@example.com'],
      ['GET', '/api/v1/dev/outbox'],
      ['POST', `/api/v1/dev/orders/${order.id}/end-payment-time`],
      ['POST', `/api/api/v1/dev/orders/${order.id}/end-payment-time`],
    ] as const;
    for (const [method, path] of paths) {
      const answer = await production.call(path, { method, body: method === 'POST' ? '{}' : undefined });
      expect(answer.body, `${method} ${path}`).toMatchObject({ code: 404, errorCode: 'not_found' });
    }
    // The same paths exist in a local build.
    expect((await client.call('/api/v1/dev/outbox?target=prodpay@example.com')).status).toBe(200);
    expect((await client.call('/api/v1/dev/outbox')).status).toBe(200);
  });
});

describe('links handed out', () => {
  it('are built on PUBLIC_ORIGIN, never on a forged Host', async () => {
    const client = await signedInClient('forgedhost');
    const order = await placeOrder(client);
    const configured = new TestClient({ PUBLIC_ORIGIN: 'https://tickets.example.com' });
    for (const [name, value] of client.cookies) configured.cookies.set(name, value);
    const request = (method: string) =>
      new Request(`http://evil.example/api/v1/orders/${order.id}/payments`, {
        method: 'POST',
        headers: {
          host: 'evil.example',
          'cf-connecting-ip': configured.ip,
          cookie: [...configured.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          'content-type': 'application/json',
          'idempotency-key': newKey(),
        },
        body: JSON.stringify({ method }),
      });
    for (const method of ['visa', 'wechat_pay']) {
      const answer = await api.fetch(request(method), { ...env, PUBLIC_ORIGIN: 'https://tickets.example.com' });
      const { data } = (await answer.json()) as { data: PaymentStart };
      expect(new URL(data.checkoutUrl).origin, method).toBe('https://tickets.example.com');
      if (data.qrContent) expect(new URL(data.qrContent).origin, `${method} QR`).toBe('https://tickets.example.com');
      expect(JSON.stringify(data)).not.toContain('evil.example');
    }
  });
});

describe('an Idempotency-Key of a payment', () => {
  it('answers the same payment for the same method and a 422 for another', async () => {
    const client = await signedInClient('paykey');
    const order = await placeOrder(client);
    const key = newKey();
    const first = await pay(client, order.id, 'visa', key);
    expect(first.status, first.text).toBe(200);
    expect((await pay(client, order.id, 'visa', key)).body.data.paymentId).toBe(first.body.data.paymentId);
    const reused = await pay(client, order.id, 'alipay', key);
    expect(reused.body).toMatchObject({ code: 422, errorCode: 'idempotency_key_reused' });
    const rows = await env.DB.prepare('SELECT COUNT(*) AS n FROM payments WHERE order_id = ?').bind(order.id).first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });
});

describe('round trips', () => {
  // Each D1 call is a round trip to a far primary when deployed, and a turn on the one busy thread of
  // a hot on-sale locally (docs/hot-on-sale.md): a paying buyer's own requests take as few as they can.
  it('starts a payment in three round trips, its after-write work included, and reads the order in one', async () => {
    const client = await signedInClient('paytrips');
    const order = await placeOrder(client);
    const started = await countingRoundTrips(() => pay(client, order.id, 'visa'));
    expect(started.result.status, started.result.text).toBe(200);
    // The session with the order's reads, the sandbox's ledger, then the payment with the after-write work.
    expect(started.roundTrips).toBe(3);
    const read = await countingRoundTrips(() => client.call<Order>(`/api/v1/orders/${order.id}`));
    expect(read.result.status).toBe(200);
    expect(read.result.body.data.paymentMethod).toBe('visa');
    expect(read.roundTrips).toBe(1);
  });

  it("confirms a payment in four, the order's after-write work riding in its confirmation", async () => {
    const client = await signedInClient('paytrips');
    const order = await placeOrder(client);
    const webhook = await decide(await startPaying(client, order.id), 'approve');
    const confirmed = await countingRoundTrips(() => deliver(webhook));
    expect(confirmed.result.status).toBe(200);
    // The event with its payment, the sandbox's ledger, the claim, then the order's confirmation with the after-write work.
    expect(confirmed.roundTrips).toBe(4);
    expect((await orderOf(client, order.id)).status).toBe('pending_ticketing');
    // The "payment received" message the confirmation's trigger wrote is already claimed for the queue.
    const message = await env.DB.prepare(`SELECT enqueued_at AS enqueuedAt FROM messages WHERE order_id = ? AND kind = 'payment_received'`)
      .bind(order.id)
      .first<{ enqueuedAt: number | null }>();
    expect(message?.enqueuedAt).not.toBeNull();
  });
});
