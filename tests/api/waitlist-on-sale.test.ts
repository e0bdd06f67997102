/**
 * Tickets that come back to a high-demand on-sale (docs/hot-on-sale.md "Returned tickets"): whoever
 * was waiting first gets them. Waitlist entries from before the on-sale went high demand come first,
 * and their offers are bought without a pass; once it is high demand, the waitlist takes nobody new,
 * and its waiting room's line takes the rest in order.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import type { RequestContext } from '../../src/lib/domain/request-context.ts';
import { confirmPage } from '../../src/lib/loaders/order-confirm.ts';
import type { TierHighDemandSwitch } from '../../src/lib/services/on-sale/high-demand.ts';
import type { CheckoutQuote, OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { referenceData } from '../../src/lib/services/catalogue/reference-data.ts';
import { confirmedClaim } from '../../src/lib/services/accounts/signed-in.ts';
import type { WaitingView } from '../../src/lib/services/on-sale/waiting-room.ts';
import type { WaitlistEntryView } from '../../src/lib/services/on-sale/waitlist.ts';
import { type TestClient, signedInClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { createOrder, eTicketSource, type ETicketSource, placeOrder, showOfListing, waitingRoomPass } from './shop.ts';
import { durableOnSaleObjects } from '../../src/lib/durable-objects/on-sale-objects.ts';

let show: ETicketSource;
let operator: TestClient;

const userIdOf = (client: TestClient) => Number(client.cookies.get('pnid'));

/** A new tier of the show's session with one listing of `stock` tickets like the show's. */
async function newTier(stock: number): Promise<{ tierId: number; listingId: number }> {
  const { tierId: plainTier } = await showOfListing(show.listingId);
  const tier = await env.DB.prepare(
    `INSERT INTO ticket_tiers (session_id, name_en, name_zh_hant, name_zh_hans, face_value, currency, sort)
     SELECT session_id, 'Returned tier', '退票區', '退票区', face_value, currency, sort + 1 FROM ticket_tiers WHERE id = ?1 RETURNING id`,
  )
    .bind(plainTier)
    .first<{ id: number }>();
  const listing = await env.DB.prepare(
    `INSERT INTO listings (tier_id, seller_id, price, currency, quantity_total, quantity_available, seating, delivery_types, status, created_at)
     SELECT ?2, seller_id, price, currency, ?3, ?3, seating, delivery_types, 'active', created_at FROM listings WHERE id = ?1 RETURNING id`,
  )
    .bind(show.listingId, tier!.id, stock)
    .first<{ id: number }>();
  return { tierId: tier!.id, listingId: listing!.id };
}

const joinWaitlist = (client: TestClient, tierId: number, headers: Record<string, string> = {}) =>
  client.call<WaitlistEntryView>('/api/v1/waitlist', { method: 'POST', body: { tierId, quantity: 1 }, headers });
const waitlistOf = async (client: TestClient) => (await client.call<WaitlistEntryView[]>('/api/v1/waitlist')).body.data;
const joinLine = (client: TestClient, tierId: number) =>
  client.post<WaitingView>(`/api/v1/waiting-rooms/${show.sessionId}?tier=${tierId}`, {});

async function unpaidOrder(client: TestClient, listingId: number, pass?: string): Promise<number> {
  const placed = await placeOrder(client, listingId, 1, pass);
  expect(placed.status, placed.text).toBe(200);
  return (placed.body.data as OrderDetail).id;
}

const cancel = async (client: TestClient, orderId: number) =>
  expect((await client.call(`/api/v1/orders/${orderId}/cancel`, { method: 'POST' })).status).toBe(200);

/** The order confirmation page's data for one ticket of the listing, as the page asks for it. */
async function confirmationOf(client: TestClient, listingId: number, offer?: number) {
  const db = database(env.DB);
  const reference = await referenceData(db, Date.now(), null);
  const ctx: RequestContext = { locale: 'en', currency: 'HKD', clientType: 12, cityId: 341 };
  const scope = {
    db,
    ctx,
    currencies: reference.currencyTable,
    reference,
    userId: userIdOf(client),
    now: Date.now(),
    env,
    onSales: durableOnSaleObjects(env),
  };
  const query = {
    listingId,
    quantity: 1,
    deliveryType: null,
    paymentMethod: null,
    coupon: 'best' as const,
    addressId: null,
    attendeeIds: [],
  };
  return confirmPage(confirmedClaim(scope), offer === undefined ? query : { ...query, offer });
}

beforeAll(async () => {
  await seed();
  show = await eTicketSource('first');
  operator = await signedInClient('returns-operator');
  await env.DB.prepare("INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, 'operator', 0)").bind(userIdOf(operator)).run();
});

describe('tickets that come back to a high-demand on-sale', () => {
  it('go first to the waitlist from before the switch, bought without a pass, then to the line in order', async () => {
    const { tierId, listingId } = await newTier(2);
    const [first, second] = [await signedInClient('returns-holder-1'), await signedInClient('returns-holder-2')];
    const held = [await unpaidOrder(first, listingId), await unpaidOrder(second, listingId)];
    const waiter = await signedInClient('returns-waiter');
    expect((await joinWaitlist(waiter, tierId)).status).toBe(200);

    const switched = await operator.post<TierHighDemandSwitch>(`/api/v1/operator/tiers/${tierId}/high-demand`, { highDemand: true });
    expect(switched.status, switched.text).toBe(200);

    // From now on one waits for this tier in its line, not on its waitlist, in the caller's language.
    const late = await signedInClient('returns-late');
    const refused = await joinWaitlist(late, tierId);
    expect([refused.status, refused.body.errorCode]).toEqual([409, 'waitlist_waiting_room']);
    expect(refused.body.message).toMatch(/join the line/);
    const inChinese = await joinWaitlist(late, tierId, { language: 'zh-HK' });
    expect(inChinese.body.message).toBe('此發售的退回門票會按排隊次序交給排隊中的買家：請加入排隊，無須加入候補名單。');
    expect(await waitlistOf(late)).toEqual([]);
    const inLine = await joinLine(late, tierId);
    expect(inLine.body.data.soldOut).toBe(true);

    // A ticket comes back: the entry from before the switch is offered it, and the line still waits.
    await cancel(first, held[0]);
    const [entry] = await waitlistOf(waiter);
    expect(entry).toMatchObject({ tierId, status: 'offered', offer: { quantity: 1 } });
    expect(entry.offer!.checkoutPath).toContain(`listingId=${listingId}&quantity=1&offer=`);
    expect((await joinLine(late, tierId)).body.data).toMatchObject({ soldOut: true, position: inLine.body.data.position });

    // Someone else cannot buy through the offer; its holder buys it with no pass, from the page onwards.
    const offerId = entry.offer!.id;
    const stranger = await createOrder(late, listingId, 1, 0, { waitlistOfferId: offerId });
    expect([stranger.status, stranger.body.errorCode]).toEqual([409, 'waitlist_offer_unavailable']);
    const page = await confirmationOf(waiter, listingId, offerId);
    expect(page).toMatchObject({ waitingRoomPass: null, quote: { quantity: 1 } });
    const quoted = await waiter.call<CheckoutQuote>(
      `/api/v1/checkout/quote?listingId=${listingId}&quantity=1&deliveryType=e_ticket&coupon=none&waitlistOfferId=${offerId}`,
    );
    const bought = await createOrder(waiter, listingId, 1, quoted.body.data.cost.total, { waitlistOfferId: offerId });
    expect(bought.status, bought.text).toBe(200);
    expect(await waitlistOf(waiter)).toEqual([]);

    // The next ticket back has no waitlist entry left to go to: the line moves on and its first buyer gets it.
    await cancel(second, held[1]);
    // Without an offer the tier needs the line's pass, the waitlist's buyer too.
    const unqueued = await placeOrder(waiter, listingId, 1);
    expect([unqueued.status, unqueued.body.errorCode]).toEqual([403, 'waiting_room_pass_required']);
    expect((await joinLine(late, tierId)).body.data.soldOut).toBe(false);
    const pass = await waitingRoomPass(late, show.sessionId, tierId);
    const placed = await placeOrder(late, listingId, 1, pass);
    expect(placed.status, placed.text).toBe(200);
    const { results } = await env.DB.prepare(
      `SELECT user_id AS userId, status FROM orders WHERE listing_id = ?1 AND status <> 'cancelled' ORDER BY id`,
    )
      .bind(listingId)
      .all<{ userId: number; status: string }>();
    expect(results.map((order) => order.userId)).toEqual([userIdOf(waiter), userIdOf(late)]);
    const stock = await env.DB.prepare('SELECT quantity_available AS n FROM listings WHERE id = ?1').bind(listingId).first<{ n: number }>();
    expect(stock!.n).toBe(0);
  });

  it('send every tier’s waiting buyers of a high-demand session to its line, and leave other sessions’ waitlists as they were', async () => {
    const { tierId } = await newTier(0);
    const other = await eTicketSource('last', [show]);
    const { tierId: otherTier } = await showOfListing(other.listingId);
    await env.DB.prepare('UPDATE listings SET quantity_available = 0 WHERE tier_id = ?1').bind(otherTier).run();
    const switched = await operator.post(`/api/v1/operator/sessions/${show.sessionId}/high-demand`, { highDemand: true });
    expect(switched.status, switched.text).toBe(200);

    const buyer = await signedInClient('returns-session');
    const refused = await joinWaitlist(buyer, tierId);
    expect([refused.status, refused.body.errorCode]).toEqual([409, 'waitlist_waiting_room']);
    expect((await joinWaitlist(buyer, otherTier)).status).toBe(200);
  });
});
