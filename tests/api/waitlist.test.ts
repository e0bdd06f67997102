import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import type { CheckoutQuote, OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { expireOverdueOrders } from '../../src/lib/data/order-expiry.ts';
import { sweep } from '../../src/lib/services/platform/sweep.ts';
import { lapseOverdueOffers, offerReturnedTickets, type WaitlistEntryView } from '../../src/lib/services/on-sale/waitlist.ts';
import { sellerClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { createOrder, pay, placeOrder } from './shop.ts';

const db = () => database(env.DB);

interface Show {
  tierId: number;
  listingId: number;
  activityId: number;
}

let base: { listingId: number; activityId: number };
let userCount = 0;

/** A buyer signed in directly (sign-up has tests of its own): fifty of them would take long through the code flow. */
async function buyer(label: string): Promise<TestClient> {
  userCount += 1;
  const row = await env.DB.prepare(`INSERT INTO users (email, nickname, invite_code) VALUES (?1, ?2, ?3) RETURNING id`)
    .bind(`${label}${userCount}@waitlist.example`, `${label}${userCount}`, `WL${userCount}X${label.slice(0, 6)}`)
    .first<{ id: number }>();
  return sellerClient(row!.id);
}

/** A new tier of the base listing's session with one listing of `stock` e-tickets. */
async function newShow(stock: number): Promise<Show> {
  const tier = await env.DB.prepare(
    `INSERT INTO ticket_tiers (session_id, name_en, name_zh_hant, name_zh_hans, face_value, currency, sort)
     SELECT t.session_id, 'Waitlist tier', '候補票價區', '候补票档', t.face_value, t.currency, 99
     FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id WHERE l.id = ?1 RETURNING id`,
  )
    .bind(base.listingId)
    .first<{ id: number }>();
  const listing = await env.DB.prepare(
    `INSERT INTO listings (tier_id, seller_id, price, currency, quantity_total, quantity_available, seating, delivery_types, status, created_at)
     SELECT ?1, seller_id, price, currency, ?2, ?2, seating, 'e_ticket', 'active', created_at FROM listings WHERE id = ?3 RETURNING id`,
  )
    .bind(tier!.id, stock, base.listingId)
    .first<{ id: number }>();
  return { tierId: tier!.id, listingId: listing!.id, activityId: base.activityId };
}

async function stockOf(listingId: number): Promise<number> {
  const row = await env.DB.prepare('SELECT quantity_available AS n FROM listings WHERE id = ?').bind(listingId).first<{ n: number }>();
  return row!.n;
}

const join = (client: TestClient, tierId: number, quantity: number, headers: Record<string, string> = {}) =>
  client.call<WaitlistEntryView>('/api/v1/waitlist', { method: 'POST', body: { tierId, quantity }, headers });
const entries = (client: TestClient) => client.call<WaitlistEntryView[]>('/api/v1/waitlist');
const leave = (client: TestClient, id: number) => client.call(`/api/v1/waitlist/${id}`, { method: 'DELETE' });

/** An unpaid order that holds `quantity` tickets of the listing. */
async function hold(client: TestClient, listingId: number, quantity: number): Promise<number> {
  const placed = await placeOrder(client, listingId, quantity);
  expect(placed.status, placed.text).toBe(200);
  return (placed.body.data as OrderDetail).id;
}

async function buyWithOffer(client: TestClient, listingId: number, quantity: number, offerId: number) {
  const quoted = await client.call<CheckoutQuote>(
    `/api/v1/checkout/quote?listingId=${listingId}&quantity=${quantity}&deliveryType=e_ticket&coupon=none&waitlistOfferId=${offerId}`,
  );
  if (quoted.status !== 200) return quoted;
  return createOrder(client, listingId, quantity, quoted.body.data.cost.total, { waitlistOfferId: offerId });
}

interface OfferRow {
  id: number;
  entryId: number;
  userId: number;
  listingId: number;
  quantity: number;
  status: string;
  entryQuantity: number;
  messages: number;
}

async function offersOf(listingId: number): Promise<OfferRow[]> {
  const { results } = await env.DB.prepare(
    `SELECT o.id, o.entry_id AS entryId, o.user_id AS userId, o.listing_id AS listingId, o.quantity, o.status, e.quantity AS entryQuantity,
       (SELECT count(*) FROM messages m WHERE m.dedupe_key = 'waitlist_offer:' || o.id AND m.kind = 'waitlist_offer' AND m.user_id = o.user_id) AS messages
     FROM waitlist_offers o JOIN waitlist_entries e ON e.id = o.entry_id WHERE o.listing_id = ? ORDER BY o.id`,
  )
    .bind(listingId)
    .all<OfferRow>();
  return results;
}

async function entriesOf(tierId: number) {
  const { results } = await env.DB.prepare('SELECT id, quantity, status FROM waitlist_entries WHERE tier_id = ? ORDER BY id')
    .bind(tierId)
    .all<{ id: number; quantity: number; status: string }>();
  return results;
}

/** Deterministic shuffles and sizes, so a failure can be replayed. */
function random(seedValue: number) {
  let state = seedValue;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

beforeAll(async () => {
  await seed();
  const row = await env.DB.prepare(
    `SELECT l.id AS listingId, a.id AS activityId FROM listings l
     JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
     WHERE l.status = 'active' AND a.status IN (1, 4) AND a.sale_starts_at <= ?1 AND s.starts_at > ?1 + 86400000 AND a.real_name_required = 0
     ORDER BY l.id LIMIT 1`,
  )
    .bind(Date.now())
    .first<{ listingId: number; activityId: number }>();
  base = row!;
  // Groups of 1 to 4, as the test asks.
  await env.DB.prepare('UPDATE activities SET num_min = 1, num_max = 4 WHERE id = ?').bind(base.activityId).run();
});

describe('joining, the place in line and leaving', () => {
  it('keeps one entry per buyer and tier, in the order they joined', async () => {
    const show = await newShow(0);
    const [first, second] = [await buyer('first'), await buyer('second')];
    const joined = await join(first, show.tierId, 2);
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body.data).toMatchObject({
      tierId: show.tierId,
      quantity: 2,
      place: 1,
      status: 'waiting',
      offer: null,
      tier: 'Waitlist tier',
    });
    expect((await join(second, show.tierId, 1)).body.data.place).toBe(2);

    // Joining again changes the group and keeps the place.
    const again = await join(first, show.tierId, 3);
    expect(again.body.data).toMatchObject({ id: joined.body.data.id, quantity: 3, place: 1 });
    const listed = await entries(second);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({ place: 2, quantity: 1, activity: { id: show.activityId } });
    expect(listed.body.data[0].session.label).not.toBe('');

    const zh = await first.call<WaitlistEntryView[]>('/api/v1/waitlist', { headers: { language: 'zh-HK' } });
    expect(zh.body.data[0].tier).toBe('候補票價區');

    expect((await leave(first, joined.body.data.id)).status).toBe(200);
    expect((await entries(first)).body.data).toEqual([]);
    expect((await entries(second)).body.data[0].place).toBe(1);
    expect((await leave(first, joined.body.data.id)).body.errorCode).toBe('waitlist_entry_not_found');
  });

  it('answers only the owner: another buyer cannot leave for them', async () => {
    const show = await newShow(0);
    const [owner, other] = [await buyer('owner'), await buyer('other')];
    const joined = await join(owner, show.tierId, 1);
    const refused = await leave(other, joined.body.data.id);
    expect(refused.status).toBe(404);
    expect(refused.body.errorCode).toBe('waitlist_entry_not_found');
    expect((await entries(owner)).body.data).toHaveLength(1);
    expect((await entries(other)).body.data).toEqual([]);
  });

  it('refuses a tier with tickets for the group, bad group sizes, unknown tiers and visitors, in the caller’s language', async () => {
    const show = await newShow(2);
    const client = await buyer('refused');
    const available = await join(client, show.tierId, 2);
    expect(available.status).toBe(409);
    expect(available.body.errorCode).toBe('waitlist_tickets_available');
    expect(available.body.message).toMatch(/buy them now/);
    const zh = await join(client, show.tierId, 1, { language: 'zh-CN' });
    expect(zh.body.message).toBe('目前有足够门票：请直接购买，无须候补。');
    // A group bigger than what is left may wait.
    expect((await join(client, show.tierId, 3)).status).toBe(200);

    const tooMany = await join(client, show.tierId, 5);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ errorCode: 'quantity_out_of_range', field: 'quantity' });
    expect((await join(client, 9_999_999, 1)).status).toBe(404);
    const badBody = await client.call('/api/v1/waitlist', { method: 'POST', body: { tierId: show.tierId, quantity: 'two' } });
    expect(badBody.status).toBe(400);
    expect((await new TestClient().call('/api/v1/waitlist')).status).toBe(401);
    expect((await join(new TestClient(), show.tierId, 1)).status).toBe(401);
  });
});

describe('offers', () => {
  it('offers returned tickets to the first group that fits, holds them, and checkout claims them once', async () => {
    const show = await newShow(3);
    const holder = await buyer('holder');
    const holdId = await hold(holder, show.listingId, 3);
    const [big, small, direct, stranger] = [await buyer('big'), await buyer('small'), await buyer('direct'), await buyer('stranger')];
    await join(big, show.tierId, 4);
    await join(small, show.tierId, 2);

    // The holder cancels: 3 come back, the group of 4 does not fit, the group of 2 gets an offer; 1 is left.
    expect((await holder.call(`/api/v1/orders/${holdId}/cancel`, { method: 'POST' })).status).toBe(200);
    expect(await stockOf(show.listingId)).toBe(1);
    const [offer] = await offersOf(show.listingId);
    expect(offer).toMatchObject({ quantity: 2, entryQuantity: 2, status: 'open', messages: 1 });
    const message = await env.DB.prepare(
      `SELECT m.channel, m.target, m.payload, m.status, u.email FROM messages m JOIN users u ON u.id = m.user_id WHERE m.dedupe_key = ?`,
    )
      .bind(`waitlist_offer:${offer.id}`)
      .first<{ channel: string; target: string; payload: string; status: string; email: string }>();
    expect(message).toMatchObject({ channel: 'email', target: message!.email, status: 'pending' });
    expect(JSON.parse(message!.payload)).toEqual({ offerId: offer.id });

    const mine = (await entries(small)).body.data[0];
    expect(mine).toMatchObject({ status: 'offered', place: null, offer: { id: offer.id, quantity: 2 } });
    expect(mine.offer!.checkoutPath).toBe(`/en/order/confirm?listingId=${show.listingId}&quantity=2&offer=${offer.id}`);
    expect(mine.offer!.expiresAt).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect((await entries(big)).body.data[0].place).toBe(1);

    // Someone else cannot use the offer; the owner cannot use it for another quantity.
    const foreign = await buyWithOffer(stranger, show.listingId, 2, offer.id);
    expect(foreign.status).toBe(409);
    expect(foreign.body.errorCode).toBe('waitlist_offer_unavailable');
    expect((await buyWithOffer(small, show.listingId, 1, offer.id)).body.errorCode).toBe('waitlist_offer_unavailable');

    const bought = await buyWithOffer(small, show.listingId, 2, offer.id);
    expect(bought.status, bought.text).toBe(200);
    expect(bought.body.data).toMatchObject({ quantity: 2, status: 'pending_payment' });
    expect(await stockOf(show.listingId)).toBe(1);
    const [claimed] = await offersOf(show.listingId);
    expect(claimed.status).toBe('claimed');
    const link = await env.DB.prepare('SELECT order_id AS orderId FROM waitlist_offers WHERE id = ?')
      .bind(offer.id)
      .first<{ orderId: number }>();
    expect(link!.orderId).toBe((bought.body.data as OrderDetail).id);
    expect((await entries(small)).body.data).toEqual([]);

    const twice = await buyWithOffer(small, show.listingId, 2, offer.id);
    expect(twice.body.errorCode).toBe('waitlist_offer_unavailable');
    const twiceCreate = await createOrder(small, show.listingId, 2, 1, { waitlistOfferId: offer.id });
    expect(twiceCreate.body.errorCode).toBe('waitlist_offer_unavailable');

    // The one ticket left is bought directly: no waiting group fits it.
    expect((await placeOrder(direct, show.listingId, 1)).status).toBe(200);
    expect(await stockOf(show.listingId)).toBe(0);
  });

  it('keeps returned tickets that a waiting group fits from a direct buyer', async () => {
    const show = await newShow(2);
    const holder = await buyer('holder');
    const holdId = await hold(holder, show.listingId, 2);
    const waiting = await buyer('waiting');
    await join(waiting, show.tierId, 2);
    // Returned without an offer pass yet (as a lazy expiry on read does).
    await env.DB.prepare('UPDATE orders SET payment_deadline = ? WHERE id = ?')
      .bind(Date.now() - 1, holdId)
      .run();
    await expireOverdueOrders(db(), Date.now());
    expect(await stockOf(show.listingId)).toBe(2);

    const direct = await buyer('direct');
    const refused = await placeOrder(direct, show.listingId, 2);
    expect(refused.status).toBe(409);
    expect(refused.body.errorCode).toBe('tickets_sold_out');
    // The pass that follows every write (services/platform/after-write.ts), the refused one's too, offered them to the line.
    expect((await entries(waiting)).body.data[0].status).toBe('offered');
    expect(await stockOf(show.listingId)).toBe(0);
  });

  it('passes an offer on when its buyer leaves or its hold runs out', async () => {
    const show = await newShow(2);
    const holder = await buyer('holder');
    const holdId = await hold(holder, show.listingId, 2);
    const [first, second, third] = [await buyer('first'), await buyer('second'), await buyer('third')];
    const firstEntry = (await join(first, show.tierId, 2)).body.data;
    await join(second, show.tierId, 2);
    await join(third, show.tierId, 1);
    await holder.call(`/api/v1/orders/${holdId}/cancel`, { method: 'POST' });
    expect((await entries(first)).body.data[0].status).toBe('offered');

    // Leaving withdraws the offer: the tickets pass to the second group.
    expect((await leave(first, firstEntry.id)).status).toBe(200);
    expect((await entries(first)).body.data).toEqual([]);
    const secondView = (await entries(second)).body.data[0];
    expect(secondView.status).toBe('offered');
    expect(await stockOf(show.listingId)).toBe(0);

    // Its hold runs out: the sweep lapses it and offers the tickets on.
    await env.DB.prepare('UPDATE waitlist_offers SET expires_at = ? WHERE id = ?')
      .bind(Date.now() - 1, secondView.offer!.id)
      .run();
    const expired = await buyWithOffer(second, show.listingId, 2, secondView.offer!.id);
    expect(expired.body.errorCode).toBe('waitlist_offer_unavailable');
    expect((await sweep(db(), env, env.MESSAGES, Date.now())).waitlistOffers).toBeGreaterThanOrEqual(1);
    expect((await entries(second)).body.data).toEqual([]);
    expect((await entries(third)).body.data[0]).toMatchObject({ status: 'offered', offer: { quantity: 1 } });
    expect(await stockOf(show.listingId)).toBe(1);
    const statuses = (await offersOf(show.listingId)).map((offer) => offer.status);
    expect(statuses).toEqual(['withdrawn', 'lapsed', 'open']);
    expect((await entriesOf(show.tierId)).map((entry) => entry.status)).toEqual(['left', 'lapsed', 'offered']);
  });

  it('gives the tickets of a cancelled claimed order back to the line', async () => {
    const show = await newShow(2);
    const holder = await buyer('holder');
    const holdId = await hold(holder, show.listingId, 2);
    const [claimer, next] = [await buyer('claimer'), await buyer('next')];
    await join(claimer, show.tierId, 2);
    await join(next, show.tierId, 2);
    await holder.call(`/api/v1/orders/${holdId}/cancel`, { method: 'POST' });
    const offer = (await entries(claimer)).body.data[0].offer!;
    const bought = await buyWithOffer(claimer, show.listingId, 2, offer.id);
    expect(bought.status, bought.text).toBe(200);
    await claimer.call(`/api/v1/orders/${(bought.body.data as OrderDetail).id}/cancel`, { method: 'POST' });
    expect((await entries(next)).body.data[0].status).toBe('offered');
    expect(await stockOf(show.listingId)).toBe(0);
  });

  it('offers the tickets of a new resale listing to the waiting group, which buys them there', async () => {
    const show = await newShow(2);
    const reseller = await buyer('reseller');
    const orderId = await hold(reseller, show.listingId, 2);
    await pay(reseller, orderId);
    const tier = await env.DB.prepare(
      `SELECT l.seller_id AS sellerId, t.face_value AS faceValue, t.currency FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id WHERE l.id = ?`,
    )
      .bind(show.listingId)
      .first<{ sellerId: number; faceValue: number; currency: string }>();
    const issued = await (await sellerClient(tier!.sellerId)).post(`/api/v1/seller/orders/${orderId}/fulfil`, { method: 'e_ticket' });
    expect(issued.status, issued.text).toBe(200);
    const [waiting, direct] = [await buyer('resale-wait'), await buyer('resale-direct')];
    expect((await join(waiting, show.tierId, 2)).status).toBe(200);

    // The holder resells both tickets: a new listing of the tier, held for the waiting group by the pass after the write.
    const listed = await reseller.call<{ id: number }>(`/api/v1/orders/${orderId}/transfer-listings`, {
      method: 'POST',
      body: { quantity: 2, price: tier!.faceValue, currency: tier!.currency, acceptAgreement: true },
    });
    expect(listed.status, listed.text).toBe(200);
    const resale = listed.body.data.id;
    const view = (await entries(waiting)).body.data[0];
    expect(view).toMatchObject({ status: 'offered', offer: { quantity: 2 } });
    expect(view.offer!.checkoutPath).toBe(`/en/order/confirm?listingId=${resale}&quantity=2&offer=${view.offer!.id}`);
    expect(await stockOf(resale)).toBe(0);
    expect((await placeOrder(direct, resale, 2)).body.errorCode).toBe('tickets_sold_out');

    const bought = await buyWithOffer(waiting, resale, 2, view.offer!.id);
    expect(bought.status, bought.text).toBe(200);
    expect(bought.body.data).toMatchObject({ quantity: 2, status: 'pending_payment' });
    expect((await offersOf(resale)).map((offer) => offer.status)).toEqual(['claimed']);
  });
});

describe('the offer pass under concurrency', () => {
  it('lets racing claims of one offer make one order', async () => {
    const show = await newShow(2);
    const holder = await buyer('holder');
    const holdId = await hold(holder, show.listingId, 2);
    const claimer = await buyer('racer');
    await join(claimer, show.tierId, 2);
    await holder.call(`/api/v1/orders/${holdId}/cancel`, { method: 'POST' });
    const offer = (await entries(claimer)).body.data[0].offer!;
    const quoted = await claimer.call<CheckoutQuote>(
      `/api/v1/checkout/quote?listingId=${show.listingId}&quantity=2&deliveryType=e_ticket&coupon=none&waitlistOfferId=${offer.id}`,
    );
    const answers = await Promise.all(
      [1, 2, 3].map(() => createOrder(claimer, show.listingId, 2, quoted.body.data.cost.total, { waitlistOfferId: offer.id })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    const orders = await env.DB.prepare(`SELECT count(*) AS n FROM orders WHERE listing_id = ? AND status = 'pending_payment'`)
      .bind(show.listingId)
      .first<{ n: number }>();
    expect(orders!.n).toBe(1);
    expect(await stockOf(show.listingId)).toBe(0);
  });

  it('offers in queue order to the first group that fits, never split, never the same tickets twice', async () => {
    const rand = random(18);
    const show = await newShow(40);
    // Holders take all 40 tickets with unpaid orders of 1-4, two orders each at most, within an account's unpaid limit.
    const holders = [];
    for (let index = 0; index < 12; index += 1) holders.push(await buyer(`holder${index}`));
    const held: { id: number; quantity: number }[] = [];
    let left = 40;
    while (left > 0) {
      const quantity = Math.min(left, 1 + Math.floor(rand() * 4));
      held.push({ id: await hold(holders[held.length % holders.length], show.listingId, quantity), quantity });
      left -= quantity;
    }
    expect(await stockOf(show.listingId)).toBe(0);

    const waiting: { client: TestClient; quantity: number }[] = [];
    for (let index = 0; index < 50; index += 1) {
      const client = await buyer('queue');
      const quantity = 1 + Math.floor(rand() * 4);
      const joined = await join(client, show.tierId, quantity);
      expect(joined.status, joined.text).toBe(200);
      waiting.push({ client, quantity });
    }

    /** What must hold after every step: the freed tickets are exactly the stock plus the open offers. */
    async function check(freed: number) {
      const offers = await offersOf(show.listingId);
      const stock = await stockOf(show.listingId);
      const open = offers.filter((offer) => offer.status === 'open');
      expect(stock).toBeGreaterThanOrEqual(0);
      expect(stock + open.reduce((sum, offer) => sum + offer.quantity, 0)).toBe(freed);
      for (const offer of offers) {
        expect(offer.quantity).toBe(offer.entryQuantity);
        expect(offer.messages).toBe(1);
      }
      const queue = await entriesOf(show.tierId);
      const offerOf = new Map(offers.map((offer) => [offer.entryId, offer.id]));
      for (const offer of offers) {
        // Every group ahead that was still waiting when this offer was made must not have fitted it.
        for (const ahead of queue.filter((entry) => entry.id < offer.entryId)) {
          const waitedThen = ahead.status === 'waiting' || (offerOf.get(ahead.id) ?? 0) > offer.id;
          if (waitedThen) expect(ahead.quantity, `entry ${ahead.id} skipped by offer ${offer.id}`).toBeGreaterThan(offer.quantity);
        }
      }
      // The passes ran to the end: no group still waiting fits what is left.
      for (const entry of queue.filter((row) => row.status === 'waiting')) expect(entry.quantity).toBeGreaterThan(stock);
      return offers;
    }

    // Orders close in random order, in rounds, with several passes racing each round.
    const order = held.map((_, index) => index).sort(() => rand() - 0.5);
    let freed = 0;
    while (order.length > 0) {
      const round = order.splice(0, 1 + Math.floor(rand() * 4));
      const now = Date.now();
      await env.DB.prepare(`UPDATE orders SET payment_deadline = ?1 WHERE id IN (${round.map((index) => held[index].id).join(',')})`)
        .bind(now - 1)
        .run();
      await Promise.all([
        expireOverdueOrders(db(), now),
        offerReturnedTickets(db(), now),
        offerReturnedTickets(db(), now),
        offerReturnedTickets(db(), now),
      ]);
      await offerReturnedTickets(db(), now);
      freed += round.reduce((sum, index) => sum + held[index].quantity, 0);
      await check(freed);
    }
    const offers = await check(40);
    expect(offers.length).toBeGreaterThan(10);

    // Half of the open offers run out: they lapse and pass on, while passes race.
    const open = offers.filter((offer) => offer.status === 'open');
    const lapsing = open.filter((_, index) => index % 2 === 0).map((offer) => offer.id);
    await env.DB.prepare(`UPDATE waitlist_offers SET expires_at = ?1 WHERE id IN (${lapsing.join(',')})`)
      .bind(Date.now() - 1)
      .run();
    const now = Date.now();
    await Promise.all([
      lapseOverdueOffers(db(), now),
      offerReturnedTickets(db(), now),
      lapseOverdueOffers(db(), now),
      offerReturnedTickets(db(), now),
    ]);
    await offerReturnedTickets(db(), now);
    const after = await check(40);
    for (const id of lapsing) expect(after.find((offer) => offer.id === id)!.status).toBe('lapsed');
    expect(after.length).toBeGreaterThan(offers.length);
  });
});
