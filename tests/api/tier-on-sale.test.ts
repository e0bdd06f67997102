/**
 * One ticket tier on sale as high demand of its own (docs/hot-on-sale.md "Per tier"): its
 * orders need its own room's pass, none of another tier's, the session's or another account's; the
 * session's other tiers sell without one; its holds go through its own inventory object, which never
 * oversells and loses no hold to a restart; a high-demand session still covers it.
 */
import { abortAllDurableObjects, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { PAYMENT_TIME_LIMIT_MS } from '../../src/lib/config/orders.ts';
import type { OnSale } from '../../src/lib/domain/on-sale.ts';
import type { HoldAnswer } from '../../src/lib/data/inventory-port.ts';
import { inventoryOf } from '../../src/lib/durable-objects/session-inventory.ts';
import { waitingRoom } from '../../src/lib/durable-objects/waiting-room.ts';
import type { TierHighDemandSwitch } from '../../src/lib/services/on-sale/high-demand.ts';
import { checkoutHoldStatement } from '../../src/lib/data/order-placement.ts';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import type { WaitingView } from '../../src/lib/services/on-sale/waiting-room.ts';
import { issuePass } from '../../src/lib/services/on-sale/waiting-room-pass.ts';
import { type TestClient, signedInClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import {
  eTicketSource,
  type ETicketSource,
  heldInD1,
  inventoryPlacement,
  placeOrder,
  showOfListing,
  storeUnwrittenHold,
  waitingRoomPass,
} from './shop.ts';

let show: ETicketSource;
let operator: TestClient;
let buyers: number[];
/** The source listing's own tier, sold normally throughout. */
let plainTier: number;
/** Two tiers of the same session, each on sale as high demand of its own. */
let vip: number;
let otherVip: number;

/** A new tier of the show's session, like its seeded one. */
async function newTier(name: string): Promise<number> {
  const row = await env.DB.prepare(
    `INSERT INTO ticket_tiers (session_id, name_en, name_zh_hant, name_zh_hans, face_value, currency, sort)
     SELECT session_id, ?2, ?2, ?2, face_value, currency, sort + 1 FROM ticket_tiers WHERE id = ?1 RETURNING id`,
  )
    .bind(plainTier, name)
    .first<{ id: number }>();
  return row!.id;
}

/** A new listing of `tierId` like the show's (same seller, price, delivery) with `stock` tickets. */
async function listingOf(tierId: number, stock: number): Promise<number> {
  const row = await env.DB.prepare(
    `INSERT INTO listings (tier_id, seller_id, price, currency, quantity_total, quantity_available, seating, delivery_types, status, created_at)
     SELECT ?2, seller_id, price, currency, ?3, ?3, seating, delivery_types, 'active', created_at FROM listings WHERE id = ?1 RETURNING id`,
  )
    .bind(show.listingId, tierId, stock)
    .first<{ id: number }>();
  return row!.id;
}

const onSale = (tierId: number | null): OnSale => ({ sessionId: show.sessionId, tierId });
const inventory = (tierId: number) => inventoryOf(env, onSale(tierId));

const switchTier = (tierId: number, highDemand: boolean, client = operator) =>
  client.post<TierHighDemandSwitch>(`/api/v1/operator/tiers/${tierId}/high-demand`, { highDemand });

const catalogueVersion = async () =>
  (await env.DB.prepare('SELECT version FROM catalogue_version WHERE id = 1').first<{ version: number }>())!.version;

const tierFlag = async (tierId: number) =>
  (await env.DB.prepare('SELECT high_demand AS on_ FROM ticket_tiers WHERE id = ?1').bind(tierId).first<{ on_: number }>())!.on_;

const joinRoom = (client: TestClient, tierId: number | null) =>
  client.post<WaitingView>(`/api/v1/waiting-rooms/${show.sessionId}${tierId === null ? '' : `?tier=${tierId}`}`, {});

/** A genuine pass of `claims`, signed as a room signs it, for the cases no room would give this buyer. */
const signedPass = (userId: number, tierId?: number) =>
  issuePass(env, {
    userId,
    sessionId: show.sessionId,
    ...(tierId === undefined ? {} : { tierId }),
    expiresAt: Date.now() + PAYMENT_TIME_LIMIT_MS,
  });

const userIdOf = (client: TestClient) => Number(client.cookies.get('pnid'));

const placedOrderNos = (answers: HoldAnswer[]) =>
  answers.flatMap((answer) => (answer.outcome === 'placed' ? [String(answer.order.order_no)] : [])).sort();

/** One buyer's order of one ticket of a VIP listing, as checkout hands it to the tier's object. */
const vipPlacement = async (listingId: number, buyer: number, key: string) =>
  inventoryPlacement(show, listingId, buyer, key, 1, await showOfListing(listingId));

beforeAll(async () => {
  await seed();
  show = await eTicketSource('first');
  plainTier = (await showOfListing(show.listingId)).tierId;
  vip = await newTier('VIP package');
  otherVip = await newTier('Backstage package');
  operator = await signedInClient('tier-operator');
  await env.DB.prepare("INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, 'operator', 0)").bind(userIdOf(operator)).run();
  const { results } = await env.DB.prepare('SELECT id FROM users WHERE id <> ?1 ORDER BY id LIMIT 20')
    .bind(show.sellerId)
    .all<{ id: number }>();
  buyers = results.map((row) => row.id);
});

describe('switching one tier’s high demand', () => {
  it('is for operators only, names a tier that exists, and writes the flag (and the catalogue version) once', async () => {
    const buyer = await signedInClient('tier-not-operator');
    expect((await switchTier(vip, true, buyer)).body.errorCode).toBe('not_staff');
    const missing = await switchTier(999_999, true);
    expect([missing.status, missing.body.errorCode]).toEqual([404, 'ticket_category_not_found']);
    expect(await tierFlag(vip)).toBe(0);

    const before = await catalogueVersion();
    for (let i = 0; i < 2; i++) {
      const on = await switchTier(vip, true);
      expect(on.body.data, on.text).toEqual({ tierId: vip, sessionId: show.sessionId, highDemand: true });
    }
    // The activity page's Buy of the tier now goes to its room: cached pages must go.
    expect(await catalogueVersion()).toBe(before + 1);
    expect((await switchTier(otherVip, true)).status).toBe(200);
    expect([await tierFlag(vip), await tierFlag(otherVip), await tierFlag(plainTier)]).toEqual([1, 1, 0]);
    const session = await env.DB.prepare('SELECT high_demand AS on_ FROM activity_sessions WHERE id = ?1')
      .bind(show.sessionId)
      .first<{ on_: number }>();
    expect(session!.on_).toBe(0);
  });
});

describe('the waiting rooms of a tier’s on-sale', () => {
  it('are one per high-demand tier, with one place per account in each; the plain tier and the session have none', async () => {
    const buyer = await signedInClient('tier-queue');
    const first = await joinRoom(buyer, vip);
    expect(first.status, first.text).toBe(200);
    expect([first.body.data.sessionId, first.body.data.tierId, first.body.data.tierName]).toEqual([show.sessionId, vip, 'VIP package']);
    // Nothing of the tier is on sale yet, however many tickets its session's other tier has: its line waits.
    expect(first.body.data.soldOut).toBe(true);
    const again = await joinRoom(buyer, vip);
    expect(again.body.data.position).toBe(first.body.data.position);
    const other = await joinRoom(buyer, otherVip);
    expect([other.status, other.body.data.tierId]).toEqual([200, otherVip]);

    for (const tier of [plainTier, null]) {
      const none = await joinRoom(buyer, tier);
      expect([none.status, none.body.errorCode]).toEqual([404, 'waiting_room_not_found']);
    }
    const front = await buyer.call<WaitingView>(`/api/v1/waiting-rooms/${show.sessionId}/front?tier=${vip}&position=1`);
    expect([front.status, front.body.data.tierId]).toEqual([200, vip]);
  });
});

describe('checkout of a tier on sale as high demand', () => {
  it('refuses an order of the tier without a pass, or with another tier’s, the session’s or another account’s, and takes its own', async () => {
    const listingId = await listingOf(vip, 10);
    const buyer = await signedInClient('vip-buyer');
    expect((await joinRoom(buyer, vip)).body.data.soldOut).toBe(false);
    const without = await placeOrder(buyer, listingId, 1);
    expect([without.status, without.body.errorCode]).toEqual([403, 'waiting_room_pass_required']);

    const someoneElse = await signedInClient('vip-someone-else');
    const refused = [
      await waitingRoomPass(buyer, show.sessionId, otherVip),
      await signedPass(userIdOf(buyer)),
      await waitingRoomPass(someoneElse, show.sessionId, vip),
    ];
    for (const pass of refused) {
      const answer = await placeOrder(buyer, listingId, 1, pass);
      expect([answer.status, answer.body.errorCode]).toEqual([403, 'waiting_room_pass_invalid']);
    }
    expect(await heldInD1(listingId)).toEqual({ stock: 10, orders: 0, held: 0 });

    const ordered = await placeOrder(buyer, listingId, 1, await waitingRoomPass(buyer, show.sessionId, vip));
    expect(ordered.status, ordered.text).toBe(200);
    expect(await heldInD1(listingId)).toEqual({ stock: 9, orders: 1, held: 1 });
    // Through the tier's own object, which now counts the listing; the session's never heard of it.
    expect(await inventory(vip).available(listingId)).toBe(9);
    expect(await inventoryOf(env, onSale(null)).available(listingId)).toBeNull();

    // A pass of the tier opens that tier only.
    const plainListing = await listingOf(plainTier, 5);
    const vipPass = await waitingRoomPass(buyer, show.sessionId, vip);
    const otherTierOrder = await placeOrder(buyer, await listingOf(otherVip, 5), 1, vipPass);
    expect(otherTierOrder.body.errorCode).toBe('waiting_room_pass_invalid');
    expect((await placeOrder(buyer, plainListing, 1, vipPass)).status).toBe(200);
  });

  it('lets an order of the session’s other tier through without a pass, on checkout’s own path', async () => {
    const listingId = await listingOf(plainTier, 5);
    const buyer = await signedInClient('plain-tier-buyer');
    const ordered = await placeOrder(buyer, listingId, 2);
    expect(ordered.status, ordered.text).toBe(200);
    expect(await heldInD1(listingId)).toEqual({ stock: 3, orders: 1, held: 2 });
    expect(await inventory(vip).available(listingId)).toBeNull();
  });

  it('a cancel gives the tier’s object its tickets back at once', async () => {
    const listingId = await listingOf(vip, 1);
    const buyer = await signedInClient('vip-canceller');
    const ordered = await placeOrder(buyer, listingId, 1, await waitingRoomPass(buyer, show.sessionId, vip));
    expect(ordered.status, ordered.text).toBe(200);
    expect(await inventory(vip).available(listingId)).toBe(0);
    const { id } = ordered.body.data as OrderDetail;
    const cancelled = await buyer.call(`/api/v1/orders/${id}/cancel`, { method: 'POST' });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await inventory(vip).available(listingId)).toBe(1);
  });
});

describe('the inventory object of a tier’s on-sale', () => {
  it('holds exactly 20 of 200 concurrent holds on 20 tickets, keeps them across an eviction, and D1 agrees', async () => {
    const listingId = await listingOf(vip, 20);
    const placements = await Promise.all(
      Array.from({ length: 200 }, (_, i) => vipPlacement(listingId, buyers[i % buyers.length], `tier-burst-${i}`)),
    );
    const answers = await Promise.all(placements.map((p) => inventory(vip).hold(p, onSale(vip))));
    expect(answers.filter((answer) => answer.outcome === 'placed')).toHaveLength(20);
    expect(answers.filter((answer) => answer.outcome === 'sold_out')).toHaveLength(180);
    expect(await heldInD1(listingId)).toEqual({ stock: 0, orders: 20, held: 20 });
    // Checkout's pace is reported to the tier's own room, which admits the tier's buyers.
    const reports = (room: OnSale) =>
      runInDurableObject(
        waitingRoom(env, room),
        (_instance, state) => state.storage.sql.exec('SELECT * FROM checkout_health').toArray().length,
      );
    await vi.waitFor(async () => expect(await reports(onSale(vip))).toBe(1));
    expect(await reports(onSale(null))).toBe(0);

    await evictDurableObject(inventory(vip));
    expect(await inventory(vip).available(listingId)).toBe(0);
    const retried = await Promise.all(placements.map((p) => inventory(vip).hold(p, onSale(vip))));
    expect(placedOrderNos(retried)).toEqual(placedOrderNos(answers));
    expect(await heldInD1(listingId)).toEqual({ stock: 0, orders: 20, held: 20 });
  });

  it('writes a hold it accepted but had not written when it crashed, once', async () => {
    const listingId = await listingOf(vip, 5);
    const warm = await vipPlacement(listingId, buyers[1], 'tier-warm');
    const accepted = await vipPlacement(listingId, buyers[2], 'tier-accepted');
    await inventory(vip).hold(warm, onSale(vip));
    await storeUnwrittenHold(inventory(vip), accepted);
    await abortAllDurableObjects();
    expect(await inventory(vip).available(listingId)).toBe(3);
    expect(await runDurableObjectAlarm(inventory(vip))).toBe(true);
    expect(await heldInD1(listingId)).toEqual({ stock: 3, orders: 2, held: 2 });
    const answer = await inventory(vip).hold(accepted, onSale(vip));
    expect(answer.outcome === 'placed' && answer.order.order_no).toBe(accepted.orderNo);
    expect(await heldInD1(listingId)).toEqual({ stock: 3, orders: 2, held: 2 });
  });

  it('is the only path that holds from the tier: checkout’s own hold takes nothing of it, and still takes the plain tier’s', async () => {
    const vipListing = await listingOf(vip, 3);
    const plainListing = await listingOf(plainTier, 3);
    const [vipHeld, plainHeld] = await env.DB.batch([
      checkoutHoldStatement(env.DB, await vipPlacement(vipListing, buyers[4], 'tier-plain-path')),
      checkoutHoldStatement(env.DB, await vipPlacement(plainListing, buyers[4], 'plain-tier-plain-path')),
    ]);
    expect([vipHeld.meta.changes, plainHeld.meta.changes]).toEqual([0, 1]);
    expect((await heldInD1(vipListing)).stock).toBe(3);
  });
});

describe('a tier’s on-sale switched off, and its session switched on', () => {
  it('off: the object writes its holds first, then the tier sells without a pass', async () => {
    const listingId = await listingOf(otherVip, 4);
    const buyer = await signedInClient('backstage-buyer');
    const ordered = await placeOrder(buyer, listingId, 1, await waitingRoomPass(buyer, show.sessionId, otherVip));
    expect(ordered.status, ordered.text).toBe(200);
    const off = await switchTier(otherVip, false);
    expect(off.body.data, off.text).toEqual({ tierId: otherVip, sessionId: show.sessionId, highDemand: false });
    expect(await tierFlag(otherVip)).toBe(0);
    const afterOff = await vipPlacement(listingId, buyers[3], 'after-off');
    expect(await inventory(otherVip).hold(afterOff, onSale(otherVip))).toEqual({ outcome: 'closed' });
    const plain = await placeOrder(buyer, listingId, 1);
    expect(plain.status, plain.text).toBe(200);
    expect(await heldInD1(listingId)).toEqual({ stock: 2, orders: 2, held: 2 });
    const room = await joinRoom(buyer, otherVip);
    expect(room.body.errorCode).toBe('waiting_room_not_found');
  });

  it('a high-demand session covers its high-demand tier: the session’s pass opens it, the tier’s no longer does', async () => {
    const listingId = await listingOf(vip, 3);
    const buyer = await signedInClient('covered-buyer');
    const tierPass = await waitingRoomPass(buyer, show.sessionId, vip);
    await env.DB.prepare('UPDATE activity_sessions SET high_demand = 1 WHERE id = ?1').bind(show.sessionId).run();
    const withTierPass = await placeOrder(buyer, listingId, 1, tierPass);
    expect(withTierPass.body.errorCode).toBe('waiting_room_pass_invalid');
    expect((await joinRoom(buyer, vip)).body.errorCode).toBe('waiting_room_not_found');
    const ordered = await placeOrder(buyer, listingId, 1, await waitingRoomPass(buyer, show.sessionId));
    expect(ordered.status, ordered.text).toBe(200);
    expect(await inventoryOf(env, onSale(null)).available(listingId)).toBe(2);
  });
});
