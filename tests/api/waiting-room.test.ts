import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { WAITING_ROOM_PASS_LIFETIME_MS } from '../../src/lib/config/on-sale.ts';
import { REPLICA_BOOKMARK_COOKIE } from '../../src/lib/config/request.ts';
import { database } from '../../src/lib/data/client.ts';
import { countingRoundTrips } from '../../src/lib/data/measured-d1.ts';
import type { RequestContext } from '../../src/lib/domain/request-context.ts';
import type { RoomFront } from '../../src/lib/domain/waiting-room.ts';
import { referenceData } from '../../src/lib/services/catalogue/reference-data.ts';
import type { WaitingView } from '../../src/lib/services/on-sale/waiting-room.ts';
import { passFor } from '../../src/lib/services/on-sale/waiting-room.ts';
import { signUp, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { createOrder, eTicketSource, quote, type ETicketSource, userScope } from './shop.ts';
import { durableOnSaleObjects } from '../../src/lib/durable-objects/on-sale-objects.ts';

const ctx: RequestContext = { locale: 'en', currency: 'HKD', clientType: 12, cityId: 341 };
const HOUR = 3_600_000;

let buyers = 0;
async function buyer(): Promise<{ client: TestClient; userId: number }> {
  const client = new TestClient();
  buyers += 1;
  return { client, userId: await signUp(client, `queue${buyers}@example.com`) };
}

const join = (client: TestClient, sessionId: number) => client.post<WaitingView>(`/api/v1/waiting-rooms/${sessionId}`, {});

/** The room's dev door (local builds only): its rate from now on, or the next buyers let through now. */
async function steer(sessionId: number, body: { admissionsPerMinute?: number; admitNext?: number }): Promise<void> {
  const answer = await new TestClient().post(`/api/v1/dev/waiting-rooms/${sessionId}`, body);
  expect(answer.status, answer.text).toBe(200);
}

/** The signed-in buyer's pass, as the order confirmation page gets it. */
async function passOf(userId: number, sessionId: number): Promise<string | null> {
  const scope = await userScope(userId);
  return (await passFor(scope, { sessionId, tierId: null }))?.pass ?? null;
}

/** Marks the listing's session high demand; the room lets nobody through by itself (the test does). */
async function highDemand(source: ETicketSource): Promise<void> {
  await env.DB.prepare('UPDATE activity_sessions SET high_demand = 1 WHERE id = ?').bind(source.sessionId).run();
  await steer(source.sessionId, { admissionsPerMinute: 0 });
}

/** Orders one ticket of the listing at its quoted total, carrying `pass` when given. */
async function orderWith(client: TestClient, listingId: number, pass: string | null, language = 'en') {
  const quoted = await quote(client, listingId, 1);
  expect(quoted.status, quoted.text).toBe(200);
  return createOrder(client, listingId, 1, quoted.body.data.cost.total, { waitingRoomPass: pass ?? undefined, language });
}

let first: ETicketSource;
let last: ETicketSource;

beforeAll(async () => {
  await seed();
  first = await eTicketSource('first');
  last = await eTicketSource('last');
  await highDemand(first);
  await highDemand(last);
});

describe('the line of an on-sale already open', () => {
  it('gives later arrivals places in arrival order and lets them through in that order', async () => {
    const arrivals = [];
    for (let i = 0; i < 4; i++) arrivals.push(await buyer());
    const places = [];
    for (const { client } of arrivals) places.push((await join(client, first.sessionId)).body.data);
    const [head] = places;
    expect(places.map((view) => view.state)).toEqual(['waiting', 'waiting', 'waiting', 'waiting']);
    expect(places.map((view) => view.position! - head.position!)).toEqual([0, 1, 2, 3]);
    expect(places.map((view) => view.place! - head.place!)).toEqual([0, 1, 2, 3]);
    // Lets everyone ahead of this group through, then the group one by one: the order never changes.
    if (head.place! > 1) await steer(first.sessionId, { admitNext: head.place! - 1 });
    for (let admitted = 1; admitted <= arrivals.length; admitted++) {
      await steer(first.sessionId, { admitNext: 1 });
      const views = await Promise.all(arrivals.map(({ client }) => join(client, first.sessionId)));
      expect(views.map((view) => view.body.data.state)).toEqual(arrivals.map((_, i) => (i < admitted ? 'admitted' : 'waiting')));
      expect(views.map((view) => view.body.data.place)).toEqual(arrivals.map((_, i) => (i < admitted ? null : i - admitted + 1)));
    }
  });

  it('keeps an account’s place when it arrives again, and gives concurrent arrivals one place each', async () => {
    const { client } = await buyer();
    const firstVisit = (await join(client, first.sessionId)).body.data;
    const crowd = await Promise.all(Array.from({ length: 12 }, () => buyer()));
    const crowdPlaces = await Promise.all(crowd.map((one) => join(one.client, first.sessionId)));
    const again = await Promise.all([join(client, first.sessionId), join(client, first.sessionId)]);
    expect(again.map((answer) => answer.body.data.position)).toEqual([firstVisit.position, firstVisit.position]);
    const positions = crowdPlaces.map((answer) => answer.body.data.position!).sort((a, b) => a - b);
    expect(positions).toEqual(Array.from({ length: 12 }, (_, i) => firstVisit.position! + 1 + i));
  });

  it('answers where a position stands to anyone, and asks again sooner near the front', async () => {
    const { client } = await buyer();
    const mine = (await join(client, first.sessionId)).body.data;
    const front = await new TestClient().call<WaitingView>(`/api/v1/waiting-rooms/${first.sessionId}/front?position=${mine.position}`);
    expect(front.status, front.text).toBe(200);
    expect(front.body.data).toMatchObject({ state: 'waiting', position: mine.position, place: mine.place, estimatedWaitMs: null });
  });

  it('writes nothing to D1 on a join: no replica bookmark to hand over, as after a read', async () => {
    const { client } = await buyer();
    const joined = await join(client, first.sessionId);
    expect(joined.status, joined.text).toBe(200);
    expect(joined.headers.getSetCookie().some((line) => line.startsWith(`${REPLICA_BOOKMARK_COOKIE}=`))).toBe(false);
    // The same buyer's write to D1 (a saved city) does hand one over.
    const saved = await client.post('/api/v1/cities/user/save', { cityId: 343 });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.headers.getSetCookie().some((line) => line.startsWith(`${REPLICA_BOOKMARK_COOKIE}=`))).toBe(true);
  });

  it('is only for a high-demand session, and only for a signed-in buyer', async () => {
    const { client } = await buyer();
    const plain = await env.DB.prepare('SELECT id FROM activity_sessions WHERE high_demand = 0 LIMIT 1').first<{ id: number }>();
    const refused = await join(client, plain!.id);
    expect(refused.status).toBe(404);
    expect(refused.body.errorCode).toBe('waiting_room_not_found');
    expect((await join(new TestClient(), first.sessionId)).status).toBe(401);
    // A session that has ended is refused before anything else is said of the room.
    const ended = await buyer();
    await env.DB.prepare('DELETE FROM auth_sessions WHERE user_id = ?').bind(ended.userId).run();
    expect((await join(ended.client, plain!.id)).status).toBe(401);
    expect((await join(ended.client, first.sessionId)).status).toBe(401);
  });

  it('takes a place in one D1 round trip: the sign-in is confirmed in the on-sale’s read', async () => {
    const { client } = await buyer();
    const joined = await countingRoundTrips(() => join(client, first.sessionId));
    expect(joined.result.status, joined.result.text).toBe(200);
    expect(joined.roundTrips).toBe(1);
  });
});

describe('the early group', () => {
  it('draws everyone who arrived before the opening into a random order, ahead of every later arrival', async () => {
    const source = first;
    // A session of its own whose sale opens in an hour.
    const session = await env.DB.prepare(
      `INSERT INTO activity_sessions (activity_id, starts_at, ends_at, high_demand)
       SELECT activity_id, starts_at + 3600000, ends_at + 3600000, 1 FROM activity_sessions WHERE id = ? RETURNING id`,
    )
      .bind(source.sessionId)
      .first<{ id: number }>();
    const activity = await env.DB.prepare(
      'SELECT activity_id AS id, (SELECT sale_starts_at FROM activities WHERE id = activity_id) AS opensAt FROM activity_sessions WHERE id = ?',
    )
      .bind(session!.id)
      .first<{ id: number; opensAt: number }>();
    const openAt = async (at: number) =>
      env.DB.prepare('UPDATE activities SET sale_starts_at = ? WHERE id = ?').bind(at, activity!.id).run();
    await openAt(Date.now() + HOUR);
    // Stopped before the opening, so the positions the draw gives are the places.
    await steer(session!.id, { admissionsPerMinute: 0 });
    try {
      const early = [];
      for (let i = 0; i < 10; i++) early.push(await buyer());
      for (const { client } of early) {
        const view = (await join(client, session!.id)).body.data;
        expect(view).toMatchObject({ state: 'early', position: null, place: null, drawn: false });
      }
      await openAt(Date.now() - 1000);
      const drawn = [];
      for (const { client } of early) drawn.push((await join(client, session!.id)).body.data.position!);
      expect([...drawn].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      // Arriving first is no advantage: the order is a draw (10! orders, one of them the arrival order).
      expect(drawn).not.toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      const later = await buyer();
      expect((await join(later.client, session!.id)).body.data).toMatchObject({ state: 'waiting', position: 11, place: 11 });
    } finally {
      await openAt(activity!.opensAt);
    }
  });
});

describe('checkout of a high-demand session', () => {
  it('refuses an order without a pass, in the buyer’s language', async () => {
    const { client } = await buyer();
    const refused = await orderWith(client, first.listingId, null);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 403, data: null, errorCode: 'waiting_room_pass_required' });
    const inChinese = await orderWith(client, first.listingId, 'not-a-pass', 'zh-HK');
    expect(inChinese.body).toMatchObject({
      code: 403,
      errorCode: 'waiting_room_pass_invalid',
      message: expect.stringContaining('重新排隊'),
    });
  });

  it('takes the admitted buyer’s own pass, and refuses it to another account and for another session', async () => {
    const admitted = await buyer();
    const other = await buyer();
    await join(admitted.client, first.sessionId);
    await join(other.client, first.sessionId);
    expect(await passOf(admitted.userId, first.sessionId)).toBeNull();
    const { place } = (await join(admitted.client, first.sessionId)).body.data;
    await steer(first.sessionId, { admitNext: place! });
    const pass = (await passOf(admitted.userId, first.sessionId))!;
    expect(pass).toMatch(new RegExp(`^${first.sessionId}\\.${admitted.userId}\\.`));

    // Another account presenting it: refused, and nothing is held.
    const stolen = await orderWith(other.client, first.listingId, pass);
    expect(stolen.status).toBe(403);
    expect(stolen.body.errorCode).toBe('waiting_room_pass_invalid');

    // The same pass at another high-demand session's checkout: refused.
    await join(admitted.client, last.sessionId);
    const elsewhere = await orderWith(admitted.client, last.listingId, pass);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.errorCode).toBe('waiting_room_pass_invalid');

    const bought = await orderWith(admitted.client, first.listingId, pass);
    expect(bought.status, bought.text).toBe(200);
  });

  it('leaves the checkout of every other session as it was', async () => {
    const { client } = await buyer();
    const plain = await eTicketSourceNotHighDemand();
    const quoted = await quote(client, plain, 1);
    expect((await createOrder(client, plain, 1, quoted.body.data.cost.total)).status).toBe(200);
  });
});

describe('the room’s storage', () => {
  it('keeps every place when the object is reset', async () => {
    const { client } = await buyer();
    const before = (await join(client, first.sessionId)).body.data;
    const stub = () => env.WAITING_ROOM.get(env.WAITING_ROOM.idFromName(String(first.sessionId)));
    const running = await runInDurableObject(stub(), (instance) => instance);
    // Resets the object as an eviction or a deploy would: its memory is gone, its storage stays.
    await runInDurableObject(stub(), (_instance, state) => state.abort('reset by the test')).catch(() => undefined);
    const after = (await join(client, first.sessionId)).body.data;
    // A stub that saw the reset is broken for good: a new one reaches the object's next life.
    expect(await runInDurableObject(stub(), (instance) => instance)).not.toBe(running);
    expect(after.position).toBe(before.position);
    expect(after.place).toBe(before.place);
  });
});

describe('checkout’s door', () => {
  const room = () => env.WAITING_ROOM.get(env.WAITING_ROOM.idFromName(String(first.sessionId)));

  it('lets buyers seen through together in one at a time at the room’s rate, each pass starting as its buyer enters', async () => {
    await steer(first.sessionId, { admissionsPerMinute: 0 });
    const crowd = [];
    for (let i = 0; i < 4; i++) crowd.push(await buyer());
    let lastPlace = 0;
    for (const { client } of crowd) lastPlace = (await join(client, first.sessionId)).body.data.place!;
    await steer(first.sessionId, { admitNext: lastPlace });
    await steer(first.sessionId, { admissionsPerMinute: 600 });
    const db = database(env.DB);
    const reference = await referenceData(db, Date.now(), null);
    // The four order confirmation pages ask for their passes at the same moment.
    const now = Date.now();
    const entries = await Promise.all(
      crowd.map(async ({ userId }) => {
        const scope = { db, ctx, currencies: reference.currencyTable, reference, userId, now, env, onSales: durableOnSaleObjects(env) };
        const pass = await passFor(scope, { sessionId: first.sessionId, tierId: null });
        return { enteredAt: pass!.expiresAt - WAITING_ROOM_PASS_LIFETIME_MS, answeredAt: Date.now() };
      }),
    );
    const moments = entries.map((entry) => entry.enteredAt - now).sort((a, b) => a - b);
    expect(moments[0]).toBeGreaterThanOrEqual(0);
    // One buyer's share of 600 a minute apart (the first may find the door's last moment still ahead).
    expect(moments.slice(1).map((moment, i) => moment - moments[i])).toEqual([100, 100, 100]);
    // Each page has its answer only once its buyer's moment came.
    for (const { enteredAt, answeredAt } of entries) expect(answeredAt).toBeGreaterThanOrEqual(enteredAt);
    await steer(first.sessionId, { admissionsPerMinute: 0 });
  });

  it('lets nobody new through while the door’s queue is longer than its backlog', async () => {
    await steer(first.sessionId, { admissionsPerMinute: 0 });
    const { client } = await buyer();
    const { position } = (await join(client, first.sessionId)).body.data;
    await steer(first.sessionId, { admissionsPerMinute: 600 });
    const door = (value: number) =>
      runInDurableObject(room(), (instance) => {
        (instance as unknown as { nextEntryAt: number }).nextEntryAt = value;
      });
    const now = Date.now();
    await door(now + 10_000);
    // A second at 600 a minute would let ten through; the door's queue of 9 s holds the line.
    expect((await room().front(now + 1000, now - HOUR, false)).admittedThrough).toBeLessThan(position!);
    await door(0);
    expect((await room().front(now + 2000, now - HOUR, false)).admittedThrough).toBeGreaterThanOrEqual(position!);
    await steer(first.sessionId, { admissionsPerMinute: 0 });
  });
});

describe('an on-sale with every ticket taken', () => {
  it('holds its line, says so, and moves on in order once tickets come back', async () => {
    // A session of its own, so this room and its stock are this test's alone.
    const source = await eTicketSource('first', [first, last]);
    await env.DB.batch([
      env.DB.prepare(
        'UPDATE listings SET quantity_available = 0 WHERE tier_id IN (SELECT id FROM ticket_tiers WHERE session_id = ?1)',
      ).bind(source.sessionId),
      env.DB.prepare('UPDATE listings SET quantity_available = 1, quantity_total = 1 WHERE id = ?1').bind(source.listingId),
    ]);
    await highDemand(source);
    const [lucky, patient] = [await buyer(), await buyer()];
    const { place } = (await join(lucky.client, source.sessionId)).body.data;
    await join(patient.client, source.sessionId);
    await steer(source.sessionId, { admitNext: place! });
    const bought = await orderWith(lucky.client, source.listingId, await passOf(lucky.userId, source.sessionId));
    expect(bought.status, bought.text).toBe(200);

    // At a thousand a second the line would reach the patient buyer at once: nothing is left, so it waits.
    await steer(source.sessionId, { admissionsPerMinute: 60_000 });
    const held = (await join(patient.client, source.sessionId)).body.data;
    expect(held).toMatchObject({ state: 'waiting', place: 1, soldOut: true, estimatedWaitMs: null });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await join(patient.client, source.sessionId)).body.data).toMatchObject({ state: 'waiting', place: 1, soldOut: true });
    const seen = await new TestClient().call<WaitingView>(`/api/v1/waiting-rooms/${source.sessionId}/front?position=${held.position}`);
    expect(seen.body.data).toMatchObject({ state: 'waiting', soldOut: true });

    // The lucky buyer cancels: the ticket is back, and the first in line goes through for it.
    const cancelled = await lucky.client.call(`/api/v1/orders/${bought.body.data.id}/cancel`, { method: 'POST' });
    expect(cancelled.status, cancelled.text).toBe(200);
    await vi.waitFor(async () => {
      expect((await join(patient.client, source.sessionId)).body.data).toMatchObject({ state: 'admitted', soldOut: false });
    });
    const second = await orderWith(patient.client, source.listingId, await passOf(patient.userId, source.sessionId));
    expect(second.status, second.text).toBe(200);
    await steer(source.sessionId, { admissionsPerMinute: 0 });
  });
});

describe('the rate paced by checkout', () => {
  const room = () => env.WAITING_ROOM.get(env.WAITING_ROOM.idFromName(String(last.sessionId)));
  /** Sets the room's rate through the dev door and answers the rate it lets buyers through at now. */
  async function rateAfterSetting(admissionsPerMinute: number): Promise<number> {
    const answer = await new TestClient().post<RoomFront>(`/api/v1/dev/waiting-rooms/${last.sessionId}`, { admissionsPerMinute });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data.admissionsPerMinute;
  }

  it('lets buyers through slower while the inventory reports slow batches, and at its rate once they are fast or old', async () => {
    expect(await rateAfterSetting(600)).toBe(600);
    // Batches at four times the target: a quarter of the rate, and the estimates say so.
    await room().reportCheckout(1000, 0, Date.now());
    expect(await rateAfterSetting(600)).toBe(150);
    const { client } = await buyer();
    const waiting = (await join(client, last.sessionId)).body.data;
    expect(waiting.estimatedWaitMs).toBe(Math.ceil((waiting.place! * 60_000) / 150));
    // A backlog of three batches' holds: a third.
    await room().reportCheckout(40, 75, Date.now());
    expect(await rateAfterSetting(600)).toBe(200);
    await room().reportCheckout(40, 0, Date.now());
    expect(await rateAfterSetting(600)).toBe(600);
    // The room keeps the quickest hold (40 ms): 200 ms is two and a half times that calm pace's target.
    await room().reportCheckout(200, 0, Date.now());
    expect(await rateAfterSetting(600)).toBe(240);
    await room().reportCheckout(40, 0, Date.now());
    // A slow report that is no longer fresh slows nothing.
    await room().reportCheckout(1000, 0, Date.now() - 6000);
    expect(await rateAfterSetting(600)).toBe(600);
    expect(await rateAfterSetting(0)).toBe(0);
  });

  it('gives a room stored before the calm hold was kept the column, its latest hold as the calm one', async () => {
    await room().reportCheckout(300, 0, Date.now());
    await runInDurableObject(room(), (_instance, state) => {
      state.storage.sql.exec('ALTER TABLE checkout_health DROP COLUMN calm_ms');
    });
    // The next life of the object (a deploy of this build) adds it back.
    await runInDurableObject(room(), (_instance, state) => state.abort('reset by the test')).catch(() => undefined);
    const [health] = await runInDurableObject(room(), (_instance, state) =>
      state.storage.sql.exec<{ hold_ms: number; calm_ms: number }>('SELECT hold_ms, calm_ms FROM checkout_health').toArray(),
    );
    expect(health).toEqual({ hold_ms: 300, calm_ms: 300 });
    await room().reportCheckout(40, 0, Date.now());
  });

  it('hears from the session’s inventory object after the batches it writes', async () => {
    const admitted = await buyer();
    const { place } = (await join(admitted.client, last.sessionId)).body.data;
    await steer(last.sessionId, { admitNext: place! });
    const bought = await orderWith(admitted.client, last.listingId, await passOf(admitted.userId, last.sessionId));
    expect(bought.status, bought.text).toBe(200);
    // The report is not awaited by the buyer's answer: it lands just after.
    await vi.waitFor(async () => {
      const [health] = await runInDurableObject(room(), (_instance, state) =>
        state.storage.sql.exec<{ backlog: number; reported_at: number }>('SELECT backlog, reported_at FROM checkout_health').toArray(),
      );
      expect(health).toMatchObject({ backlog: 0 });
      expect(Date.now() - health.reported_at).toBeLessThan(60_000);
    });
  });
});

/** A seeded on-sale e-ticket listing whose session has no waiting room. */
async function eTicketSourceNotHighDemand(): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT l.id AS id FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id
     JOIN activities a ON a.id = s.activity_id
     WHERE s.high_demand = 0 AND l.status = 'active' AND l.quantity_available >= 2 AND a.status IN (1, 4) AND a.sale_starts_at <= ?1
       AND s.starts_at > ?1 + 86400000 AND a.real_name_required = 0 AND a.num_min <= 1 AND instr(l.delivery_types, 'e_ticket') > 0
     ORDER BY l.id LIMIT 1`,
  )
    .bind(Date.now())
    .first<{ id: number }>();
  return row!.id;
}
