/**
 * A high-demand session's inventory object: holds through it never oversell, survive its
 * restart without being lost or counted twice, and D1 ends with exactly the orders and stock they
 * made; checkout of other shows goes on meanwhile.
 */
import { abortAllDurableObjects, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPLICA_BOOKMARK_COOKIE } from '../../src/lib/config/request.ts';
import { countingRoundTrips } from '../../src/lib/data/measured-d1.ts';
import { usableBookmark } from '../../src/lib/data/replica-bookmark.ts';
import type { HoldAnswer } from '../../src/lib/data/inventory-port.ts';
import { sessionInventory } from '../../src/lib/durable-objects/session-inventory.ts';
import { checkoutHoldStatement, inventoryHoldStatement, type OrderPlacement, placementRun } from '../../src/lib/data/order-placement.ts';
import { signedInClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import {
  clonedListing,
  createOrder,
  eTicketSource,
  type ETicketSource,
  heldInD1,
  inventoryPlacement,
  newKey,
  placeOrder,
  quote,
  showOfListing,
  storeUnwrittenHold,
  waitingRoomPass,
} from './shop.ts';

let hot: ETicketSource;
let buyers: number[];

const hotListing = (stock: number) => clonedListing(hot.listingId, stock);

/**
 * One buyer's order of `quantity` tickets of a listing, as checkout hands it to the object. These
 * tests are about the object's stock, with a few buyers making many holds: no account limit stops
 * them (tests/api/order-limits.test.ts holds the object to those).
 */
const placement = (listingId: number, buyer: number, key: string, quantity = 1) => ({
  ...inventoryPlacement(hot, listingId, buyer, key, quantity),
  limits: { accountTicketCap: 10_000, unpaidTicketLimit: 10_000, listingUnpaidLimit: 10_000 },
});

async function withShow(listingId: number, placements: OrderPlacement[]): Promise<OrderPlacement[]> {
  const show = await showOfListing(listingId);
  return placements.map((p) => ({ ...p, ...show }));
}

const inventory = () => sessionInventory(env, hot.sessionId);
const placedOrderNos = (answers: HoldAnswer[]) =>
  answers.flatMap((answer) => (answer.outcome === 'placed' ? [String(answer.order.order_no)] : [])).sort();

beforeAll(async () => {
  await seed();
  hot = await eTicketSource('last');
  await env.DB.prepare('UPDATE activity_sessions SET high_demand = 1 WHERE id = ?1').bind(hot.sessionId).run();
  const { results } = await env.DB.prepare('SELECT id FROM users WHERE id <> ?1 ORDER BY id LIMIT 20')
    .bind(hot.sellerId)
    .all<{ id: number }>();
  buyers = results.map((row) => row.id);
});

describe('a high-demand session’s inventory object', () => {
  it('holds exactly 100 of 1,000 concurrent holds on 100 tickets, keeps them across an eviction, and D1 agrees', async () => {
    const listingId = await hotListing(100);
    const placements = await withShow(
      listingId,
      Array.from({ length: 1000 }, (_, i) => placement(listingId, buyers[i % buyers.length], `burst-${i}`)),
    );
    // Another show's checkout, in the middle of the burst.
    const other = await eTicketSource('first');
    const otherBuyer = await signedInClient('other-show');
    const [answers, otherOrder] = await Promise.all([
      Promise.all(placements.map((p) => inventory().hold(p))),
      placeOrder(otherBuyer, other.listingId, 1),
    ]);

    expect(answers.filter((answer) => answer.outcome === 'placed')).toHaveLength(100);
    expect(answers.filter((answer) => answer.outcome === 'sold_out')).toHaveLength(900);
    expect(answers.every((answer) => answer.outcome === 'placed' || (answer.outcome === 'sold_out' && answer.available === 0))).toBe(true);
    expect(await heldInD1(listingId)).toEqual({ stock: 0, orders: 100, held: 100 });
    expect(otherOrder.status, otherOrder.text).toBe(200);

    // Evicted (its memory gone, its storage kept): the same 1,000 requests again hold nothing more.
    await evictDurableObject(inventory());
    expect(await inventory().available(listingId)).toBe(0);
    const retried = await Promise.all(placements.map((p) => inventory().hold(p)));
    expect(placedOrderNos(retried)).toEqual(placedOrderNos(answers));
    expect(await heldInD1(listingId)).toEqual({ stock: 0, orders: 100, held: 100 });
  });

  it('holds a retried request once, however many times it arrives', async () => {
    const listingId = await hotListing(10);
    const [request] = await withShow(listingId, [placement(listingId, buyers[0], 'retried', 2)]);
    const answers = await Promise.all([inventory().hold(request), inventory().hold(request), inventory().hold(request)]);
    expect(new Set(placedOrderNos(answers)).size).toBe(1);
    expect(placedOrderNos(answers)).toHaveLength(3);
    expect(await heldInD1(listingId)).toEqual({ stock: 8, orders: 1, held: 2 });
    expect(await inventory().hold({ ...request, requestHash: 'another body' })).toEqual({ outcome: 'key_reused' });
  });

  it('writes a hold it accepted but had not written when it crashed, once', async () => {
    const listingId = await hotListing(5);
    const [warm, accepted] = await withShow(listingId, [
      placement(listingId, buyers[1], 'warm'),
      placement(listingId, buyers[2], 'accepted'),
    ]);
    await inventory().hold(warm);
    await storeUnwrittenHold(inventory(), accepted);
    await abortAllDurableObjects();
    expect(await inventory().available(listingId)).toBe(3);
    expect(await runDurableObjectAlarm(inventory())).toBe(true);
    expect(await heldInD1(listingId)).toEqual({ stock: 3, orders: 2, held: 2 });
    const answer = await inventory().hold(accepted);
    expect(answer.outcome === 'placed' && answer.order.order_no).toBe(accepted.orderNo);
    expect(await inventory().available(listingId)).toBe(3);
  });

  it('counts once a batch D1 wrote whose answer the object never saw', async () => {
    const listingId = await hotListing(5);
    const [warm, lost] = await withShow(listingId, [placement(listingId, buyers[3], 'warm-2'), placement(listingId, buyers[4], 'lost')]);
    await inventory().hold(warm);
    // D1 committed the object's batch for the hold, and the object died before marking it written.
    await env.DB.batch([inventoryHoldStatement(env.DB, lost), ...placementRun(env.DB, lost)]);
    await runInDurableObject(inventory(), (_instance, state) => {
      state.storage.sql.exec(
        `INSERT INTO holds (key, listing_id, quantity, state, order_no, request_hash, payment_deadline, placement)
         VALUES (?, ?, 1, 'unwritten', ?, ?, ?, ?)`,
        `${lost.userId}:${lost.idempotencyKey}`,
        listingId,
        lost.orderNo,
        lost.requestHash,
        lost.paymentDeadline,
        JSON.stringify(lost),
      );
    });
    await abortAllDurableObjects();
    expect(await heldInD1(listingId)).toEqual({ stock: 3, orders: 2, held: 2 });
    const answer = await inventory().hold(lost);
    expect(answer.outcome === 'placed' && answer.order.order_no).toBe(lost.orderNo);
    expect(await heldInD1(listingId)).toEqual({ stock: 3, orders: 2, held: 2 });
    expect(await inventory().available(listingId)).toBe(3);
  });

  it('gives tickets back when an unpaid order expires, at its alarm', async () => {
    const listingId = await hotListing(1);
    const [first, second] = await withShow(listingId, [
      placement(listingId, buyers[5], 'expires'),
      placement(listingId, buyers[6], 'after'),
    ]);
    expect((await inventory().hold(first)).outcome).toBe('placed');
    expect(await inventory().hold(second)).toEqual({ outcome: 'sold_out', available: 0 });
    await env.DB.prepare('UPDATE orders SET payment_deadline = ?2 WHERE order_no = ?1')
      .bind(first.orderNo, Date.now() - 1)
      .run();
    expect(await runDurableObjectAlarm(inventory())).toBe(true);
    expect(await heldInD1(listingId)).toEqual({ stock: 1, orders: 0, held: 0 });
    expect((await inventory().hold({ ...second, idempotencyKey: 'after-again' })).outcome).toBe('placed');
  });

  it('sets aside a hold D1 refuses on its own, and writes the holds of its batch around it', async () => {
    const listingId = await hotListing(3);
    const [before, broken, after] = await withShow(listingId, [
      placement(listingId, buyers[8], 'before-poison'),
      placement(listingId, buyers[9], 'poison'),
      placement(listingId, buyers[10], 'after-poison'),
    ]);
    // A row D1 refuses whenever it is written (its currency is required): the whole batch fails with it.
    const poison = { ...broken, currency: null as unknown as string };
    const answers = await Promise.all([inventory().hold(before), inventory().hold(poison), inventory().hold(after)]);
    expect(answers.map((answer) => answer.outcome)).toEqual(['placed', 'failed', 'placed']);
    expect(await heldInD1(listingId)).toEqual({ stock: 1, orders: 2, held: 2 });
    // Its ticket is free again, and it is kept for an operator with D1's reason.
    expect(await inventory().available(listingId)).toBe(1);
    const letters = await inventory().deadLetters();
    expect(letters.map((letter) => [letter.key, letter.placement.orderNo])).toEqual([[`${poison.userId}:poison`, poison.orderNo]]);
    expect(letters[0].reason).toMatch(/NOT NULL/i);
    // A retry of the same request answers the same failure; the next buyer gets the ticket.
    expect(await inventory().hold(poison)).toEqual({ outcome: 'failed' });
    const [next] = await withShow(listingId, [placement(listingId, buyers[8], 'after-dead-letter')]);
    expect((await inventory().hold(next)).outcome).toBe('placed');
    expect(await heldInD1(listingId)).toEqual({ stock: 0, orders: 3, held: 3 });
  });

  it('is never decremented by checkout’s own hold', async () => {
    const listingId = await hotListing(3);
    const [request] = await withShow(listingId, [placement(listingId, buyers[7], 'plain')]);
    const [held] = await env.DB.batch([checkoutHoldStatement(env.DB, request)]);
    expect(held.meta.changes).toBe(0);
    expect(await heldInD1(listingId)).toEqual({ stock: 3, orders: 0, held: 0 });
  });
});

describe('checkout of a high-demand session', () => {
  it('orders through the object, answers a retry with the same order, and a cancel returns the tickets', async () => {
    await env.DB.prepare('UPDATE listings SET quantity_available = 1, quantity_total = 1 WHERE id = ?1').bind(hot.listingId).run();
    const buyer = await signedInClient('hot-buyer');
    const quoted = await buyer.call<{ cost: { total: number } }>(
      `/api/v1/checkout/quote?listingId=${hot.listingId}&quantity=1&deliveryType=e_ticket&coupon=none`,
    );
    expect(quoted.status, quoted.text).toBe(200);
    const key = newKey();
    const pass = await waitingRoomPass(buyer, hot.sessionId);
    const order = () => createOrder(buyer, hot.listingId, 1, quoted.body.data.cost.total, { waitingRoomPass: pass, idempotencyKey: key });
    const [first, retry] = await Promise.all([order(), order()]);
    expect(first.status, first.text).toBe(200);
    expect(retry.body.data.orderNo).toBe(first.body.data.orderNo);
    expect(await heldInD1(hot.listingId)).toEqual({ stock: 0, orders: 1, held: 1 });

    const lateBuyer = await signedInClient('late-buyer');
    const late = await placeOrder(lateBuyer, hot.listingId, 1, await waitingRoomPass(lateBuyer, hot.sessionId));
    expect(late.body.errorCode).toBe('tickets_sold_out');

    const cancelled = await buyer.call(`/api/v1/orders/${first.body.data.id}/cancel`, { method: 'POST' });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await inventory().available(hot.listingId)).toBe(1);
    const nextBuyer = await signedInClient('next-buyer');
    const next = await placeOrder(nextBuyer, hot.listingId, 1, await waitingRoomPass(nextBuyer, hot.sessionId));
    expect(next.status, next.text).toBe(200);
  });
  it('carries the after-write work in the object’s batch: the order’s message is claimed, no pass of its own, and the browser gets the batch’s bookmark', async () => {
    await env.DB.prepare('UPDATE listings SET quantity_available = 1, quantity_total = 1 WHERE id = ?1').bind(hot.listingId).run();
    await inventory().refresh({ sessionId: hot.sessionId, tierId: null });
    const buyers = [await signedInClient('hot-after-write'), await signedInClient('hot-after-write')];
    // Both read one ticket left; the object gives it to one of them and answers the other sold out.
    const ready = [];
    for (const buyer of buyers) {
      const pass = await waitingRoomPass(buyer, hot.sessionId);
      const quoted = await quote(buyer, hot.listingId, 1);
      expect(quoted.status, quoted.text).toBe(200);
      ready.push({ buyer, pass, total: quoted.body.data.cost.total });
    }
    const orders = await Promise.all(
      ready.map(({ buyer, pass, total }) =>
        countingRoundTrips(() => createOrder(buyer, hot.listingId, 1, total, { waitingRoomPass: pass })),
      ),
    );
    const placed = orders.find((order) => order.result.status === 200)!;
    const refused = orders.find((order) => order.result.status !== 200)!;
    expect(placed, orders.map((order) => order.result.text).join('\n')).toBeDefined();
    expect([refused.result.status, refused.result.body.errorCode]).toEqual([409, 'tickets_sold_out']);
    // Each request read the session with the order's rows, and nothing more: the object's batch wrote
    // the order and did the after-write work, and a sold-out answer wrote nothing of the buyer's.
    expect(orders.map((order) => order.roundTrips)).toEqual([1, 1]);
    const message = await env.DB.prepare(`SELECT enqueued_at AS enqueuedAt FROM messages WHERE order_id = ?1 AND kind = 'order_placed'`)
      .bind(placed.result.body.data.id)
      .first<{ enqueuedAt: number | null }>();
    expect(message?.enqueuedAt).not.toBeNull();
    const cookie = placed.result.headers.getSetCookie().find((line) => line.startsWith(`${REPLICA_BOOKMARK_COOKIE}=`));
    const bookmark = cookie?.split(';')[0].split('=')[1];
    expect(usableBookmark(bookmark)).toBe(bookmark);
  });
  it('still writes its holds when the after-write work in its batch fails, sending the batch again without it', async () => {
    await env.DB.prepare('UPDATE listings SET quantity_available = 1, quantity_total = 1 WHERE id = ?1').bind(hot.listingId).run();
    await inventory().refresh({ sessionId: hot.sessionId, tierId: null });
    const buyer = await signedInClient('hot-relay-down');
    const pass = await waitingRoomPass(buyer, hot.sessionId);
    const quoted = await quote(buyer, hot.listingId, 1);
    const setAside = (await inventory().deadLetters()).length;
    // The outbox claim, in the object's batch after the holds, fails.
    await env.DB.prepare(
      `CREATE TRIGGER relay_down BEFORE UPDATE OF enqueued_at ON messages BEGIN SELECT RAISE(ABORT, 'relay down'); END`,
    ).run();
    try {
      const placed = await createOrder(buyer, hot.listingId, 1, quoted.body.data.cost.total, { waitingRoomPass: pass });
      expect(placed.status, placed.text).toBe(200);
      const message = await env.DB.prepare(`SELECT enqueued_at AS enqueuedAt FROM messages WHERE order_id = ?1 AND kind = 'order_placed'`)
        .bind(placed.body.data.id)
        .first<{ enqueuedAt: number | null }>();
      // Written with its order, and left for the next pass (the sweep's, every minute).
      expect(message).toEqual({ enqueuedAt: null });
    } finally {
      await env.DB.prepare('DROP TRIGGER relay_down').run();
    }
    expect((await heldInD1(hot.listingId)).stock).toBe(0);
    // The hold was no poison: nothing was set aside.
    expect(await inventory().deadLetters()).toHaveLength(setAside);
  });
});
