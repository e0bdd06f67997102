import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DevFixtureInput, DevFixtureName, DevFixtureOutput, FoundListing } from '../../src/lib/services/platform/dev-fixtures.ts';
import { TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';

const DAY = 24 * 3600 * 1000;
const local = new TestClient({ APP_ENV: 'local' });

async function fixture<Name extends DevFixtureName>(name: Name, input: DevFixtureInput<Name>): Promise<DevFixtureOutput<Name>> {
  const answer = await local.call<DevFixtureOutput<Name>>(`/api/v1/dev/fixtures/${name}`, { method: 'POST', body: input });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data;
}

const row = async (sql: string) => (await env.DB.prepare(sql).first()) as Record<string, unknown>;

beforeAll(() => seed(), 30_000);

describe('the end-to-end fixtures of a local build', () => {
  it('find a listing on sale that fits, in the order asked, and nothing when none fits', async () => {
    const query = { activityStates: ['onSale' as const], realNames: false, eTicket: true, sellerListed: true, orderOf: 1, minAvailable: 2 };
    const oldest = (await fixture('find-listing', { ...query, order: 'oldest' })) as FoundListing;
    const second = (await fixture('find-listing', { ...query, order: 'oldest', offset: 1 })) as FoundListing;
    const newest = (await fixture('find-listing', { ...query, order: 'newest' })) as FoundListing;
    expect(oldest.id).toBeLessThan(second.id);
    expect(second.id).toBeLessThanOrEqual(newest.id);
    for (const found of [oldest, second, newest]) {
      const listing = await row(`SELECT l.status, l.delivery_types, l.quantity_available, l.source_order_id, t.name_en, t.session_id,
        s.activity_id, a.status AS activity_status, a.real_name_required, a.sale_starts_at, u.email FROM listings l
        JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
        JOIN users u ON u.id = l.seller_id WHERE l.id = ${found.id}`);
      expect(listing).toMatchObject({
        status: 'active',
        source_order_id: null,
        activity_status: 1,
        real_name_required: 0,
        name_en: found.tierNameEn,
        session_id: found.sessionId,
        activity_id: found.activityId,
        quantity_available: found.quantityAvailable,
        email: found.sellerEmail,
      });
      expect(String(listing.delivery_types)).toContain('e_ticket');
      expect(found.quantityAvailable).toBeGreaterThanOrEqual(2);
      expect(listing.sale_starts_at as number).toBeLessThan(Date.now());
    }
    expect(await fixture('find-listing', { ...query, minAvailable: 10_000, order: 'oldest' })).toBeNull();
  });

  it("load a show of a test's own: a session, a copied tier and a copied listing of its own stock", async () => {
    const source = (await fixture('find-listing', { activityStates: ['onSale'], eTicket: true, order: 'newest' })) as FoundListing;
    const startsAt = Date.now() + 20 * DAY;
    const session = await fixture('create-session', {
      activityId: source.activityId,
      startsAt,
      endsAt: startsAt + 3 * 3600_000,
      highDemand: true,
    });
    const tier = await fixture('copy-tier', { sessionId: session.id, fromTierId: source.tierId, nameEn: 'Own tier' });
    const listing = await fixture('copy-listing', { tierId: tier.id, fromListingId: source.id, quantity: 3, deliveryTypes: 'e_ticket' });

    expect(await row(`SELECT activity_id, starts_at, status, high_demand FROM activity_sessions WHERE id = ${session.id}`)).toEqual({
      activity_id: source.activityId,
      starts_at: startsAt,
      status: 'scheduled',
      high_demand: 1,
    });
    const sourceTier = await row(`SELECT name_zh_hant, face_value, currency, sort FROM ticket_tiers WHERE id = ${source.tierId}`);
    expect(
      await row(
        `SELECT session_id, name_en, name_zh_hant, face_value, currency, sort, high_demand FROM ticket_tiers WHERE id = ${tier.id}`,
      ),
    ).toEqual({
      ...sourceTier,
      session_id: session.id,
      name_en: 'Own tier',
      high_demand: 0,
    });
    const sourceListing = await row(`SELECT seller_id, price, currency, seating, created_at FROM listings WHERE id = ${source.id}`);
    expect(
      await row(`SELECT tier_id, seller_id, price, currency, seating, created_at, quantity_total, quantity_available, delivery_types, status
        FROM listings WHERE id = ${listing.id}`),
    ).toEqual({
      ...sourceListing,
      tier_id: tier.id,
      quantity_total: 3,
      quantity_available: 3,
      delivery_types: 'e_ticket',
      status: 'active',
    });

    await fixture('set-listing-stock', { listingId: listing.id, quantityAvailable: 0 });
    await fixture('set-tier-high-demand', { tierId: tier.id, highDemand: true });
    await fixture('set-session-high-demand', { sessionId: session.id, highDemand: false });
    expect(await row(`SELECT quantity_available FROM listings WHERE id = ${listing.id}`)).toEqual({ quantity_available: 0 });
    expect(await row(`SELECT high_demand FROM ticket_tiers WHERE id = ${tier.id}`)).toEqual({ high_demand: 1 });
    expect(await row(`SELECT high_demand FROM activity_sessions WHERE id = ${session.id}`)).toEqual({ high_demand: 0 });
  });

  it("multiply and divide back the prices of an activity's active listings only", async () => {
    const { activityId } = (await fixture('activity-with-most-listings', {}))!;
    const prices = async () =>
      (
        await env.DB.prepare(
          `SELECT l.id, l.price, l.status, s.activity_id FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id
           JOIN activity_sessions s ON s.id = t.session_id ORDER BY l.id`,
        ).all<{ id: number; price: number; status: string; activity_id: number }>()
      ).results;
    const before = await prices();
    await fixture('scale-activity-prices', { activityId, scale: { times: 3 } });
    const tripled = await prices();
    expect(tripled.map((listing, i) => listing.price / before[i].price)).toEqual(
      before.map((listing) => (listing.activity_id === activityId && listing.status === 'active' ? 3 : 1)),
    );
    await fixture('scale-activity-prices', { activityId, scale: { dividedBy: 3 } });
    expect(await prices()).toEqual(before);
  });

  it('make an operator, and read the first user, the first cities and an order', async () => {
    await env.DB.prepare("INSERT INTO users (id, nickname, invite_code) VALUES (9001, 'Fixture operator', 'FIXTURE1')").run();
    await fixture('make-staff', { userId: 9001, role: 'editor' });
    expect(await row('SELECT role FROM staff_roles WHERE user_id = 9001')).toEqual({ role: 'editor' });
    expect(await fixture('first-user', {})).toEqual({
      inviteCode: (await row('SELECT invite_code FROM users WHERE id = 1')).invite_code,
      nickname: 'Harbour Tix',
    });
    expect(await fixture('first-cities', { count: 2 })).toEqual([
      { cityId: 341, cityName: 'Hong Kong' },
      { cityId: 342, cityName: 'Macao' },
    ]);
    expect(await fixture('order', { orderNo: 'no-such-order' })).toBeNull();
  });

  describe('deliver an email into the dev outbox', () => {
    beforeEach(() => vi.spyOn(console, 'log').mockImplementation(() => {}));
    afterEach(() => vi.restoreAllMocks());

    it('with its HTML part, as the message consumer stores it', async () => {
      const id = crypto.randomUUID();
      await fixture('deliver-email', { id, to: 'fixture@example.com', subject: 'Paid', text: 'Order paid.', html: '<p>Order paid.</p>' });
      expect(await row(`SELECT channel, target, subject, body, html FROM dev_outbox WHERE message_id = '${id}'`)).toEqual({
        channel: 'email',
        target: 'fixture@example.com',
        subject: 'Paid',
        body: 'Order paid.',
        html: '<p>Order paid.</p>',
      });
    });
  });

  it('do not exist in a build run as deployed, and change nothing there', async () => {
    const deployed = new TestClient({ APP_ENV: 'production' });
    const source = (await fixture('find-listing', { activityStates: ['onSale'], minAvailable: 1, order: 'oldest' })) as FoundListing;
    for (const path of ['/api/v1/dev/fixtures/set-listing-stock', '/api/api/v1/dev/fixtures/set-listing-stock']) {
      const answer = await deployed.call(path, { method: 'POST', body: { listingId: source.id, quantityAvailable: 0 } });
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ errorCode: 'not_found' });
    }
    expect(await row(`SELECT quantity_available FROM listings WHERE id = ${source.id}`)).toEqual({
      quantity_available: source.quantityAvailable,
    });
  });
});
