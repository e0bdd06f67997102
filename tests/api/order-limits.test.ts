/**
 * What one account may order (security review, domain/order-limits.ts): a waiting-room pass buys one
 * order, returned when that order lapses unpaid; an account buys at most its session's cap of
 * tickets; it holds at most so many unpaid tickets, in all and of one listing. On checkout's own D1
 * path and through a high-demand session's inventory object, also for orders racing each other.
 */
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TICKET_CAP, UNPAID_HOLD_LIMITS } from '../../src/lib/config/orders.ts';
import { sessionInventory } from '../../src/lib/durable-objects/session-inventory.ts';
import { checkoutHoldStatement, inventoryHoldStatement, placementRun } from '../../src/lib/data/order-placement.ts';
import type { ActivityDetail } from '../../src/lib/services/catalogue/activity-detail.ts';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { signUp, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import {
  clonedListing,
  createOrder,
  type ETicketSource,
  eTicketSource,
  heldInD1,
  inventoryPlacement,
  newKey,
  pay,
  quote,
  showOfListing,
  waitingRoomPass,
} from './shop.ts';

let buyers = 0;
async function buyer(): Promise<{ client: TestClient; userId: number }> {
  const client = new TestClient();
  buyers += 1;
  return { client, userId: await signUp(client, `limits${buyers}@example.com`) };
}

/** Orders `quantity` tickets at the quoted total, with the pass when given, under its own key unless one is given. */
async function order(
  client: TestClient,
  listingId: number,
  quantity: number,
  options: { pass?: string; key?: string; language?: string } = {},
) {
  const quoted = await quote(client, listingId, quantity);
  expect(quoted.status, quoted.text).toBe(200);
  return createOrder(client, listingId, quantity, quoted.body.data.cost.total, {
    waitingRoomPass: options.pass,
    idempotencyKey: options.key ?? newKey(),
    language: options.language,
  });
}

/** Lets a session's orders be up to 8 tickets, so the limits, not the per-order range, are what a test meets. */
async function upToEightAnOrder(source: ETicketSource): Promise<void> {
  await env.DB.prepare('UPDATE activities SET num_max = 8 WHERE id = (SELECT activity_id FROM activity_sessions WHERE id = ?1)')
    .bind(source.sessionId)
    .run();
}

async function setCap(source: ETicketSource, cap: number | null): Promise<void> {
  await env.DB.prepare('UPDATE activity_sessions SET account_ticket_cap = ?2 WHERE id = ?1').bind(source.sessionId, cap).run();
}

/** Marks the session high demand; its room lets nobody through by itself (waitingRoomPass lets the buyer through). */
async function highDemand(source: ETicketSource): Promise<void> {
  await env.DB.prepare('UPDATE activity_sessions SET high_demand = 1 WHERE id = ?').bind(source.sessionId).run();
  const stopped = await new TestClient().post(`/api/v1/dev/waiting-rooms/${source.sessionId}`, { admissionsPerMinute: 0 });
  expect(stopped.status, stopped.text).toBe(200);
}

const endPaymentTime = (client: TestClient, orderId: number) =>
  client.post<OrderDetail>(`/api/v1/dev/orders/${orderId}/end-payment-time`, {});

let plain: ETicketSource;
let other: ETicketSource;
let hot: ETicketSource;

beforeAll(async () => {
  await seed();
  plain = await eTicketSource('first');
  hot = await eTicketSource('last', [plain]);
  other = await eTicketSource('first', [plain, hot]);
  for (const source of [plain, other, hot]) {
    await upToEightAnOrder(source);
    await setCap(source, null);
  }
  await highDemand(hot);
});

describe('a waiting-room pass', () => {
  it('buys one order: a second is refused, a retry of the first answers the same order', async () => {
    const { client } = await buyer();
    const pass = await waitingRoomPass(client, hot.sessionId);
    const key = newKey();
    const bought = await order(client, hot.listingId, 2, { pass, key });
    expect(bought.status, bought.text).toBe(200);

    const again = await order(client, hot.listingId, 1, { pass });
    expect(again.status).toBe(403);
    expect(again.body).toMatchObject({ code: 403, data: null, errorCode: 'waiting_room_pass_used' });
    const inChinese = await order(client, hot.listingId, 1, { pass, language: 'zh-HK' });
    expect(inChinese.body.message).toContain('重新排隊');

    const retried = await order(client, hot.listingId, 2, { pass, key });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.data.id).toBe(bought.body.data.id);
  });

  it('comes back when its order lapses unpaid or is cancelled, and buys again', async () => {
    const { client } = await buyer();
    const pass = await waitingRoomPass(client, hot.sessionId);
    const first = await order(client, hot.listingId, 1, { pass });
    expect(first.status, first.text).toBe(200);
    expect((await endPaymentTime(client, first.body.data.id)).body.data).toMatchObject({ status: 'cancelled' });

    const second = await order(client, hot.listingId, 1, { pass });
    expect(second.status, second.text).toBe(200);
    expect((await order(client, hot.listingId, 1, { pass })).body.errorCode).toBe('waiting_room_pass_used');
    expect((await client.post(`/api/v1/orders/${second.body.data.id}/cancel`, {})).status).toBe(200);

    const third = await order(client, hot.listingId, 1, { pass });
    expect(third.status, third.text).toBe(200);
  });

  it('stays spent once its order is paid', async () => {
    const { client } = await buyer();
    const pass = await waitingRoomPass(client, hot.sessionId);
    const bought = await order(client, hot.listingId, 1, { pass });
    await pay(client, bought.body.data.id);
    expect((await order(client, hot.listingId, 1, { pass })).body.errorCode).toBe('waiting_room_pass_used');
  });

  it('buys one order of several sent at once', async () => {
    const { client } = await buyer();
    const pass = await waitingRoomPass(client, hot.sessionId);
    const quoted = await quote(client, hot.listingId, 1);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => createOrder(client, hot.listingId, 1, quoted.body.data.cost.total, { waitingRoomPass: pass })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.errorCode === 'waiting_room_pass_used')).toHaveLength(3);
  });

  it('spent by an order the inventory object did not know of, is refused when D1 writes the hold', async () => {
    const { userId } = await buyer();
    const listingId = await clonedListing(hot.listingId, 10);
    const show = await showOfListing(listingId);
    const withPass = (key: string) => ({
      ...inventoryPlacement(hot, listingId, userId, key, 1, show),
      waitingRoomPass: `pass-of-${userId}`,
    });
    // An order with the pass reached D1 after checkout read the account (another path, or a flush since).
    const written = withPass('written-first');
    await env.DB.batch([inventoryHoldStatement(env.DB, written), ...placementRun(env.DB, written)]);
    const answer = await sessionInventory(env, hot.sessionId).hold(withPass('object-second'));
    expect(answer).toEqual({ outcome: 'refused', refusal: { code: 'waiting_room_pass_used', params: {} } });
    expect(await heldInD1(listingId)).toEqual({ stock: 9, orders: 1, held: 1 });
  });

  it('is spent by checkout’s own D1 write too: a second order with it holds nothing', async () => {
    const { userId } = await buyer();
    const listingId = await clonedListing(plain.listingId, 10);
    const show = await showOfListing(listingId);
    const withPass = (key: string) => ({
      ...inventoryPlacement(plain, listingId, userId, key, 1, show),
      waitingRoomPass: `pass-of-${userId}`,
    });
    for (const placement of [withPass('d1-first'), withPass('d1-second')])
      await env.DB.batch([checkoutHoldStatement(env.DB, placement), ...placementRun(env.DB, placement)]);
    expect(await heldInD1(listingId)).toEqual({ stock: 9, orders: 1, held: 1 });
  });
});

describe('an account’s ticket cap per session', () => {
  it('counts paid and unpaid orders of the session, on checkout’s own path, and names the cap', async () => {
    await setCap(plain, 3);
    const { client } = await buyer();
    const first = await order(client, plain.listingId, 2);
    expect(first.status, first.text).toBe(200);
    await pay(client, first.body.data.id);

    const over = await order(client, plain.listingId, 2);
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 409, errorCode: 'account_ticket_cap', message: expect.stringContaining('3') });
    expect((await order(client, plain.listingId, 2, { language: 'zh-CN' })).body.message).toContain('3');
    expect((await order(client, plain.listingId, 1)).status).toBe(200);
    expect((await order(client, plain.listingId, 1)).body.errorCode).toBe('account_ticket_cap');
    await setCap(plain, null);
  });

  it('is told with the activity, for the ticket picker to show before a quantity is chosen', async () => {
    await setCap(plain, 3);
    const { activityId } = await showOfListing(plain.listingId);
    const capOf = async (source: ETicketSource) => {
      const detail = await new TestClient().call<ActivityDetail>(`/api/activity/${activityId}`);
      return detail.body.data.sessions.find((session) => session.id === source.sessionId)?.accountTicketCap;
    };
    expect(await capOf(plain)).toBe(3);
    await setCap(plain, null);
    expect(await capOf(plain)).toBe(ACCOUNT_TICKET_CAP);
  });

  it('is the default when the session sets none', async () => {
    await setCap(other, null);
    const { client } = await buyer();
    const bought = await order(client, other.listingId, 8);
    expect(bought.status, bought.text).toBe(200);
    await pay(client, bought.body.data.id);
    const over = await order(client, other.listingId, 1);
    expect(over.body).toMatchObject({ errorCode: 'account_ticket_cap', message: expect.stringContaining(String(ACCOUNT_TICKET_CAP)) });
  });

  it('holds a high-demand session’s buyer, counting what they bought before it was', async () => {
    const session = await eTicketSource('last', [plain, other, hot]);
    await upToEightAnOrder(session);
    await setCap(session, 3);
    const { client } = await buyer();
    expect((await order(client, session.listingId, 2)).status).toBe(200);
    await highDemand(session);
    const pass = await waitingRoomPass(client, session.sessionId);

    const over = await order(client, session.listingId, 2, { pass });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ errorCode: 'account_ticket_cap', message: expect.stringContaining('3') });
    // The refused order spent no pass.
    expect((await order(client, session.listingId, 1, { pass })).status).toBe(200);
  });

  it('is kept by the inventory object across holds it has not written yet', async () => {
    const { userId } = await buyer();
    const listingId = await clonedListing(hot.listingId, 20);
    const show = await showOfListing(listingId);
    const limits = { accountTicketCap: 3, unpaidTicketLimit: 20, listingUnpaidLimit: 20 };
    const placements = ['a', 'b', 'c'].map((key) => ({ ...inventoryPlacement(hot, listingId, userId, `cap-${key}`, 2, show), limits }));
    const answers = await Promise.all(placements.map((placement) => sessionInventory(env, hot.sessionId).hold(placement)));
    expect(answers.filter((answer) => answer.outcome === 'placed')).toHaveLength(1);
    expect(answers.filter((answer) => answer.outcome === 'refused')).toEqual([
      { outcome: 'refused', refusal: { code: 'account_ticket_cap', params: { cap: 3 } } },
      { outcome: 'refused', refusal: { code: 'account_ticket_cap', params: { cap: 3 } } },
    ]);
    expect(await heldInD1(listingId)).toEqual({ stock: 18, orders: 1, held: 2 });
  });
});

describe('the unpaid hold limits', () => {
  // A 12-ticket listing's two orders of 6 would meet the session's default cap first.
  beforeAll(() => setCap(plain, 20));
  afterAll(() => setCap(plain, null));

  it('keep one account from holding more than its share of a listing, and leave the rest to others', async () => {
    const listingId = await clonedListing(plain.listingId, 12);
    const { client } = await buyer();
    const first = await order(client, listingId, 6);
    expect(first.status, first.text).toBe(200);

    const second = await order(client, listingId, 6);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ errorCode: 'listing_hold_limit', message: expect.stringContaining('6') });
    expect((await order(client, listingId, 1, { language: 'zh-HK' })).body.message).toContain('6');
    expect((await order((await buyer()).client, listingId, 6)).status).toBe(200);

    // Paid, the share is free again for the account (within its cap).
    await pay(client, first.body.data.id);
    const listingOf12 = await clonedListing(plain.listingId, 12);
    expect((await order(client, listingOf12, 2)).status).toBe(200);
  });

  it('let one account hold only so many unpaid tickets across listings, until it pays or cancels', async () => {
    const { client } = await buyer();
    const first = await order(client, plain.listingId, 6);
    expect(first.status, first.text).toBe(200);
    const over = await order(client, other.listingId, 3);
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({
      errorCode: 'unpaid_ticket_limit',
      message: expect.stringContaining(String(UNPAID_HOLD_LIMITS.accountTickets)),
    });
    expect((await order(client, other.listingId, 2)).status).toBe(200);
    expect((await client.post(`/api/v1/orders/${first.body.data.id}/cancel`, {})).status).toBe(200);
    expect((await order(client, other.listingId, 3)).status).toBe(200);
  });

  it('hold two orders sent at once: one account never holds a 12-ticket listing whole', async () => {
    const listingId = await clonedListing(plain.listingId, 12);
    const { client } = await buyer();
    const quoted = await quote(client, listingId, 6);
    const answers = await Promise.all([1, 2].map(() => createOrder(client, listingId, 6, quoted.body.data.cost.total)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.errorCode).toBe('listing_hold_limit');
    expect(await heldInD1(listingId)).toEqual({ stock: 6, orders: 1, held: 6 });
  });

  it('answer retries of one request sent at once with its one order, on both paths', async () => {
    const listingId = await clonedListing(plain.listingId, 12);
    const { client } = await buyer();
    const quoted = await quote(client, listingId, 6);
    const key = newKey();
    const answers = await Promise.all(
      [1, 2, 3].map(() => createOrder(client, listingId, 6, quoted.body.data.cost.total, { idempotencyKey: key })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);

    const pass = await waitingRoomPass(client, hot.sessionId);
    const hotQuote = await quote(client, hot.listingId, 1);
    const hotKey = newKey();
    const hotAnswers = await Promise.all(
      [1, 2, 3].map(() =>
        createOrder(client, hot.listingId, 1, hotQuote.body.data.cost.total, { waitingRoomPass: pass, idempotencyKey: hotKey }),
      ),
    );
    expect(hotAnswers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(new Set(hotAnswers.map((answer) => answer.body.data.id)).size).toBe(1);
  });

  it('hold a high-demand session’s buyer too', async () => {
    const listingId = await clonedListing(hot.listingId, 12);
    const { client } = await buyer();
    const pass = await waitingRoomPass(client, hot.sessionId);
    const over = await order(client, listingId, 7, { pass });
    expect(over.status).toBe(409);
    expect(over.body.errorCode).toBe('listing_hold_limit');
    expect((await order(client, listingId, 6, { pass })).status).toBe(200);
  });
});
