import { env } from 'cloudflare:workers';
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_LEASE_MS, MESSAGE_MAX_ATTEMPTS, MESSAGE_RETRY_DELAYS_S } from '../../src/lib/config/messages.ts';
import { USER_ID_COOKIE } from '../../src/lib/config/request.ts';
import { database } from '../../src/lib/data/client.ts';
import { messages } from '../../src/lib/db/schema.ts';
import { deadMessages } from '../../src/lib/services/messages/dead-letters.ts';
import {
  consumeMessageBatch,
  deliverQueuedMessage,
  deliverQueuedMessages,
  publishPendingMessages,
  type QueuedMessage,
} from '../../src/lib/services/messages/delivery.ts';
import { sweep } from '../../src/lib/services/platform/sweep.ts';
import { latestCode, sellerClient, signedInClient, TestClient } from './auth-client.ts';
import { twilioDouble } from '../doubles/twilio-api.ts';
import { seed } from './helpers.ts';
import { deliverPendingMessages, messagesOf, outboxOf } from './messages.ts';
import { createOrder, eTicketSource, newKey, pay, placeOrder, quote, type ETicketSource } from './shop.ts';

let source: ETicketSource;

beforeAll(async () => {
  await seed();
  source = await eTicketSource();
});

async function orderedBy(client: TestClient, quantity = 1) {
  const placed = await placeOrder(client, source.listingId, quantity);
  expect(placed.status, placed.text).toBe(200);
  return (placed.body.data as { id: number; orderNo: string }) ?? null;
}

/** A provider that always fails as a 503 would, counting the calls. */
function failingFetcher(status = 503) {
  const calls: Request[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push(new Request(input, init));
    return new Response(JSON.stringify({ message: 'unavailable' }), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { calls, fetcher };
}

/** A deployed build's settings that send email through Resend at an address we answer ourselves. */
const resendEnv = {
  ...env,
  APP_ENV: 'production' as const,
  PUBLIC_ORIGIN: 'https://tickets.example.com',
  APP_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
  EMAIL_PROVIDER: 'resend',
  RESEND_API_KEY: 're_test',
  EMAIL_FROM: 'Tickets <tickets@example.com>',
  RESEND_API_URL: 'https://resend.test',
};

describe('writing messages with the state change they report', () => {
  it('writes one "order placed" per order, even when the same request is sent twice at once', async () => {
    const buyer = await signedInClient('msg-placed');
    const quoted = await quote(buyer, source.listingId, 1);
    const key = newKey();
    const body = {
      listingId: source.listingId,
      quantity: 1,
      deliveryType: 'e_ticket',
      paymentMethod: 'visa',
      coupon: 'none',
      acceptNotes: true,
      expectedTotal: quoted.body.data.cost.total,
    };
    const send = () => buyer.call<{ id: number }>('/api/v1/orders', { method: 'POST', headers: { 'idempotency-key': key }, body });
    const [first, second] = await Promise.all([send(), send()]);
    expect(first.status).toBe(200);
    expect(second.body.data.id).toBe(first.body.data.id);
    const written = await messagesOf({ orderId: first.body.data.id });
    expect(written.map((message) => message.kind)).toEqual(['order_placed']);
    expect(written[0].channel).toBe('email');
  });

  it('writes nothing for an order that was refused', async () => {
    const buyer = await signedInClient('msg-refused');
    const refused = await createOrder(buyer, source.listingId, 1, 1);
    expect(refused.status).toBe(409);
    expect(await messagesOf({ userId: userIdOf(buyer) })).toEqual([]);
  });

  it('reports a payment once though its webhook is delivered twice, and tickets once they are issued', async () => {
    const buyer = await signedInClient('msg-paid');
    const order = await orderedBy(buyer);
    await pay(buyer, order.id);
    await replayLastWebhook(order.id);
    expect((await messagesOf({ orderId: order.id })).map((message) => message.kind)).toEqual(['order_placed', 'payment_received']);

    const seller = await sellerClient(source.sellerId);
    const fulfilled = await seller.post(`/api/v1/seller/orders/${order.id}/fulfil`, { method: 'e_ticket' });
    expect(fulfilled.status, fulfilled.text).toBe(200);
    expect((await seller.post(`/api/v1/seller/orders/${order.id}/fulfil`, { method: 'e_ticket' })).status).toBe(409);
    expect((await messagesOf({ orderId: order.id })).map((message) => message.kind)).toEqual([
      'order_placed',
      'payment_received',
      'tickets_issued',
    ]);
  });

  it('tells of a declined payment once, while the order can still be paid', async () => {
    const buyer = await signedInClient('msg-declined');
    const order = await orderedBy(buyer);
    const started = await buyer.call<{ checkoutUrl: string }>(`/api/v1/orders/${order.id}/payments`, {
      method: 'POST',
      headers: { 'idempotency-key': newKey() },
      body: { method: 'visa' },
    });
    const ref = new URL(started.body.data.checkoutUrl).pathname.split('/').pop()!;
    const { TestClient } = await import('./auth-client.ts');
    const { decideSandboxPayment } = await import('../../src/lib/services/payments/providers/sandbox.ts');
    const webhook = (await decideSandboxPayment(database(env.DB), env, ref, 'decline', Date.now()))!.webhook!;
    for (const _ of [1, 2]) expect((await new TestClient().call(new URL(webhook.url).pathname, webhook.init)).status).toBe(200);
    const written = await messagesOf({ orderId: order.id });
    expect(written.map((message) => message.kind)).toEqual(['order_placed', 'payment_failed']);
    expect(JSON.parse(written[1].payload).deadline).toBe(JSON.parse(written[0].payload).deadline);
  });

  it('tells of an expired unpaid order once, however many sweeps close it at once, and not of one the buyer cancelled', async () => {
    const buyer = await signedInClient('msg-expired');
    const expiring = await orderedBy(buyer);
    const cancelled = await orderedBy(buyer);
    expect((await buyer.post(`/api/v1/orders/${cancelled.id}/cancel`, {})).status).toBe(200);
    const later = Date.now() + 16 * 60_000;
    const db = database(env.DB);
    await Promise.all([sweep(db, env, env.MESSAGES, later), sweep(db, env, env.MESSAGES, later)]);
    expect((await messagesOf({ orderId: expiring.id })).map((message) => message.kind)).toEqual(['order_placed', 'order_expired']);
    expect((await messagesOf({ orderId: cancelled.id })).map((message) => message.kind)).toEqual(['order_placed']);
  });
});

describe('delivering messages', () => {
  it('delivers a message in the language the buyer chose, with a link back, once however often the queue hands it over', async () => {
    const buyer = await signedInClient('msg-language');
    // The account's language, as choosing Traditional Chinese (Hong Kong) while signed in saves it.
    await env.DB.prepare("UPDATE users SET language_code = 'zh-HK' WHERE id = ?").bind(userIdOf(buyer)).run();
    const order = await orderedBy(buyer);
    const [placed] = await messagesOf({ orderId: order.id });
    const db = database(env.DB);
    const queued = { id: placed.id, origin: 'http://localhost' };
    const outcomes = await Promise.all([1, 2, 3].map(() => deliverQueuedMessage(db, env, queued, Date.now())));
    expect(outcomes.filter((outcome) => outcome.kind === 'sent')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.kind === 'skipped')).toHaveLength(2);
    expect((await deliverQueuedMessage(db, env, queued, Date.now())).kind).toBe('skipped');

    const received = await outboxOf(placed.target);
    const mail = received.filter((entry) => entry.messageId === placed.id);
    expect(mail).toHaveLength(1);
    expect(mail[0].body).toContain(order.orderNo);
    expect(mail[0].body).toContain(`http://localhost/zh-HK/orders/${order.id}`);
    expect(mail[0].subject).toMatch(/[\u4e00-\u9fff]/);
    expect(mail[0].html).toContain(order.orderNo);
    const [row] = await db.select().from(messages).where(eq(messages.id, placed.id));
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(1);
  });

  it('builds its link on the configured origin, never on the host a request came to', async () => {
    const buyer = await signedInClient('msg-origin');
    const order = await orderedBy(buyer);
    const [placed] = await messagesOf({ orderId: order.id });
    const db = database(env.DB);
    const sent: Request[] = [];
    const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(new Request(input, init));
      return Response.json({ id: 'resend-email-id' });
    }) as typeof fetch;
    const queued = { id: placed.id, origin: 'https://forged-host.example' };

    // A deployed build without PUBLIC_ORIGIN has no link to give: the message waits for the setting.
    const { PUBLIC_ORIGIN: _unset, ...unconfigured } = resendEnv;
    expect(await deliverQueuedMessage(db, unconfigured, queued, Date.now(), fetcher)).toEqual({
      kind: 'retry',
      delaySeconds: MESSAGE_RETRY_DELAYS_S[0],
    });
    expect(sent).toEqual([]);

    expect((await deliverQueuedMessage(db, resendEnv, queued, Date.now(), fetcher)).kind).toBe('sent');
    const email = (await sent[0].json()) as { text: string; html: string };
    expect(email.text).toContain(`https://tickets.example.com/en/orders/${order.id}`);
    expect(email.html).toContain(`href="https://tickets.example.com/en/orders/${order.id}"`);
    expect(`${email.text}${email.html}`).not.toContain('forged-host');
  });

  it('speaks the language an account was opened in until its owner chooses another', async () => {
    const client = new TestClient();
    const email = 'msg-opened-in-zh-cn@example.com';
    const headers = { language: 'zh-CN' };
    expect((await client.call('/api/v1/user/mail/regVerify', { method: 'POST', body: { email }, headers })).status).toBe(200);
    const body = { email, code: await latestCode(email), password: 'Tickets2026', agreement: true };
    expect((await client.call('/api/v1/user/mail/register', { method: 'POST', body, headers })).status).toBe(200);
    const row = await env.DB.prepare('SELECT language_code AS language FROM users WHERE email = ?')
      .bind(email)
      .first<{ language: string }>();
    expect(row?.language).toBe('zh-CN');
  });

  it('retries a failing provider after growing delays and marks the message dead after the last try', async () => {
    const buyer = await signedInClient('msg-retry');
    const order = await orderedBy(buyer);
    const [placed] = await messagesOf({ orderId: order.id });
    const db = database(env.DB);
    const provider = failingFetcher(503);
    const verdicts = [];
    for (let attempt = 1; attempt <= MESSAGE_MAX_ATTEMPTS; attempt += 1) {
      verdicts.push(await deliverQueuedMessage(db, resendEnv, { id: placed.id, origin: null }, Date.now(), provider.fetcher));
    }
    expect(verdicts.slice(0, -1)).toEqual(MESSAGE_RETRY_DELAYS_S.map((delaySeconds) => ({ kind: 'retry', delaySeconds })));
    expect(verdicts.at(-1)).toEqual({ kind: 'dead' });
    expect(provider.calls).toHaveLength(MESSAGE_MAX_ATTEMPTS);
    expect(new Set(provider.calls.map((call) => call.headers.get('idempotency-key')))).toEqual(new Set([placed.id]));
    expect((await deliverQueuedMessage(db, resendEnv, { id: placed.id, origin: null }, Date.now(), provider.fetcher)).kind).toBe('skipped');
    const dead = await deadMessages(db);
    expect(dead.find((message) => message.id === placed.id)).toMatchObject({ kind: 'order_placed', attempts: MESSAGE_MAX_ATTEMPTS });
  });

  it('shows dead messages to operators only, who can send one again from the start', async () => {
    const buyer = await signedInClient('msg-dead');
    const order = await orderedBy(buyer);
    const [placed] = await messagesOf({ orderId: order.id });
    const db = database(env.DB);
    expect((await deliverQueuedMessage(db, resendEnv, { id: placed.id, origin: null }, Date.now(), failingFetcher(422).fetcher)).kind).toBe(
      'dead',
    );

    expect((await buyer.call('/api/v1/operator/messages/dead')).status).toBe(403);
    expect((await buyer.post(`/api/v1/operator/messages/${placed.id}/redeliver`, {})).status).toBe(403);
    expect((await new TestClient().call('/api/v1/operator/messages/dead')).status).toBe(401);

    const operator = await signedInClient('msg-operator');
    await env.DB.prepare("INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, 'operator', 0)").bind(userIdOf(operator)).run();
    const dead = await operator.call<Array<{ id: string; lastError: string }>>('/api/v1/operator/messages/dead');
    expect(dead.body.data.find((message) => message.id === placed.id)?.lastError).toBeTruthy();
    expect((await operator.post(`/api/v1/operator/messages/${placed.id}/redeliver`, {})).status).toBe(200);
    const [row] = await db.select().from(messages).where(eq(messages.id, placed.id));
    expect(row).toMatchObject({ attempts: 0, lastError: null });
    expect(['pending', 'sending', 'sent']).toContain(row.status);
    // Only a dead message can be sent again.
    expect((await operator.post(`/api/v1/operator/messages/${placed.id}/redeliver`, {})).status).toBe(404);
  });

  it('gives up at once on an address the provider refuses for good', async () => {
    const buyer = await signedInClient('msg-refusal');
    const order = await orderedBy(buyer);
    const [placed] = await messagesOf({ orderId: order.id });
    const provider = failingFetcher(422);
    const verdict = await deliverQueuedMessage(database(env.DB), resendEnv, { id: placed.id, origin: null }, Date.now(), provider.fetcher);
    expect(verdict).toEqual({ kind: 'dead' });
    expect(provider.calls).toHaveLength(1);
  });

  it('sends an SMS once through Twilio, which takes no idempotency key, when the first answer was lost', async () => {
    const buyer = await signedInClient('msg-twilio');
    const order = await orderedBy(buyer);
    const [placed] = await messagesOf({ orderId: order.id });
    // The same message to a buyer reached by phone.
    await env.DB.prepare("UPDATE messages SET channel = 'sms', target = '+852 61234567' WHERE id = ?").bind(placed.id).run();
    const twilio = twilioDouble();
    const twilioEnv = {
      ...resendEnv,
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: twilio.account.accountSid,
      TWILIO_AUTH_TOKEN: twilio.account.authToken,
      TWILIO_FROM: twilio.account.from,
      TWILIO_API_URL: 'https://twilio.test',
    };
    const fetcher = ((input: RequestInfo | URL, init?: RequestInit) => twilio.handle(new Request(input, init))) as typeof fetch;
    const db = database(env.DB);
    twilio.loseNextAnswer();
    expect((await deliverQueuedMessage(db, twilioEnv, { id: placed.id, origin: null }, Date.now(), fetcher)).kind).toBe('retry');
    expect((await deliverQueuedMessage(db, twilioEnv, { id: placed.id, origin: null }, Date.now(), fetcher)).kind).toBe('sent');
    expect(twilio.messages).toHaveLength(1);
    expect(twilio.messages[0].body).toContain(order.orderNo);
    expect(twilio.requests.map((request) => request.method)).toEqual(['POST', 'GET']);
  });

  it('the queue consumer acks what was delivered and retries what failed, with the delay', async () => {
    const buyer = await signedInClient('msg-queue');
    const order = await orderedBy(buyer);
    const [placed] = await messagesOf({ orderId: order.id });
    const batch = createMessageBatch<QueuedMessage>('ticket-messages', [
      { id: 'q-1', timestamp: new Date(), attempts: 1, body: { id: placed.id, origin: 'http://localhost' } },
      { id: 'q-2', timestamp: new Date(), attempts: 1, body: { id: 'no-such-message', origin: 'http://localhost' } },
    ]);
    await consumeMessageBatch(batch, database(env.DB), env);
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.explicitAcks.sort()).toEqual(['q-1', 'q-2']);
    expect(result.retryMessages).toEqual([]);

    const failing = await orderedBy(buyer);
    const [toFail] = await messagesOf({ orderId: failing.id });
    const failingBatch = createMessageBatch<QueuedMessage>('ticket-messages', [
      { id: 'q-3', timestamp: new Date(), attempts: 1, body: { id: toFail.id, origin: null } },
    ]);
    await consumeMessageBatch(failingBatch, database(env.DB), { ...resendEnv, RESEND_API_URL: 'http://127.0.0.1:9' });
    const failed = await getQueueResult(failingBatch, createExecutionContext());
    // (The delay it asks for is the verdict's, checked above; the queue's test result does not record it.)
    expect(failed.retryMessages.map((message) => message.msgId)).toEqual(['q-3']);
    expect(failed.explicitAcks).toEqual([]);
  });

  it('delivers a queue batch in one go, once each, and gives back untried what it could not start in the first half of the leases', async () => {
    const buyer = await signedInClient('msg-batch');
    const [first, second, third] = await Promise.all([orderedBy(buyer), orderedBy(buyer), orderedBy(buyer)]);
    const placed = await Promise.all([first, second, third].map(async (order) => (await messagesOf({ orderId: order.id }))[0]));
    const db = database(env.DB);
    const queued = placed.map(({ id }) => ({ id, origin: 'http://localhost' }));
    const now = Date.now();
    // The clock passes the half of the leases while the second message is being sent: the third is not started.
    const readings = [now, now + MESSAGE_LEASE_MS / 2 - 1, now + MESSAGE_LEASE_MS / 2];
    const outcomes = await deliverQueuedMessages(
      db,
      env,
      [queued[0], queued[1], queued[0], queued[2]],
      now,
      fetch,
      () => readings.shift()!,
    );
    expect(outcomes).toEqual([{ kind: 'sent' }, { kind: 'sent' }, { kind: 'skipped' }, { kind: 'retry', delaySeconds: 0 }]);
    const rows = await Promise.all(placed.map(async ({ id }) => (await db.select().from(messages).where(eq(messages.id, id)))[0]));
    expect(rows.map((row) => [row.status, row.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
      ['pending', 0],
    ]);
    expect((await outboxOf(placed[2].target)).filter((entry) => entry.messageId === placed[2].id)).toHaveLength(0);

    // Handed over again, the untried message goes out, once, as its first attempt.
    expect(await deliverQueuedMessages(db, env, queued, Date.now())).toEqual([{ kind: 'skipped' }, { kind: 'skipped' }, { kind: 'sent' }]);
    const [untried] = await db.select().from(messages).where(eq(messages.id, placed[2].id));
    expect([untried.status, untried.attempts]).toEqual(['sent', 1]);
    for (const message of placed) {
      expect((await outboxOf(message.target)).filter((entry) => entry.messageId === message.id)).toHaveLength(1);
    }
  });

  it('the relay hands each pending message to the queue once, even when two relays run at once', async () => {
    const buyer = await signedInClient('msg-relay');
    await orderedBy(buyer);
    await orderedBy(buyer);
    const db = database(env.DB);
    await db.update(messages).set({ enqueuedAt: null }).where(eq(messages.status, 'pending'));
    const sent: QueuedMessage[] = [];
    const queue = {
      sendBatch: async (batch: Iterable<MessageSendRequest<QueuedMessage>>) => void sent.push(...[...batch].map((m) => m.body)),
    };
    const now = Date.now();
    const [a, b] = await Promise.all([publishPendingMessages(db, queue, now, null), publishPendingMessages(db, queue, now, null)]);
    expect(a + b).toBe(sent.length);
    expect(new Set(sent.map((message) => message.id)).size).toBe(sent.length);
    expect(await publishPendingMessages(db, queue, now + 1000, null)).toBe(0);
    // Lost by the queue: handed over again once it has waited long enough.
    const handedOver = sent.length;
    expect(await publishPendingMessages(db, queue, now + 2 * 3600_000, null)).toBe(handedOver);
  });

  it('hands over again a message whose lease ran out while it was being sent, once, and delivers it', async () => {
    const buyer = await signedInClient('msg-stuck-lease');
    const { id: orderId } = await orderedBy(buyer);
    const db = database(env.DB);
    const [message] = await db.select().from(messages).where(eq(messages.orderId, orderId));
    const leasedAt = Date.now();
    // Its consumer leased it and died: the queue's retry came while the lease held, and was acknowledged.
    await db
      .update(messages)
      .set({ status: 'sending', attempts: 1, enqueuedAt: leasedAt - 1000, leaseUntil: leasedAt + MESSAGE_LEASE_MS })
      .where(eq(messages.id, message.id));
    const sent: QueuedMessage[] = [];
    const queue = {
      sendBatch: async (batch: Iterable<MessageSendRequest<QueuedMessage>>) => void sent.push(...[...batch].map((m) => m.body)),
    };
    const handedOver = () => sent.filter((queued) => queued.id === message.id).length;
    await publishPendingMessages(db, queue, leasedAt + 1000, null);
    expect(handedOver()).toBe(0);
    const afterLease = leasedAt + MESSAGE_LEASE_MS + 1000;
    await Promise.all([publishPendingMessages(db, queue, afterLease, null), publishPendingMessages(db, queue, afterLease, null)]);
    expect(handedOver()).toBe(1);
    await publishPendingMessages(db, queue, afterLease + 1000, null);
    expect(handedOver()).toBe(1);
    expect((await deliverQueuedMessage(db, env, { id: message.id, origin: null }, afterLease + 2000)).kind).toBe('sent');
    const [delivered] = await db.select().from(messages).where(eq(messages.id, message.id));
    expect(delivered.status).toBe('sent');
  });
});

describe('notify me when tickets are on sale', () => {
  async function upcomingActivity(status: number): Promise<number> {
    const row = await env.DB.prepare(
      `SELECT id FROM activities WHERE status = ?1 AND ends_at > ?2 AND id NOT IN (SELECT activity_id FROM favourites) ORDER BY id LIMIT 1`,
    )
      .bind(status, Date.now())
      .first<{ id: number }>();
    if (!row) throw new Error(`The seed has no activity of status ${status} to come`);
    // Not on sale yet: its sale starts tomorrow.
    await env.DB.prepare('UPDATE activities SET sale_starts_at = ? WHERE id = ?')
      .bind(Date.now() + 86_400_000, row.id)
      .run();
    return row.id;
  }

  async function subscribeTo(client: TestClient, activityId: number) {
    expect((await client.post(`/api/v1/activity/favorite/${activityId}`, { type: 1 })).status).toBe(200);
  }

  const saleMessages = async (client: TestClient) =>
    (await messagesOf({ userId: userIdOf(client) })).filter((message) => message.kind === 'sale_started');

  it('tells a subscriber once when the sale start time passes, however many sweeps see it', async () => {
    const buyer = await signedInClient('msg-notify-time');
    const activityId = await upcomingActivity(1);
    await subscribeTo(buyer, activityId);
    const db = database(env.DB);
    await sweep(db, env, env.MESSAGES, Date.now());
    expect(await saleMessages(buyer)).toEqual([]);

    await env.DB.prepare('UPDATE activities SET sale_starts_at = ? WHERE id = ?')
      .bind(Date.now() - 1000, activityId)
      .run();
    await Promise.all([sweep(db, env, env.MESSAGES, Date.now()), sweep(db, env, env.MESSAGES, Date.now())]);
    await sweep(db, env, env.MESSAGES, Date.now() + 60_000);
    const told = await saleMessages(buyer);
    expect(told).toHaveLength(1);
    await deliverPendingMessages();
    const [mail] = (await outboxOf(told[0].target)).filter((entry) => entry.messageId === told[0].id);
    expect(mail.subject).toMatch(/on sale now/);
    expect(mail.body).toContain(`http://localhost/en/activity/${activityId}`);
  });

  it('tells a subscriber when an operator puts a show on sale, and not before', async () => {
    const buyer = await signedInClient('msg-notify-status');
    const activityId = await upcomingActivity(6);
    await subscribeTo(buyer, activityId);
    await env.DB.prepare('UPDATE activities SET status = 1 WHERE id = ?').bind(activityId).run();
    expect(await saleMessages(buyer)).toEqual([]);
    await env.DB.prepare('UPDATE activities SET status = 6, sale_starts_at = ? WHERE id = ?')
      .bind(Date.now() - 1000, activityId)
      .run();
    await env.DB.prepare('UPDATE activities SET status = 1 WHERE id = ?').bind(activityId).run();
    expect(await saleMessages(buyer)).toHaveLength(1);
  });
});

describe('what each state change says', () => {
  it('delivers every message of an order from placing to refund, each in the dev outbox once', async () => {
    const buyer = await signedInClient('msg-journey');
    const order = await orderedBy(buyer);
    await pay(buyer, order.id);
    const seller = await sellerClient(source.sellerId);
    expect((await seller.post(`/api/v1/seller/orders/${order.id}/fulfil`, { method: 'e_ticket' })).status).toBe(200);
    expect((await seller.post(`/api/v1/seller/orders/${order.id}/fail`, { reason: 'The seller cannot deliver' })).status).toBe(200);
    await deliverPendingMessages();
    await deliverPendingMessages();
    const written = await messagesOf({ orderId: order.id });
    expect(written.map((message) => message.kind)).toEqual(['order_placed', 'payment_received', 'tickets_issued', 'refund_made']);
    expect(written.every((message) => message.status === 'sent')).toBe(true);
    const outbox = await outboxOf(written[0].target);
    for (const message of written) expect(outbox.filter((entry) => entry.messageId === message.id)).toHaveLength(1);
    const tickets = outbox.find((entry) => entry.messageId === written[2].id)!;
    expect(tickets.body).toMatch(/\/en\/voucher\?order=/);
  });
});

function userIdOf(client: TestClient): number {
  return Number(client.cookies.get(USER_ID_COOKIE));
}

/** Sends the sandbox's last webhook for an order again, as a provider retrying its delivery would. */
async function replayLastWebhook(orderId: number): Promise<void> {
  const { TestClient } = await import('./auth-client.ts');
  const { decideSandboxPayment } = await import('../../src/lib/services/payments/providers/sandbox.ts');
  const row = await env.DB.prepare('SELECT provider_ref AS ref FROM payments WHERE order_id = ? ORDER BY id DESC LIMIT 1')
    .bind(orderId)
    .first<{ ref: string }>();
  const decided = await decideSandboxPayment(database(env.DB), env, row!.ref, 'approve', Date.now());
  if (decided?.webhook) await new TestClient().call(new URL(decided.webhook.url).pathname, decided.webhook.init);
}
