/**
 * A show's session cancelled or postponed by an operator: paid orders refunded minus the service and
 * mailing fees through the provider, exactly once (retried, concurrent, racing a payment), tickets
 * voided, listings closed, unpaid orders closed with their holds given back; a postponed show's buyer
 * asks for the same refund until its deadline.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { decideSandboxPayment } from '../../src/lib/services/payments/providers/sandbox.ts';
import type { PaymentStart } from '../../src/lib/services/payments/start.ts';
import { sellerClient, signedInClient, TestClient } from './auth-client.ts';
import { messagesOf } from './messages.ts';
import { seed } from './helpers.ts';
import { copyRow, eTicketSource, type ETicketSource, newKey, pay, placeOrder } from './shop.ts';

const DAY = 24 * 3600 * 1000;
let source: ETicketSource;
let operator: TestClient;

beforeAll(async () => {
  await seed();
  source = await eTicketSource();
  operator = await signedInClient('operator');
  await env.DB.prepare("INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, 'operator', 0)")
    .bind(Number(operator.cookies.get('pnid')))
    .run();
});

async function order(client: TestClient, show: ETicketSource): Promise<OrderDetail> {
  const placed = await placeOrder(client, show.listingId, 1);
  expect(placed.status, placed.text).toBe(200);
  return placed.body.data as OrderDetail;
}

async function detail(client: TestClient, orderId: number): Promise<OrderDetail> {
  const answer = await client.call<OrderDetail>(`/api/v1/orders/${orderId}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data;
}

/** A new session of the source's activity, 20 days away, with its own tier and a listing of 50 tickets: each test changes its own show. */
async function ownSession(): Promise<ETicketSource> {
  const startsAt = Date.now() + 20 * DAY;
  const sessionId = await copyRow('activity_sessions', source.sessionId, { starts_at: startsAt, ends_at: startsAt + 3 * 3600_000 });
  const tierId = Number(
    (await env.DB.prepare('SELECT tier_id AS id FROM listings WHERE id = ?').bind(source.listingId).first<{ id: number }>())!.id,
  );
  const newTier = await copyRow('ticket_tiers', tierId, { session_id: sessionId });
  const listingId = await copyRow('listings', source.listingId, { tier_id: newTier, quantity_total: 50, quantity_available: 50 });
  return { ...source, sessionId, listingId };
}

function cancel(sessionId: number, client = operator) {
  return client.call<{ listingsClosed: number; unpaidClosed: number; refunded: number }>(`/api/v1/operator/sessions/${sessionId}/cancel`, {
    method: 'POST',
  });
}

function postpone(sessionId: number, body: { startsAt: number; endsAt: number; refundUntil: number }) {
  return operator.call(`/api/v1/operator/sessions/${sessionId}/postpone`, { method: 'POST', body });
}

async function payments(orderId: number) {
  return (
    await env.DB.prepare(
      'SELECT p.status, p.refunded_at AS refundedAt, s.status AS ledger FROM payments p JOIN sandbox_payments s ON s.ref = p.provider_ref WHERE p.order_id = ? ORDER BY p.id',
    )
      .bind(orderId)
      .all<{ status: string; refundedAt: number | null; ledger: string }>()
  ).results;
}

async function validTickets(orderId: number): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM tickets WHERE order_id = ? AND status = 'valid'")
    .bind(orderId)
    .first<{ n: number }>())!.n;
}

async function listingStatus(listingId: number) {
  return env.DB.prepare('SELECT status, quantity_available AS available FROM listings WHERE id = ?')
    .bind(listingId)
    .first<{ status: string; available: number }>();
}

describe('cancelling a session', () => {
  it('is for operators only, and names a session that exists', async () => {
    const show = await ownSession();
    const buyer = await signedInClient('not-operator');
    expect((await cancel(show.sessionId, buyer)).body).toMatchObject({ code: 403, errorCode: 'not_staff' });
    expect((await cancel(show.sessionId, new TestClient())).status).toBe(401);
    expect((await cancel(999_999)).body).toMatchObject({ code: 404, errorCode: 'session_not_found' });
  });

  it('refunds paid orders minus the fees, voids their tickets, closes unpaid orders and listings, once', async () => {
    const show = await ownSession();
    const [paidBuyer, ticketedBuyer, unpaidBuyer] = await Promise.all([
      signedInClient('cancel-paid'),
      signedInClient('cancel-ticketed'),
      signedInClient('cancel-unpaid'),
    ]);
    const paid = await order(paidBuyer, show);
    await pay(paidBuyer, paid.id);
    const ticketed = await order(ticketedBuyer, show);
    await pay(ticketedBuyer, ticketed.id);
    const seller = await sellerClient(show.sellerId);
    expect((await seller.post(`/api/v1/seller/orders/${ticketed.id}/fulfil`, { method: 'e_ticket' })).status).toBe(200);
    expect((await ticketedBuyer.post(`/api/v1/orders/${ticketed.id}/confirm-receipt`, {})).status).toBe(200);
    expect(await validTickets(ticketed.id)).toBe(1);
    const unpaid = await order(unpaidBuyer, show);
    const heldBefore = (await listingStatus(show.listingId))!.available;

    const first = await cancel(show.sessionId);
    expect(first.body.data).toMatchObject({ listingsClosed: 1, unpaidClosed: 1, refunded: 2 });
    for (const [client, placed] of [
      [paidBuyer, paid],
      [ticketedBuyer, ticketed],
    ] as const) {
      const after = await detail(client, placed.id);
      const expected = placed.cost.total - placed.cost.serviceFee - placed.cost.postage;
      expect(after).toMatchObject({
        status: 'refunded',
        refund: { amount: expected },
        showChange: { status: 'cancelled', refund: { amount: expected } },
      });
      expect(await payments(placed.id)).toEqual([expect.objectContaining({ status: 'refunded', ledger: 'refunded' })]);
      expect(await validTickets(placed.id)).toBe(0);
    }
    expect(await detail(unpaidBuyer, unpaid.id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'event',
      showChange: { status: 'cancelled' },
    });
    expect(await listingStatus(show.listingId)).toEqual({ status: 'closed', available: heldBefore + 1 });

    // Again: nothing more is done, and no money moves twice.
    const refundedAt = (await payments(paid.id))[0].refundedAt;
    expect((await cancel(show.sessionId)).body.data).toMatchObject({ listingsClosed: 0, unpaidClosed: 0, refunded: 0 });
    expect((await payments(paid.id))[0].refundedAt).toBe(refundedAt);
    // Each paid buyer is told once of the cancellation and once of the refund, the unpaid one only that the order was placed.
    for (const placed of [paid, ticketed]) {
      const kinds = (await messagesOf({ orderId: placed.id })).map((message) => message.kind);
      expect(kinds.filter((kind) => kind === 'show_cancelled')).toHaveLength(1);
      expect(kinds.filter((kind) => kind === 'refund_made')).toHaveLength(1);
    }
    expect((await messagesOf({ orderId: unpaid.id })).map((message) => message.kind)).toEqual(['order_placed']);
    // Nothing can be bought for it any more.
    const refused = await placeOrder(await signedInClient('cancel-late'), show.listingId, 1);
    expect(refused.body).toMatchObject({ code: 409, errorCode: 'listing_unavailable' });
  });

  it('returns the money exactly once when cancellations race each other and a payment', async () => {
    const show = await ownSession();
    const buyer = await signedInClient('cancel-race');
    const placed = await order(buyer, show);
    const started = await buyer.call<PaymentStart>(`/api/v1/orders/${placed.id}/payments`, {
      method: 'POST',
      headers: { 'idempotency-key': newKey() },
      body: { method: 'visa' },
    });
    const ref = new URL(started.body.data.checkoutUrl).pathname.split('/').pop()!;
    const webhook = (await decideSandboxPayment(database(env.DB), env, ref, 'approve', Date.now()))!.webhook!;

    const answers = await Promise.all([
      cancel(show.sessionId),
      cancel(show.sessionId),
      new TestClient().call(new URL(webhook.url).pathname, webhook.init),
    ]);
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    // Whichever came first, the order is closed and its one payment given back once.
    const after = await detail(buyer, placed.id);
    expect(['refunded', 'cancelled']).toContain(after.status);
    expect(await payments(placed.id)).toEqual([expect.objectContaining({ status: 'refunded', ledger: 'refunded' })]);
    expect(await validTickets(placed.id)).toBe(0);
    const refunds = answers.slice(0, 2).map((answer) => (answer.body.data as { refunded: number }).refunded);
    expect(refunds[0] + refunds[1]).toBe(after.status === 'refunded' ? 1 : 0);
  });
});

describe('postponing a session', () => {
  it('checks the new date, keeps orders valid and lets each buyer ask for the refund once, until the deadline', async () => {
    const show = await ownSession();
    const buyer = await signedInClient('postponed');
    const placed = await order(buyer, show);
    await pay(buyer, placed.id);
    const now = Date.now();
    const session = (await env.DB.prepare('SELECT starts_at AS startsAt FROM activity_sessions WHERE id = ?')
      .bind(show.sessionId)
      .first<{ startsAt: number }>())!;
    const later = {
      startsAt: session.startsAt + 30 * DAY,
      endsAt: session.startsAt + 30 * DAY + 3 * 3600_000,
      refundUntil: now + 10 * DAY,
    };

    expect((await postpone(show.sessionId, { ...later, startsAt: session.startsAt - DAY })).body).toMatchObject({
      code: 400,
      errorCode: 'postpone_date_invalid',
      field: 'startsAt',
    });
    expect((await postpone(show.sessionId, { ...later, refundUntil: now - 1 })).body).toMatchObject({
      code: 400,
      errorCode: 'refund_deadline_invalid',
      field: 'refundUntil',
    });
    const moved = await postpone(show.sessionId, later);
    expect(moved.status, moved.text).toBe(200);
    const told = (await messagesOf({ orderId: placed.id })).filter((message) => message.kind === 'show_postponed');
    expect(told).toHaveLength(1);
    expect(JSON.parse(told[0].payload)).toEqual({ startsAt: later.startsAt, refundUntil: later.refundUntil });

    const before = await detail(buyer, placed.id);
    expect(before).toMatchObject({
      status: 'pending_ticketing',
      actions: { requestRefund: true },
      showChange: { status: 'postponed', refundUntil: later.refundUntil },
    });
    expect(before.showChange!.originalLabel).toBeTruthy();
    expect(before.session.startsAt).toBe(later.startsAt);

    const asked = await Promise.all([1, 2].map(() => buyer.call<OrderDetail>(`/api/v1/orders/${placed.id}/refund`, { method: 'POST' })));
    for (const answer of asked) expect(answer.status, answer.text).toBe(200);
    const expected = placed.cost.total - placed.cost.serviceFee - placed.cost.postage;
    expect(await detail(buyer, placed.id)).toMatchObject({
      status: 'refunded',
      refund: { amount: expected },
      actions: { requestRefund: false },
    });
    expect(await payments(placed.id)).toEqual([expect.objectContaining({ status: 'refunded', ledger: 'refunded' })]);
    expect(await validTickets(placed.id)).toBe(0);

    // Another buyer after the deadline: no refund; someone else's order: not found.
    const late = await signedInClient('postponed-late');
    const lateOrder = await order(late, show);
    await pay(late, lateOrder.id);
    expect((await (await signedInClient('stranger')).call(`/api/v1/orders/${lateOrder.id}/refund`, { method: 'POST' })).body).toMatchObject(
      { code: 404 },
    );
    await env.DB.prepare('UPDATE activity_sessions SET refund_until = ? WHERE id = ?')
      .bind(now - 1, show.sessionId)
      .run();
    expect((await late.call(`/api/v1/orders/${lateOrder.id}/refund`, { method: 'POST' })).body).toMatchObject({
      code: 409,
      errorCode: 'refund_not_available',
    });

    // A postponed show can still be cancelled; a cancelled one is not postponed.
    expect((await cancel(show.sessionId)).body.data).toMatchObject({ refunded: 1 });
    expect((await postpone(show.sessionId, later)).body).toMatchObject({ code: 409, errorCode: 'session_cancelled' });
  });
});
