/**
 * An operator turns a session's high demand on and off: operators only; off only once
 * the session's inventory object has written every hold it keeps to D1, so no hold is lost, none is
 * held twice across the object's path and checkout's own, and plain checkout works afterwards.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessionInventory } from '../../src/lib/durable-objects/session-inventory.ts';
import type { HighDemandSwitch } from '../../src/lib/services/on-sale/high-demand.ts';
import { type TestClient, signedInClient } from './auth-client.ts';
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
  waitingRoomPass,
} from './shop.ts';

let show: ETicketSource;
let operator: TestClient;
let buyers: number[];

beforeAll(async () => {
  await seed();
  show = await eTicketSource('last');
  operator = await signedInClient('hd-operator');
  await env.DB.prepare("INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, 'operator', 0)")
    .bind(Number(operator.cookies.get('pnid')))
    .run();
  const { results } = await env.DB.prepare('SELECT id FROM users WHERE id <> ?1 ORDER BY id LIMIT 10')
    .bind(show.sellerId)
    .all<{ id: number }>();
  buyers = results.map((row) => row.id);
});

const switchTo = (highDemand: boolean, sessionId = show.sessionId, client = operator) =>
  client.post<HighDemandSwitch>(`/api/v1/operator/sessions/${sessionId}/high-demand`, { highDemand });

/** Switches off, asking again while the object answers that it still has holds to write. */
async function switchOff(): Promise<void> {
  for (;;) {
    const answer = await switchTo(false);
    if (answer.status === 200) return;
    expect(answer.body.errorCode, answer.text).toBe('high_demand_holds_unwritten');
  }
}

const flag = async () =>
  (await env.DB.prepare('SELECT high_demand AS on_ FROM activity_sessions WHERE id = ?1').bind(show.sessionId).first<{ on_: number }>())!
    .on_;

const listingOf = (stock: number) => clonedListing(show.listingId, stock);

/** One buyer's order of one ticket, as checkout hands it to the object. */
const placement = async (listingId: number, buyer: number, key: string) =>
  inventoryPlacement(show, listingId, buyer, key, 1, await showOfListing(listingId));

const inventory = () => sessionInventory(env, show.sessionId);

describe('switching a session’s high demand', () => {
  it('is for operators only, names a session that exists, and takes a boolean', async () => {
    const buyer = await signedInClient('hd-not-operator');
    expect((await switchTo(true, show.sessionId, buyer)).body).toMatchObject({ code: 403, errorCode: 'not_staff' });
    expect((await switchTo(true, 999_999)).body).toMatchObject({ code: 404, errorCode: 'session_not_found' });
    const malformed = await operator.post(`/api/v1/operator/sessions/${show.sessionId}/high-demand`, { highDemand: 'yes' });
    expect(malformed.status).toBe(400);
    expect(await flag()).toBe(0);
  });

  it('on, then off with holds the object has not written: every hold lands in D1 once, then plain checkout sells the rest', async () => {
    const listingId = await listingOf(4);
    for (let i = 0; i < 2; i++) expect((await switchTo(true)).body.data).toEqual({ sessionId: show.sessionId, highDemand: true });
    expect(await flag()).toBe(1);
    // One hold written through the object, three it accepted and has not written yet (its batch not begun).
    const written = await placement(listingId, buyers[0], 'hd-written');
    expect((await inventory().hold(written)).outcome).toBe('placed');
    const pending = await Promise.all(['hd-a', 'hd-b', 'hd-c'].map((key, i) => placement(listingId, buyers[i + 1], key)));
    await runInDurableObject(inventory(), (_instance, state) => {
      for (const p of pending)
        state.storage.sql.exec(
          `INSERT INTO holds (key, listing_id, quantity, state, order_no, request_hash, payment_deadline, placement)
           VALUES (?, ?, 1, 'unwritten', ?, ?, ?, ?)`,
          `${p.userId}:${p.idempotencyKey}`,
          listingId,
          p.orderNo,
          p.requestHash,
          p.paymentDeadline,
          JSON.stringify(p),
        );
    });
    expect(await inventory().available(listingId)).toBe(0);
    expect(await heldInD1(listingId)).toEqual({ stock: 3, orders: 1, held: 1 });

    expect((await switchTo(false)).body.data).toEqual({ sessionId: show.sessionId, highDemand: false });
    expect(await flag()).toBe(0);
    expect(await heldInD1(listingId)).toEqual({ stock: 0, orders: 4, held: 4 });
    // A retried request answers the same; a hold the object already took answers its order; a new one is refused.
    expect((await switchTo(false)).body.data).toEqual({ sessionId: show.sessionId, highDemand: false });
    const again = await inventory().hold(pending[0]);
    expect(again.outcome === 'placed' && again.order.order_no).toBe(pending[0].orderNo);
    expect(await inventory().hold(await placement(listingId, buyers[5], 'hd-late'))).toEqual({ outcome: 'closed' });
    expect(await heldInD1(listingId)).toEqual({ stock: 0, orders: 4, held: 4 });

    // Plain checkout, no pass: sold out here, and sells from another listing of the show.
    const buyer = await signedInClient('hd-plain-buyer');
    expect((await placeOrder(buyer, listingId, 1)).body.errorCode).toBe('tickets_sold_out');
    const other = await listingOf(2);
    const plain = await placeOrder(buyer, other, 1);
    expect(plain.status, plain.text).toBe(200);
    expect(await heldInD1(other)).toEqual({ stock: 1, orders: 1, held: 1 });

    // On again: the object holds from D1's stock as it is now (checkout's own path sold one meanwhile).
    expect((await switchTo(true)).status).toBe(200);
    const hot = await signedInClient('hd-hot-buyer');
    const held = await placeOrder(hot, other, 1, await waitingRoomPass(hot, show.sessionId));
    expect(held.status, held.text).toBe(200);
    expect(await inventory().available(other)).toBe(0);
    expect(await heldInD1(other)).toEqual({ stock: 0, orders: 2, held: 2 });
    await switchOff();
  });

  it('a hold racing the switch-off is written or refused, never lost or held twice', async () => {
    const stock = 12;
    const listingId = await listingOf(stock);
    expect((await switchTo(true)).status).toBe(200);
    const crowd = await Promise.all(Array.from({ length: 16 }, (_, i) => signedInClient(`hd-racer-${i}`)));
    const passes = await Promise.all(crowd.map((buyer) => waitingRoomPass(buyer, show.sessionId)));
    const total = (await quote(crowd[0], listingId, 1)).body.data.cost.total;
    const keys = crowd.map(() => newKey());
    const order = (i: number) => createOrder(crowd[i], listingId, 1, total, { waitingRoomPass: passes[i], idempotencyKey: keys[i] });
    const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    // Between the object closing and the flag flipping, a new hold is refused (try again), not lost.
    expect(await inventory().close({ sessionId: show.sessionId, tierId: null })).toEqual({ unwritten: 0 });
    expect((await order(0)).body).toMatchObject({ code: 409, errorCode: 'conflict' });
    expect(await heldInD1(listingId)).toEqual({ stock, orders: 0, held: 0 });
    expect((await switchTo(true)).status).toBe(200);

    // Orders arrive one every few milliseconds, the switch-off among them: some reach the object before
    // it closes, some while it writes, some after the flag is off.
    const [answers] = await Promise.all([Promise.all(crowd.map((_, i) => later(i * 4).then(() => order(i)))), later(20).then(switchOff)]);
    expect(await flag()).toBe(0);
    for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
    const placed = answers.filter((answer) => answer.status === 200);
    for (const answer of answers.filter((a) => a.status === 409)) expect(['conflict', 'tickets_sold_out']).toContain(answer.body.errorCode);
    // Every order a buyer was answered is in D1, and D1 holds nothing it did not answer.
    expect(await heldInD1(listingId)).toEqual({ stock: stock - placed.length, orders: placed.length, held: placed.length });

    // Each buyer asks again with the same key: the same order, or one through the plain path now; never more than the stock.
    const retried = await Promise.all(crowd.map((_, i) => order(i)));
    retried.forEach((answer, i) => {
      if (answers[i].status === 200) expect(answer.body.data.orderNo).toBe(answers[i].body.data.orderNo);
      else expect(answer.status === 200 || answer.body.errorCode === 'tickets_sold_out', answer.text).toBe(true);
    });
    expect(retried.filter((answer) => answer.status === 200)).toHaveLength(stock);
    expect(retried.filter((answer) => answer.status !== 200)).toHaveLength(crowd.length - stock);
    expect(await heldInD1(listingId)).toEqual({ stock: 0, orders: stock, held: stock });
  });
});
