import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { convert, formatMoney } from '../../src/lib/domain/money.ts';
import { allInAmount } from '../../src/lib/domain/pricing.ts';
import type { ActivityDetail, TicketCategoryView } from '../../src/lib/services/catalogue/activity-detail.ts';
import type { TicketOffer } from '../../src/lib/services/catalogue/ticket-offers.ts';
import { currencyTable } from '../../src/lib/services/catalogue/currency.ts';
import { database } from '../../src/lib/data/client.ts';
import { TestClient, signUp } from './auth-client.ts';
import { call, seed } from './helpers.ts';

const DAY = 86_400_000;
/** Seeded relative to today, so the sessions lie ahead of the clock the routes read. */
const TODAY = Math.floor(Date.now() / DAY) * DAY;

async function ids(sql: string, ...params: unknown[]): Promise<number[]> {
  const { results } = await env.DB.prepare(sql)
    .bind(...params)
    .all<{ id: number }>();
  return results.map((row) => row.id);
}

/** Activities of a status whose future sessions have listings with tickets, in a city's currency. */
const withStock = (status: number, cityId = 341) =>
  ids(
    `SELECT DISTINCT a.id FROM activities a JOIN activity_sessions s ON s.activity_id = a.id
     JOIN ticket_tiers t ON t.session_id = s.id JOIN listings l ON l.tier_id = t.id
     WHERE a.status = ? AND a.city_id = ? AND a.sale_starts_at < ? AND s.starts_at > ? AND l.quantity_available > 0 ORDER BY a.id`,
    status,
    cityId,
    Date.now(),
    Date.now(),
  );

const tiersOf = (activityId: number) =>
  ids('SELECT t.id FROM ticket_tiers t JOIN activity_sessions s ON s.id = t.session_id WHERE s.activity_id = ? ORDER BY t.id', activityId);

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const offers = (eventId: number, ticketCategoryId: number, headers: Record<string, string> = {}) =>
  call<TicketOffer[]>('/api/v8/tickets', json({ b2c: true, eventId, ticketCategoryId, buyType: 1 }, headers));

let onSale: number;
let soldOut: number;
let notYetOnSale: number;

beforeAll(async () => {
  await seed(TODAY);
  [onSale] = await withStock(1);
  [soldOut] = await ids(
    `SELECT a.id FROM activities a WHERE a.status = 1 AND a.starts_at > ? AND NOT EXISTS (
       SELECT 1 FROM activity_sessions s JOIN ticket_tiers t ON t.session_id = s.id JOIN listings l ON l.tier_id = t.id
       WHERE s.activity_id = a.id AND l.quantity_available > 0) ORDER BY a.id`,
    Date.now(),
  );
  [notYetOnSale] = await ids('SELECT id FROM activities WHERE status = 6 ORDER BY id');
  expect([onSale, soldOut, notYetOnSale].every(Boolean)).toBe(true);
});

describe('GET /api/activity/{id}', () => {
  it('returns the detail with sessions, tiers and prices in HKD', async () => {
    const { status, body } = await call<ActivityDetail>(`/api/activity/${onSale}`);
    expect(status).toBe(200);
    const detail = body.data;
    expect(detail).toMatchObject({ id: onSale, saleState: 'onSale', bookable: true, notifyMe: false, currency: 'HKD', numMin: 1 });
    expect(detail.name.length).toBeGreaterThan(0);
    expect(detail.venue.mapUrl).toMatch(/^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=22\.\d+%2C114\.\d+$/);
    expect(detail.lowPriceView).toMatch(/^HK\$[\d,.]+\+$/);
    expect(detail.sessions.length).toBeGreaterThan(0);
    for (const session of detail.sessions) {
      expect(session.startsAt).toBeGreaterThan(Date.now());
      expect(session.label).toMatch(/\d{2}:\d{2}$/);
      expect(session.tiers.length).toBeGreaterThan(0);
      for (const tier of session.tiers) expect(tier.hasTicket).toBe(tier.available > 0);
    }
  });

  it('speaks the request language and currency, and answers under /api/api too', async () => {
    const english = await call<ActivityDetail>(`/api/activity/${onSale}`);
    const { body } = await call<ActivityDetail>(`/api/api/activity/${onSale}`, { headers: { language: 'zh-HK', currency: 'TWD' } });
    expect(body.data.name).not.toBe(english.body.data.name);
    expect(body.data.name).toMatch(/[\u4e00-\u9fff]/);
    expect(body.data.currency).toBe('TWD');
    expect(body.data.lowPriceView).not.toContain('HK$');
    expect(body.data.sessions[0].label).not.toBe(english.body.data.sessions[0].label);
  });

  it('reports sold out with notify-me when no listing has tickets left', async () => {
    const { body } = await call<ActivityDetail>(`/api/activity/${soldOut}`);
    expect(body.data).toMatchObject({ saleState: 'soldOut', bookable: false, notifyMe: true, lowPriceView: null });
  });

  it('reports not on sale with notify-me for an activity whose sale has not started', async () => {
    const { body } = await call<ActivityDetail>(`/api/activity/${notYetOnSale}`);
    expect(body.data).toMatchObject({ saleState: 'notOnSale', bookable: false, notifyMe: true });
  });

  it('answers an unknown activity with a localized 404 and a malformed id with 400', async () => {
    const missing = await call(`/api/activity/999999`, { headers: { language: 'zh-CN' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 404, errorCode: 'activity_not_found', message: '此活动不存在或已下架' });
    const malformed = await call(`/api/activity/12abc`);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ errorCode: 'invalid_input', field: 'id' });
    expect((await call(`/api/activity/99999999999`)).status).toBe(400);
  });
});

describe('GET /api/v1/ticketCategories', () => {
  it('lists the tiers of the sessions to come as { id, specification, hasTicket }', async () => {
    const { status, body } = await call<TicketCategoryView[]>(`/api/api/v1/ticketCategories?b2c=true&eventId=${onSale}`);
    expect(status).toBe(200);
    const own = new Set(await tiersOf(onSale));
    expect(body.data.length).toBeGreaterThan(0);
    for (const category of body.data) {
      expect(own.has(category.id)).toBe(true);
      expect(category).toEqual(
        expect.objectContaining({ specification: expect.any(String), hasTicket: expect.any(Boolean), sessionTime: expect.any(String) }),
      );
    }
    expect(body.data.some((category) => category.hasTicket)).toBe(true);
  });

  it('marks no category as having tickets when the activity is not on sale', async () => {
    const { body } = await call<TicketCategoryView[]>(`/api/v1/ticketCategories?b2c=true&eventId=${notYetOnSale}`);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.every((category) => !category.hasTicket)).toBe(true);
  });

  it('validates the event id', async () => {
    const missing = await call('/api/v1/ticketCategories?b2c=true');
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('eventId');
    expect((await call('/api/v1/ticketCategories?eventId=999999')).body.errorCode).toBe('activity_not_found');
  });
});

describe('POST /api/v8/tickets', () => {
  it('returns the DIRECT_BUY offer: listings cheapest first, quantities within the limits and the stock', async () => {
    const [tierId] = await tiersOf(onSale);
    const { status, body } = await offers(onSale, tierId);
    expect(status).toBe(200);
    const direct = body.data.find((offer) => offer.type === 'DIRECT_BUY')!;
    expect(direct).toMatchObject({ numMin: 1, selectNumMin: 1, currency: 'HKD', minorDigits: 2 });
    const { results: stock } = await env.DB.prepare(
      "SELECT id, quantity_available AS available FROM listings WHERE tier_id = ? AND status = 'active' AND quantity_available > 0",
    )
      .bind(tierId)
      .all<{ id: number; available: number }>();
    expect(direct.ticketGroupInfoList.map((g) => g.ticketGroup.id).sort()).toEqual(stock.map((l) => l.id).sort());
    const prices = direct.ticketGroupInfoList.map((g) => g.ticketGroup.salePrice);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    for (const group of direct.ticketGroupInfoList) {
      const available = stock.find((l) => l.id === group.ticketGroup.id)!.available;
      expect(group.available).toBe(available);
      expect(group.maxQuantity).toBe(Math.min(direct.numMax, available));
      expect(group.minQuantity).toBe(1);
      expect(group.selectCount).toBe(1);
      expect(group.totalPriceView).toBe(group.salePriceView);
      expect(['together', 'not_adjacent']).toContain(group.seating);
      expect(group.deliveryTypes.length).toBeGreaterThan(0);
    }
    expect(direct.selectNumMax).toBe(Math.max(...direct.ticketGroupInfoList.map((g) => g.maxQuantity)));
  });

  it('converts prices to the request currency with the stored rates', async () => {
    const [tierId] = await tiersOf(onSale);
    const hkd = (await offers(onSale, tierId)).body.data[0];
    const usd = (await offers(onSale, tierId, { currency: 'USD', language: 'en' })).body.data[0];
    const table = await currencyTable(database(env.DB), Date.now());
    expect(usd.currency).toBe('USD');
    expect(usd.ticketGroupInfoList.length).toBe(hkd.ticketGroupInfoList.length);
    for (const group of hkd.ticketGroupInfoList) {
      const converted = convert({ amount: group.ticketGroup.salePrice, currency: 'HKD' }, 'USD', table);
      expect(usd.ticketGroupInfoList.find((g) => g.ticketGroup.id === group.ticketGroup.id)!.ticketGroup.salePrice).toBe(converted.amount);
    }
    const first = usd.ticketGroupInfoList[0];
    // One ticket all-in: the converted ticket price plus its service fee, as checkout charges it.
    expect(first.totalPriceView).toBe(formatMoney({ amount: allInAmount(first.ticketGroup.salePrice, 1), currency: 'USD' }, 'en', 2));
    expect(first.totalPriceView).toMatch(/^US\$/);
  });

  it('derives stock from listings.quantity_available: low stock caps the quantity and adds a tip', async () => {
    const [, tierId] = await tiersOf(onSale);
    const [listingId] = await ids("SELECT id FROM listings WHERE tier_id = ? AND status = 'active' ORDER BY id", tierId);
    await env.DB.prepare('UPDATE listings SET quantity_available = 2 WHERE id = ?').bind(listingId).run();
    const group = (await offers(onSale, tierId)).body.data[0].ticketGroupInfoList.find((g) => g.ticketGroup.id === listingId)!;
    expect(group).toMatchObject({ available: 2, maxQuantity: 2, tip: 'Only 2 left' });
    const chinese = (await offers(onSale, tierId, { language: 'zh-HK' })).body.data[0].ticketGroupInfoList.find(
      (g) => g.ticketGroup.id === listingId,
    )!;
    expect(chinese.tip).toBe('僅剩 2 張');

    await env.DB.prepare("UPDATE listings SET status = 'withdrawn' WHERE id = ?").bind(listingId).run();
    const withdrawn = (await offers(onSale, tierId)).body.data[0].ticketGroupInfoList;
    expect(withdrawn.map((g) => g.ticketGroup.id)).not.toContain(listingId);
  });

  it('turns sold out once every listing is empty', async () => {
    const [, second] = await withStock(1);
    await env.DB.prepare(
      `UPDATE listings SET quantity_available = 0 WHERE tier_id IN (
         SELECT t.id FROM ticket_tiers t JOIN activity_sessions s ON s.id = t.session_id WHERE s.activity_id = ?)`,
    )
      .bind(second)
      .run();
    const { body } = await call<ActivityDetail>(`/api/activity/${second}`);
    expect(body.data.saleState).toBe('soldOut');
    const [tierId] = await tiersOf(second);
    const refused = await offers(second, tierId);
    expect(refused.status).toBe(409);
    expect(refused.body.errorCode).toBe('activity_not_on_sale');
  });

  it('refuses a tier of another activity, an unknown activity, another buy type and a broken body', async () => {
    const [foreignTier] = await tiersOf(soldOut);
    const foreign = await offers(onSale, foreignTier);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ errorCode: 'ticket_category_not_found', field: 'ticketCategoryId' });
    expect((await offers(999999, foreignTier)).body.errorCode).toBe('activity_not_found');
    const [tierId] = await tiersOf(onSale);
    const otherType = await call('/api/v8/tickets', json({ eventId: onSale, ticketCategoryId: tierId, buyType: 2 }));
    expect(otherType.status).toBe(400);
    expect(otherType.body.field).toBe('buyType');
    const missingTier = await call('/api/v8/tickets', json({ eventId: onSale, buyType: 1 }));
    expect(missingTier.body.field).toBe('ticketCategoryId');
    const broken = await call('/api/v8/tickets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"eventId":' });
    expect(broken.status).toBe(400);
    expect(broken.body.errorCode).toBe('invalid_input');
  });

  it('refuses an activity that is not on sale yet', async () => {
    const [tierId] = await tiersOf(notYetOnSale);
    const { status, body } = await offers(notYetOnSale, tierId, { language: 'zh-HK' });
    expect(status).toBe(409);
    expect(body.message).toBe('本活動門票暫未發售');
  });
});

describe('notify-me subscriptions (v1/activity/favorite)', () => {
  it('needs a signed-in user', async () => {
    const status = await call(`/api/api/v1/activity/favorite/${soldOut}?type=1`, { headers: { language: 'zh-HK' } });
    expect(status.status).toBe(401);
    expect(status.body).toMatchObject({ errorCode: 'unauthorized', message: '請先登入' });
    const subscribe = await call(`/api/api/v1/activity/favorite/${soldOut}`, json({ type: 1 }));
    expect(subscribe.status).toBe(401);
  });

  it('subscribes once, reports the status, and keeps it per user', async () => {
    const buyer = new TestClient();
    await signUp(buyer, 'notify-me@example.com');
    expect((await buyer.call<{ subscribed: boolean }>(`/api/api/v1/activity/favorite/${soldOut}?type=1`)).body.data).toEqual({
      subscribed: false,
    });

    const first = await buyer.post<{ subscribed: boolean }>(`/api/api/v1/activity/favorite/${soldOut}`, { type: 1 });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ subscribed: true });
    const again = await buyer.post(`/api/api/v1/activity/favorite/${soldOut}`, { type: 1 });
    expect(again.status).toBe(200);
    expect((await buyer.call<{ subscribed: boolean }>(`/api/v1/activity/favorite/${soldOut}?type=1`)).body.data).toEqual({
      subscribed: true,
    });
    const { results } = await env.DB.prepare('SELECT user_id FROM favourites WHERE activity_id = ?').bind(soldOut).all();
    expect(results).toHaveLength(1);

    const other = new TestClient();
    await signUp(other, 'someone-else@example.com');
    expect((await other.call<{ subscribed: boolean }>(`/api/v1/activity/favorite/${soldOut}?type=1`)).body.data).toEqual({
      subscribed: false,
    });
  });

  it('validates the type and the activity', async () => {
    const buyer = new TestClient();
    await signUp(buyer, 'notify-checks@example.com');
    const badType = await buyer.post(`/api/v1/activity/favorite/${soldOut}`, { type: 7 });
    expect(badType.status).toBe(400);
    expect(badType.body.field).toBe('type');
    expect((await buyer.call(`/api/v1/activity/favorite/${soldOut}`)).body.field).toBe('type');
    const unknown = await buyer.post('/api/v1/activity/favorite/999999', { type: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorCode).toBe('activity_not_found');
    expect((await buyer.post('/api/v1/activity/favorite/abc', { type: 1 })).body.field).toBe('id');
  });
});
