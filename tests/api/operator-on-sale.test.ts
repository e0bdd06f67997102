/**
 * The console's on-sale control through the operator API: the refund preview's figures (what each
 * paid buyer paid and gets back, totals per currency), a cancel audited once however often it is
 * repeated, a postponement and high-demand switches audited with before and after, a session's
 * admission rate kept and handed to its waiting room, and every route refused to an editor
 * (staff_role_forbidden) and a buyer (not_staff).
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RefundPreview } from '../../src/lib/services/catalogue/refund-preview.ts';
import type { AdmissionRate } from '../../src/lib/services/on-sale/admission-rate.ts';
import type { OnSaleLiveState, OnSaleRow, OnSaleSession } from '../../src/lib/services/on-sale/on-sale-console.ts';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { signedInClient, type TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { copyRow, eTicketSource, type ETicketSource, pay, placeOrder } from './shop.ts';

const DAY = 24 * 3600 * 1000;
let source: ETicketSource;
let operator: TestClient;
let editor: TestClient;
let buyer: TestClient;

async function grant(client: TestClient, role: 'operator' | 'editor'): Promise<void> {
  await env.DB.prepare('INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, ?, 0)')
    .bind(Number(client.cookies.get('pnid')), role)
    .run();
}

beforeAll(async () => {
  await seed();
  source = await eTicketSource('last');
  operator = await signedInClient('onsale-operator');
  editor = await signedInClient('onsale-editor');
  buyer = await signedInClient('onsale-buyer');
  await grant(operator, 'operator');
  await grant(editor, 'editor');
});

/** A new session of the source's activity with its own tier and a listing of 50 tickets: each test changes its own show. */
async function ownSession(): Promise<ETicketSource & { tierId: number }> {
  const startsAt = Date.now() + 20 * DAY;
  const sessionId = await copyRow('activity_sessions', source.sessionId, {
    starts_at: startsAt,
    ends_at: startsAt + 3 * 3600_000,
    high_demand: 0,
  });
  const tier = await env.DB.prepare('SELECT tier_id AS id FROM listings WHERE id = ?').bind(source.listingId).first<{ id: number }>();
  const tierId = await copyRow('ticket_tiers', tier!.id, { session_id: sessionId, high_demand: 0 });
  const listingId = await copyRow('listings', source.listingId, { tier_id: tierId, quantity_total: 50, quantity_available: 50 });
  return { ...source, sessionId, listingId, tierId };
}

async function order(client: TestClient, listingId: number, quantity: number): Promise<OrderDetail> {
  const placed = await placeOrder(client, listingId, quantity);
  expect(placed.status, placed.text).toBe(200);
  return placed.body.data as OrderDetail;
}

async function auditRows(action: string, subjectId: number) {
  return (
    await env.DB.prepare(
      'SELECT actor_id AS actorId, before_json AS beforeJson, after_json AS afterJson FROM audit_log WHERE action = ? AND subject_id = ?',
    )
      .bind(action, String(subjectId))
      .all<{ actorId: number; beforeJson: string | null; afterJson: string | null }>()
  ).results;
}

describe('on-sale routes', () => {
  it('refuse an editor (staff_role_forbidden) and a buyer (not_staff)', async () => {
    const { sessionId, tierId } = await ownSession();
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/v1/operator/on-sales'],
      ['GET', `/api/v1/operator/sessions/${sessionId}/on-sale`],
      ['GET', `/api/v1/operator/sessions/${sessionId}/live`],
      ['GET', `/api/v1/operator/sessions/${sessionId}/refund-preview`],
      ['PUT', `/api/v1/operator/sessions/${sessionId}/admission-rate`, { perMinute: 10 }],
      ['POST', `/api/v1/operator/sessions/${sessionId}/cancel`],
      ['POST', `/api/v1/operator/sessions/${sessionId}/high-demand`, { highDemand: true }],
      ['POST', `/api/v1/operator/tiers/${tierId}/high-demand`, { highDemand: true }],
    ];
    for (const [method, path, body] of calls) {
      expect((await editor.call(path, { method, body })).body, `${method} ${path}`).toMatchObject({
        code: 403,
        errorCode: 'staff_role_forbidden',
      });
      expect((await buyer.call(path, { method, body })).body, `${method} ${path}`).toMatchObject({ code: 403, errorCode: 'not_staff' });
    }
    expect(await auditRows('session.admission_rate', sessionId)).toEqual([]);
    const status = await env.DB.prepare('SELECT status FROM activity_sessions WHERE id = ?').bind(sessionId).first<{ status: string }>();
    expect(status?.status).toBe('scheduled');
  });

  it('list a session on sale now, and one session with its tiers and default admission rate', async () => {
    const { sessionId, tierId } = await ownSession();
    const name = await env.DB.prepare(
      'SELECT a.name_en AS name FROM activities a JOIN activity_sessions s ON s.activity_id = a.id WHERE s.id = ?',
    )
      .bind(sessionId)
      .first<{ name: string }>();
    const listed = (when: string) =>
      operator.call<OnSaleRow[]>(`/api/v1/operator/on-sales?when=${when}&q=${encodeURIComponent(name!.name)}`);
    const now = await listed('now');
    expect(now.status, now.text).toBe(200);
    expect(now.body.data.find((row) => row.sessionId === sessionId)).toMatchObject({
      status: 'scheduled',
      highDemand: false,
      inLine: null,
    });
    expect((await listed('soon')).body.data.map((row) => row.sessionId)).not.toContain(sessionId);
    const one = await operator.call<OnSaleSession>(`/api/v1/operator/sessions/${sessionId}/on-sale`);
    expect(one.body.data).toMatchObject({
      sessionId,
      status: 'scheduled',
      highDemand: false,
      admissionRate: { perMinute: 600, custom: false },
    });
    expect(one.body.data.tiers.map((tier) => tier.tierId)).toEqual([tierId]);
  });
});

describe('the refund preview', () => {
  it('says what each paid buyer paid and gets back, masked, with totals per currency and the unpaid orders', async () => {
    const show = await ownSession();
    const paidOne = await order(buyer, show.listingId, 2);
    await pay(buyer, paidOne.id);
    const paidTwo = await order(operator, show.listingId, 1);
    await pay(operator, paidTwo.id);
    await order(buyer, show.listingId, 1);

    const answer = await operator.call<RefundPreview>(`/api/v1/operator/sessions/${show.sessionId}/refund-preview`);
    expect(answer.status, answer.text).toBe(200);
    const preview = answer.body.data;
    expect(preview.paidOrders).toBe(2);
    expect(preview.unpaidOrders).toBe(1);
    const refundOf = (detail: OrderDetail) => detail.cost.total - detail.cost.serviceFee - detail.cost.postage;
    const line = preview.orders.find((row) => row.orderNo === paidOne.orderNo)!;
    expect(line).toMatchObject({ quantity: 2, paid: { amount: paidOne.cost.total }, refund: { amount: refundOf(paidOne) } });
    const nickname = await env.DB.prepare('SELECT nickname FROM users WHERE id = ?')
      .bind(Number(buyer.cookies.get('pnid')))
      .first<{ nickname: string }>();
    expect(line.buyer).toHaveLength([...nickname!.nickname].length);
    expect(line.buyer).toMatch(/^.\*+.$/u);
    expect(line.contact).toMatch(/^o\*\*\*@example\.com$/);
    expect(preview.totals).toEqual([
      expect.objectContaining({
        currency: paidOne.cost.currency,
        orders: 2,
        paid: expect.objectContaining({ amount: paidOne.cost.total + paidTwo.cost.total }),
        refund: expect.objectContaining({ amount: refundOf(paidOne) + refundOf(paidTwo) }),
      }),
    ]);
  });
});

describe('cancelling and postponing, audited', () => {
  it('writes one session.cancel row however often the cancel is repeated, and refunds what the preview said', async () => {
    const show = await ownSession();
    const paid = await order(buyer, show.listingId, 1);
    await pay(buyer, paid.id);
    const preview = (await operator.call<RefundPreview>(`/api/v1/operator/sessions/${show.sessionId}/refund-preview`)).body.data;

    const first = await operator.post<{ refunded: number }>(`/api/v1/operator/sessions/${show.sessionId}/cancel`, {});
    expect(first.body.data.refunded, first.text).toBe(1);
    const again = await Promise.all(
      [1, 2].map(() => operator.post<{ refunded: number }>(`/api/v1/operator/sessions/${show.sessionId}/cancel`, {})),
    );
    expect(again.map((answer) => answer.body.data.refunded)).toEqual([0, 0]);

    const rows = await auditRows('session.cancel', show.sessionId);
    expect(rows).toHaveLength(1);
    expect(rows[0].actorId).toBe(Number(operator.cookies.get('pnid')));
    expect(JSON.parse(rows[0].beforeJson!)).toMatchObject({ status: 'scheduled' });
    expect(JSON.parse(rows[0].afterJson!)).toEqual({ status: 'cancelled' });
    const refunded = await env.DB.prepare('SELECT refund_amount AS amount FROM orders WHERE id = ?')
      .bind(paid.id)
      .first<{ amount: number }>();
    expect(refunded?.amount).toBe(preview.orders[0].refund.amount);
  });

  it('writes the postponement with the dates before and after, and none when it is refused', async () => {
    const show = await ownSession();
    const before = await env.DB.prepare('SELECT starts_at AS startsAt FROM activity_sessions WHERE id = ?')
      .bind(show.sessionId)
      .first<{ startsAt: number }>();
    const next = {
      startsAt: before!.startsAt + 10 * DAY,
      endsAt: before!.startsAt + 10 * DAY + 3600_000,
      refundUntil: Date.now() + 5 * DAY,
    };
    const moved = await operator.post(`/api/v1/operator/sessions/${show.sessionId}/postpone`, next);
    expect(moved.status, moved.text).toBe(200);
    const [row] = await auditRows('session.postpone', show.sessionId);
    expect(JSON.parse(row.beforeJson!)).toMatchObject({ status: 'scheduled', startsAt: before!.startsAt });
    expect(JSON.parse(row.afterJson!)).toEqual({ status: 'postponed', ...next });

    await operator.post(`/api/v1/operator/sessions/${show.sessionId}/cancel`, {});
    expect((await operator.post(`/api/v1/operator/sessions/${show.sessionId}/postpone`, next)).body.errorCode).toBe('session_cancelled');
    expect(await auditRows('session.postpone', show.sessionId)).toHaveLength(1);
  });

  it('writes a tier high-demand switch once, not when it is switched to what it already is', async () => {
    const show = await ownSession();
    for (const _ of [1, 2]) {
      const on = await operator.post(`/api/v1/operator/tiers/${show.tierId}/high-demand`, { highDemand: true });
      expect(on.status, on.text).toBe(200);
    }
    const rows = await auditRows('tier.high_demand', show.tierId);
    expect(rows.map((row) => JSON.parse(row.afterJson!))).toEqual([{ highDemand: true }]);
  });
});

describe('the admission rate', () => {
  it('is kept per session with its audit row, handed to the room when the session turns high demand, and checked', async () => {
    const show = await ownSession();
    const path = `/api/v1/operator/sessions/${show.sessionId}/admission-rate`;
    const set = await operator.call<AdmissionRate>(path, { method: 'PUT', body: { perMinute: 120 } });
    expect(set.body.data, set.text).toEqual({ sessionId: show.sessionId, perMinute: 120, custom: true });
    await operator.call(path, { method: 'PUT', body: { perMinute: 120 } });
    const rows = await auditRows('session.admission_rate', show.sessionId);
    expect(rows.map((row) => [JSON.parse(row.beforeJson!), JSON.parse(row.afterJson!)])).toEqual([
      [
        { perMinute: 600, custom: false },
        { perMinute: 120, custom: true },
      ],
    ]);

    const quiet = await operator.call<OnSaleLiveState>(`/api/v1/operator/sessions/${show.sessionId}/live`);
    expect(quiet.body.data).toMatchObject({ highDemand: false, room: null, sold: 0, held: 0, left: 50 });

    const on = await operator.post(`/api/v1/operator/sessions/${show.sessionId}/high-demand`, { highDemand: true });
    expect(on.status, on.text).toBe(200);
    const live = await operator.call<OnSaleLiveState>(`/api/v1/operator/sessions/${show.sessionId}/live`);
    expect(live.body.data).toMatchObject({ highDemand: true, room: { inLine: 0, admitted: 0, admissionsPerMinute: 120 } });
    expect(await auditRows('session.high_demand', show.sessionId)).toHaveLength(1);

    const slower = await operator.call<AdmissionRate>(path, { method: 'PUT', body: { perMinute: 30 } });
    expect(slower.status, slower.text).toBe(200);
    expect(
      (await operator.call<OnSaleLiveState>(`/api/v1/operator/sessions/${show.sessionId}/live`)).body.data.room?.admissionsPerMinute,
    ).toBe(30);

    const reset = await operator.call<AdmissionRate>(path, { method: 'PUT', body: { perMinute: null } });
    expect(reset.body.data).toEqual({ sessionId: show.sessionId, perMinute: 600, custom: false });
    expect(
      (await operator.call<OnSaleLiveState>(`/api/v1/operator/sessions/${show.sessionId}/live`)).body.data.room?.admissionsPerMinute,
    ).toBe(600);
    expect(await auditRows('session.admission_rate', show.sessionId)).toHaveLength(3);

    const wrong = await operator.call(path, { method: 'PUT', body: { perMinute: 60_001 } });
    expect(wrong.body).toMatchObject({ code: 400, errorCode: 'admission_rate_invalid', field: 'perMinute' });
    expect((await operator.call(path, { method: 'PUT', body: { perMinute: 2.5 } })).body.errorCode).toBe('admission_rate_invalid');
    expect(
      (await operator.call('/api/v1/operator/sessions/999999/admission-rate', { method: 'PUT', body: { perMinute: 5 } })).body.errorCode,
    ).toBe('session_not_found');
  });
});
