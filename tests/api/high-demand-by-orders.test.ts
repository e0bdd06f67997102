/**
 * A plain session turns high demand by itself when checkout's orders for it reach the threshold
 * (docs/hot-on-sale.md): counted in a table of its own by each order's batch, so orders
 * below it leave the catalogue version alone; at it the session is switched on once, as an operator
 * would switch it, and its next buyers need the waiting room's pass. The threshold is set to 3 for
 * these buyers (the worker's env, as a deployment would set it).
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import { sessionInventory } from '../../src/lib/durable-objects/session-inventory.ts';
import { minuteOf } from '../../src/lib/domain/order-rate.ts';
import type { HighDemandSwitch } from '../../src/lib/services/on-sale/high-demand.ts';
import { sweep } from '../../src/lib/services/platform/sweep.ts';
import { type TestClient, signedInClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { createOrder, type ETicketSource, newKey, placeOrder, quote, waitingRoomPass } from './shop.ts';

const THRESHOLD = 3;

/** Distinct plain sessions to buy e-tickets at, each from a listing given 500 tickets (as shop.ts `eTicketSource`). */
async function plainSessions(count: number): Promise<ETicketSource[]> {
  const { results } = await env.DB.prepare(
    `SELECT min(l.id) AS listingId, s.id AS sessionId FROM listings l
     JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
     WHERE l.status = 'active' AND a.status IN (1, 4) AND a.sale_starts_at <= ?1 AND s.starts_at > ?1 + 86400000 AND s.high_demand = 0
       AND a.real_name_required = 0 AND a.num_min <= 1 AND a.num_max >= 3 AND instr(l.delivery_types, 'e_ticket') > 0
     GROUP BY s.id ORDER BY s.id LIMIT ?2`,
  )
    .bind(Date.now(), count)
    .all<{ listingId: number; sessionId: number }>();
  if (results.length < count) throw new Error(`The seed has fewer than ${count} plain sessions to buy at`);
  const sources: ETicketSource[] = [];
  for (const { listingId } of results) {
    sources.push(
      (await env.DB.prepare(
        `UPDATE listings SET quantity_available = 500, quantity_total = 500 WHERE id = ?1
         RETURNING id AS listingId, seller_id AS sellerId, (SELECT session_id FROM ticket_tiers WHERE id = tier_id) AS sessionId,
           (SELECT face_value FROM ticket_tiers WHERE id = tier_id) AS faceValue, currency`,
      )
        .bind(listingId)
        .first<ETicketSource>())!,
    );
  }
  return sources;
}

/** A signed-in buyer whose requests reach a worker configured with the small threshold. */
async function buyer(label: string): Promise<TestClient> {
  const client = await signedInClient(label);
  client.envOverrides = { HIGH_DEMAND_ORDERS_PER_MINUTE: String(THRESHOLD) };
  return client;
}

/** Waits out the last seconds of a minute, so a test's orders are counted in one minute of the clock. */
async function clearOfMinuteTurn(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 5000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

async function catalogueVersion(): Promise<number> {
  return (await env.DB.prepare('SELECT version FROM catalogue_version WHERE id = 1').first<{ version: number }>())!.version;
}

const flagOf = async (sessionId: number) =>
  (await env.DB.prepare('SELECT high_demand AS flag FROM activity_sessions WHERE id = ?1').bind(sessionId).first<{ flag: number }>())!.flag;

/** The session's orders counted in each minute, oldest first. */
async function counted(sessionId: number): Promise<{ minute: number; orders: number }[]> {
  const { results } = await env.DB.prepare('SELECT minute, orders FROM session_order_rates WHERE session_id = ?1 ORDER BY minute')
    .bind(sessionId)
    .all<{ minute: number; orders: number }>();
  return results;
}

/** The inventory object's own record: which session it holds for, and whether it refuses holds. */
async function inventoryState(sessionId: number): Promise<{ sessionId: number | null; closed: boolean }> {
  return runInDurableObject(sessionInventory(env, sessionId), (_instance, state) => {
    const rows = state.storage.sql.exec<{ name: string; value: number }>('SELECT name, value FROM meta').toArray();
    return {
      sessionId: rows.find((row) => row.name === 'session_id')?.value ?? null,
      closed: rows.some((row) => row.name === 'closed'),
    };
  });
}

/** The log lines saying a session turned high demand by its orders. */
function switchLogs(spy: { mock: { calls: unknown[][] } }, sessionId: number) {
  return spy.mock.calls
    .map(([line]) => (typeof line === 'string' && line.startsWith('{') ? JSON.parse(line) : null))
    .filter((entry) => entry?.event === 'session_high_demand_by_orders' && entry.sessionId === sessionId);
}

let sessions: ETicketSource[];

beforeAll(async () => {
  await seed();
  sessions = await plainSessions(5);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a plain session under its orders', () => {
  it('stays plain below the threshold, its orders counted apart from the session row and the catalogue version left alone', async () => {
    const [show] = sessions;
    const client = await buyer('rate-below');
    await clearOfMinuteTurn();
    const before = await catalogueVersion();
    for (let i = 0; i < THRESHOLD - 1; i++) expect((await placeOrder(client, show.listingId, 1)).status).toBe(200);
    expect(await counted(show.sessionId)).toEqual([{ minute: minuteOf(Date.now()), orders: THRESHOLD - 1 }]);
    expect(await flagOf(show.sessionId)).toBe(0);
    expect(await catalogueVersion()).toBe(before);
  });

  it('turns high demand once at the threshold: object opened, flag set, catalogue version moved once, the next buyer sent to the room', async () => {
    const [, show] = sessions;
    const log = vi.spyOn(console, 'info');
    const client = await buyer('rate-crossing');
    await clearOfMinuteTurn();
    const before = await catalogueVersion();
    for (let i = 0; i < THRESHOLD - 1; i++) expect((await placeOrder(client, show.listingId, 1)).status).toBe(200);
    expect(await flagOf(show.sessionId)).toBe(0);

    // The order that reaches the threshold is itself placed as any plain order; the switch follows it.
    const crossing = await placeOrder(client, show.listingId, 1);
    expect(crossing.status, crossing.text).toBe(200);
    expect(await flagOf(show.sessionId)).toBe(1);
    expect(await inventoryState(show.sessionId)).toEqual({ sessionId: show.sessionId, closed: false });
    expect(await catalogueVersion()).toBe(before + 1);
    expect(switchLogs(log, show.sessionId)).toEqual([
      { event: 'session_high_demand_by_orders', sessionId: show.sessionId, ordersLastMinute: THRESHOLD, threshold: THRESHOLD },
    ]);

    const refused = await placeOrder(client, show.listingId, 1);
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe('waiting_room_pass_required');
    const admitted = await placeOrder(client, show.listingId, 1, await waitingRoomPass(client, show.sessionId));
    expect(admitted.status, admitted.text).toBe(200);
    expect(await sessionInventory(env, show.sessionId).available(show.listingId)).toBe(500 - THRESHOLD - 1);
    expect(await catalogueVersion()).toBe(before + 1);
  });

  it('switches once when many orders reach the threshold together', async () => {
    const [, , show] = sessions;
    const log = vi.spyOn(console, 'info');
    const clients = await Promise.all(Array.from({ length: 8 }, (_, i) => buyer(`rate-together-${i}`)));
    const total = (await quote(clients[0], show.listingId, 1)).body.data.cost.total;
    await clearOfMinuteTurn();
    const before = await catalogueVersion();
    const answers = await Promise.all(clients.map((client) => createOrder(client, show.listingId, 1, total)));

    // Each order either went through before the switch, or was told to queue (its read saw the flag) or to try again
    // (the flag came between its read and its batch, whose hold D1 refused).
    for (const answer of answers) {
      expect([200, 403, 409], answer.text).toContain(answer.status);
      if (answer.status !== 200) expect(['waiting_room_pass_required', 'conflict']).toContain(answer.body.errorCode);
    }
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(THRESHOLD);
    // Every order that reached its batch counted, and each from the threshold on asked for the switch
    // (in-process, all 8 usually reach their batch before the first switch is done).
    const batched = answers.filter((answer) => answer.body.errorCode !== 'waiting_room_pass_required').length;
    expect(await counted(show.sessionId)).toEqual([{ minute: minuteOf(Date.now()), orders: batched }]);
    expect(await flagOf(show.sessionId)).toBe(1);
    expect(await catalogueVersion()).toBe(before + 1);
    expect(switchLogs(log, show.sessionId)).toHaveLength(1);
  });

  it('counts a retried order once, whether the retry follows it or races it', async () => {
    const [, , , show] = sessions;
    const client = await buyer('rate-retried');
    const total = (await quote(client, show.listingId, 1)).body.data.cost.total;
    await clearOfMinuteTurn();
    const idempotencyKey = newKey();
    const racing = await Promise.all([1, 2].map(() => createOrder(client, show.listingId, 1, total, { idempotencyKey })));
    expect(racing.map((answer) => answer.status)).toEqual([200, 200]);
    expect(racing[1].body.data.orderNo).toBe(racing[0].body.data.orderNo);
    for (let i = 0; i < THRESHOLD; i++) {
      expect((await createOrder(client, show.listingId, 1, total, { idempotencyKey })).body.data.orderNo).toBe(racing[0].body.data.orderNo);
    }
    expect(await counted(show.sessionId)).toEqual([{ minute: minuteOf(Date.now()), orders: 1 }]);
    expect(await flagOf(show.sessionId)).toBe(0);
  });

  it('never switches on a session an operator switched, and never switches one off', async () => {
    const [, , , , show] = sessions;
    const operator = await signedInClient('rate-operator');
    await env.DB.prepare("INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, 'operator', 0)")
      .bind(Number(operator.cookies.get('pnid')))
      .run();
    const before = await catalogueVersion();
    // Switching off a session that is off changes nothing anyone reads: the version stays.
    const off = await operator.post<HighDemandSwitch>(`/api/v1/operator/sessions/${show.sessionId}/high-demand`, { highDemand: false });
    expect(off.status, off.text).toBe(200);
    expect(await catalogueVersion()).toBe(before);

    const client = await buyer('rate-operator-decided');
    await clearOfMinuteTurn();
    for (let i = 0; i < THRESHOLD + 2; i++) expect((await placeOrder(client, show.listingId, 1)).status).toBe(200);
    expect(await counted(show.sessionId)).toEqual([{ minute: minuteOf(Date.now()), orders: THRESHOLD + 2 }]);
    expect(await flagOf(show.sessionId)).toBe(0);
    expect(await catalogueVersion()).toBe(before);

    // The operator's own switch still turns it on, and moves the version once.
    const on = await operator.post<HighDemandSwitch>(`/api/v1/operator/sessions/${show.sessionId}/high-demand`, { highDemand: true });
    expect(on.status, on.text).toBe(200);
    expect(await flagOf(show.sessionId)).toBe(1);
    expect(await catalogueVersion()).toBe(before + 1);
  });

  it('keeps only the minutes an order’s rate reads: the sweep deletes older ones', async () => {
    const now = Date.now();
    const [show] = sessions;
    await env.DB.prepare('INSERT INTO session_order_rates (minute, session_id, orders) VALUES (?1, ?3, 9), (?2, ?3, 9)')
      .bind(minuteOf(now) - 2, minuteOf(now) - 30, show.sessionId)
      .run();
    await env.DB.prepare(
      'INSERT INTO session_order_rates (minute, session_id, orders) VALUES (?1, ?2, 4) ON CONFLICT (minute, session_id) DO NOTHING',
    )
      .bind(minuteOf(now) - 1, show.sessionId)
      .run();
    await sweep(database(env.DB), env, env.MESSAGES, now);
    const { results } = await env.DB.prepare('SELECT minute FROM session_order_rates').all<{ minute: number }>();
    expect(results.length).toBeGreaterThan(0);
    expect(Math.min(...results.map((row) => row.minute))).toBe(minuteOf(now) - 1);
  });
});
