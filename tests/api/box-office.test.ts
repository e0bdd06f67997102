/**
 * A show put on sale from the console is sold by its box office: publishing offers each tier's quota
 * at face value as the box office's listing, which a buyer orders and pays like any other; the
 * listing follows the tier's quota and face value, a tier added later gets one, and the box office
 * can be neither missing (when tiers have a quota) nor taken over once it sells.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { signedInClient, type TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { pay, placeOrder } from './shop.ts';

const DAY = 86_400_000;
const HONG_KONG = 341;
const FIRST_SHOW = Date.now() + 210 * DAY;

let editor: TestClient;
let buyer: TestClient;
let boxOffice: number;
let otherSeller: number;
let activityId: number;
let sessionId: number;
let tierId: number;

interface ListingRow {
  id: number;
  seller_id: number;
  price: number;
  currency: string;
  quantity_total: number;
  quantity_available: number;
  status: string;
}

const boxOfficeListings = async (tier: number) =>
  (await env.DB.prepare('SELECT * FROM listings WHERE tier_id = ? AND source_order_id IS NULL ORDER BY id').bind(tier).all<ListingRow>())
    .results;

async function activityBody(boxOfficeSellerId: number | null) {
  const category = await env.DB.prepare("SELECT id FROM categories WHERE slug = 'concerts'").first<{ id: number }>();
  const venue = await env.DB.prepare('SELECT id FROM venues WHERE city_id = ? LIMIT 1').bind(HONG_KONG).first<{ id: number }>();
  return {
    categoryId: category!.id,
    cityId: HONG_KONG,
    venueId: venue!.id,
    artistId: null,
    boxOfficeSellerId,
    names: { en: 'Box Office Night', zhHant: '票房之夜', zhHans: '票房之夜' },
    descriptions: { en: 'Tickets from the organiser.', zhHant: '主辦方售票。', zhHans: '主办方售票。' },
    buyingNotes: { en: '', zhHant: '', zhHans: '' },
    realNameRequired: false,
    poster: '',
    saleStatus: 1,
    numMax: 6,
  };
}

const tierBody = (en: string, faceValue: number, quota: number) => ({
  names: { en, zhHant: `${en}區`, zhHans: `${en}区` },
  faceValue,
  currency: 'HKD',
  quota,
});

beforeAll(async () => {
  await seed();
  editor = await signedInClient('box-office-editor');
  await env.DB.prepare("INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, 'editor', 0)")
    .bind(Number(editor.cookies.get('pnid')))
    .run();
  buyer = await signedInClient('box-office-buyer');
  const sellers = await env.DB.prepare('SELECT id FROM users WHERE is_seller = 1 ORDER BY id LIMIT 2').all<{ id: number }>();
  [boxOffice, otherSeller] = sellers.results.map((row) => row.id);
});

describe('a box office', () => {
  it('must be a seller account', async () => {
    const buyerId = Number(buyer.cookies.get('pnid'));
    const refused = await editor.post('/api/v1/operator/activities', await activityBody(buyerId));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errorCode: 'box_office_not_a_seller', field: 'boxOfficeSellerId' });
  });

  it('is needed to publish a show whose tiers have a quota', async () => {
    const created = await editor.post<{ id: number }>('/api/v1/operator/activities', await activityBody(null));
    expect(created.status, created.text).toBe(200);
    activityId = created.body.data.id;
    const session = await editor.post<{ id: number }>(`/api/v1/operator/activities/${activityId}/sessions`, {
      startsAt: FIRST_SHOW,
      endsAt: FIRST_SHOW + 3 * 3_600_000,
      onSaleAt: Date.now() - DAY,
      offSaleAt: FIRST_SHOW - 3_600_000,
      accountTicketCap: null,
      highDemand: false,
    });
    sessionId = session.body.data.id;
    const tier = await editor.post<{ id: number }>(`/api/v1/operator/sessions/${sessionId}/tiers`, tierBody('Stalls', 50_000, 10));
    expect(tier.status, tier.text).toBe(200);
    tierId = tier.body.data.id;

    const refused = await editor.post(`/api/v1/operator/activities/${activityId}/publish`, {});
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ errorCode: 'box_office_required', field: 'boxOfficeSellerId' });
    expect(await boxOfficeListings(tierId)).toEqual([]);
  });

  it('offers each tier’s quota at face value once the show is published, and a buyer orders and pays', async () => {
    const edited = await editor.call(`/api/v1/operator/activities/${activityId}`, { method: 'PATCH', body: await activityBody(boxOffice) });
    expect(edited.status, edited.text).toBe(200);
    expect(await boxOfficeListings(tierId)).toEqual([]);

    const published = await editor.post(`/api/v1/operator/activities/${activityId}/publish`, {});
    expect(published.status, published.text).toBe(200);
    const [listing] = await boxOfficeListings(tierId);
    expect(listing).toMatchObject({
      seller_id: boxOffice,
      price: 50_000,
      currency: 'HKD',
      quantity_total: 10,
      quantity_available: 10,
      status: 'active',
    });

    // Publishing again (a retried call) makes no second listing.
    await editor.post(`/api/v1/operator/activities/${activityId}/publish`, {});
    expect(await boxOfficeListings(tierId)).toHaveLength(1);

    const order = await placeOrder(buyer, listing.id, 2);
    expect(order.status, order.text).toBe(200);
    const { id: orderId } = order.body.data as OrderDetail;
    await pay(buyer, orderId);
    const paid = await env.DB.prepare('SELECT status, seller_id FROM orders WHERE id = ?').bind(orderId).first();
    expect(paid).toEqual({ status: 'pending_ticketing', seller_id: boxOffice });
    expect((await boxOfficeListings(tierId))[0].quantity_available).toBe(8);
  });

  it('follows the tier’s quota and face value, and lists a tier added after publishing', async () => {
    const raised = await editor.call(`/api/v1/operator/tiers/${tierId}`, { method: 'PATCH', body: tierBody('Stalls', 52_000, 15) });
    expect(raised.status, raised.text).toBe(200);
    expect((await boxOfficeListings(tierId))[0]).toMatchObject({ price: 52_000, quantity_total: 15, quantity_available: 13 });

    const below = await editor.call(`/api/v1/operator/tiers/${tierId}`, { method: 'PATCH', body: tierBody('Stalls', 52_000, 1) });
    expect(below.status).toBe(409);
    expect(below.body).toMatchObject({ errorCode: 'quota_below_sold', field: 'quota' });
    expect((await boxOfficeListings(tierId))[0]).toMatchObject({ quantity_total: 15, quantity_available: 13 });

    const added = await editor.post<{ id: number }>(`/api/v1/operator/sessions/${sessionId}/tiers`, tierBody('Balcony', 30_000, 5));
    expect(added.status, added.text).toBe(200);
    expect(await boxOfficeListings(added.body.data.id)).toMatchObject([{ seller_id: boxOffice, price: 30_000, quantity_available: 5 }]);
  });

  it('cannot be handed to another seller once it sells', async () => {
    const moved = await editor.call(`/api/v1/operator/activities/${activityId}`, {
      method: 'PATCH',
      body: await activityBody(otherSeller),
    });
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({ errorCode: 'box_office_in_use', field: 'boxOfficeSellerId' });
  });
});
