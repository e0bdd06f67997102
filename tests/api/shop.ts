/**
 * Buying as a test buyer does through the API: quote, order (e-tickets, card, no coupon), pay in the
 * sandbox with its signed webhook, and read the order's voucher. Shared by the API tests that need
 * orders in a given state.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { ACCOUNT_TICKET_CAP, PAYMENT_TIME_LIMIT_MS, UNPAID_HOLD_LIMITS } from '../../src/lib/config/orders.ts';
import { USER_ID_COOKIE } from '../../src/lib/config/request.ts';
import { database } from '../../src/lib/data/client.ts';
import { newOrderNo } from '../../src/lib/services/orders/placing.ts';
import type { OrderPlacement } from '../../src/lib/data/order-placement.ts';
import type { CheckoutQuote, OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { decideSandboxPayment } from '../../src/lib/services/payments/providers/sandbox.ts';
import { referenceData } from '../../src/lib/services/catalogue/reference-data.ts';
import type { Voucher } from '../../src/lib/services/orders/vouchers.ts';
import { passFor, type WaitingView } from '../../src/lib/services/on-sale/waiting-room.ts';
import { TestClient } from './auth-client.ts';
import { durableOnSaleObjects } from '../../src/lib/durable-objects/on-sale-objects.ts';

let keyCount = 0;
export const newKey = () => `shop-key-${Date.now()}-${++keyCount}`;

export const quote = (client: TestClient, listingId: number, quantity: number) =>
  client.call<CheckoutQuote>(`/api/v1/checkout/quote?listingId=${listingId}&quantity=${quantity}&deliveryType=e_ticket&coupon=none`);

/** How an order is sent: a high-demand session's carries the buyer's pass; a retry reuses its key. */
export interface OrderOptions {
  waitingRoomPass?: string;
  /** A waitlist offer the order claims. */
  waitlistOfferId?: number;
  idempotencyKey?: string;
  language?: string;
}

/** Orders e-tickets paid by card. */
export const createOrder = (
  client: TestClient,
  listingId: number,
  quantity: number,
  expectedTotal: number,
  { waitingRoomPass, waitlistOfferId, idempotencyKey = newKey(), language }: OrderOptions = {},
) =>
  client.call<OrderDetail>('/api/v1/orders', {
    method: 'POST',
    headers: { 'idempotency-key': idempotencyKey, ...(language === undefined ? {} : { language }) },
    body: {
      listingId,
      quantity,
      deliveryType: 'e_ticket',
      paymentMethod: 'visa',
      coupon: 'none',
      acceptNotes: true,
      expectedTotal,
      ...(waitingRoomPass === undefined ? {} : { waitingRoomPass }),
      ...(waitlistOfferId === undefined ? {} : { waitlistOfferId }),
    },
  });

/** Quotes, then orders at the quoted total; a refused quote is answered as it came. */
export async function placeOrder(client: TestClient, listingId: number, quantity: number, waitingRoomPass?: string) {
  const quoted = await quote(client, listingId, quantity);
  if (quoted.status !== 200) return quoted;
  return createOrder(client, listingId, quantity, quoted.body.data.cost.total, { waitingRoomPass });
}

/**
 * The pass a high-demand session's waiting room (or, given `tierId`, that tier's own on-sale's) gives
 * the signed-in buyer of `client`: they join, the room's dev door lets everyone up to them through,
 * and the pass is asked for as the order confirmation page asks for it.
 */
export async function waitingRoomPass(client: TestClient, sessionId: number, tierId: number | null = null): Promise<string> {
  const room = `${sessionId}${tierId === null ? '' : `?tier=${tierId}`}`;
  const joined = await client.post<WaitingView>(`/api/v1/waiting-rooms/${room}`, {});
  expect(joined.status, joined.text).toBe(200);
  const { state, place } = joined.body.data;
  if (state !== 'admitted') {
    const admitted = await new TestClient().post(`/api/v1/dev/waiting-rooms/${room}`, { admitNext: place });
    expect(admitted.status, admitted.text).toBe(200);
  }
  const userId = Number(client.cookies.get(USER_ID_COOKIE));
  const pass = await passFor(await userScope(userId), { sessionId, tierId });
  expect(pass, `a pass for account ${userId}`).not.toBeNull();
  return pass!.pass;
}

/** Pays through the sandbox; `webhookStatus` is what the webhook is expected to answer (500 when settling it fails). */
export async function pay(client: TestClient, orderId: number, webhookStatus = 200): Promise<void> {
  const started = await client.call<{ checkoutUrl: string }>(`/api/v1/orders/${orderId}/payments`, {
    method: 'POST',
    headers: { 'idempotency-key': newKey() },
    body: { method: 'visa' },
  });
  expect(started.status, started.text).toBe(200);
  const ref = new URL(started.body.data.checkoutUrl).pathname.split('/').pop()!;
  const webhook = (await decideSandboxPayment(database(env.DB), env, ref, 'approve', Date.now()))!.webhook!;
  const delivered = await new TestClient().call(new URL(webhook.url).pathname, webhook.init);
  expect(delivered.status, delivered.text).toBe(webhookStatus);
}

/** The order's voucher, read through its signed link as anyone holding the link would. */
export async function voucherOf(client: TestClient, orderId: number): Promise<Voucher> {
  const detail = (await client.call<OrderDetail>(`/api/v1/orders/${orderId}`)).body.data;
  const answer = await new TestClient().call<Voucher>(`/api${detail.voucherUrl!.replace('/voucher?', '/v1/vouchers?')}`);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

/** A seeded e-ticket listing to buy from, on sale, without real names, 1 to 3 tickets an order, its show more than a day away. */
export interface ETicketSource {
  listingId: number;
  sellerId: number;
  sessionId: number;
  faceValue: number;
  currency: string;
}

/**
 * The first such listing (or the last, `from: 'last'`, so two files need not share one), of a session
 * other than `otherThan`'s, given 500 tickets so a file's orders never run it out, and its session a
 * cap of 500 tickets an account, so a file's buyer may order from it again and again
 * (tests/api/order-limits.test.ts sets the caps it tests).
 */
export async function eTicketSource(from: 'first' | 'last' = 'first', otherThan: readonly ETicketSource[] = []): Promise<ETicketSource> {
  const found = await env.DB.prepare(
    `SELECT l.id AS listingId, l.seller_id AS sellerId, s.id AS sessionId, t.face_value AS faceValue, t.currency AS currency FROM listings l
     JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
     WHERE l.status = 'active' AND a.status IN (1, 4) AND a.sale_starts_at <= ?1 AND s.starts_at > ?1 + 86400000
       AND a.real_name_required = 0 AND a.num_min <= 1 AND a.num_max >= 3 AND instr(l.delivery_types, 'e_ticket') > 0 AND t.face_value >= 1000
       AND s.id NOT IN (SELECT value FROM json_each(?2))
     ORDER BY l.id ${from === 'first' ? 'ASC' : 'DESC'} LIMIT 1`,
  )
    .bind(Date.now(), JSON.stringify(otherThan.map((source) => source.sessionId)))
    .first<ETicketSource>();
  if (!found) throw new Error('The seed has no e-ticket listing to buy from');
  await env.DB.batch([
    env.DB.prepare('UPDATE listings SET quantity_available = 500, quantity_total = 500 WHERE id = ?').bind(found.listingId),
    env.DB.prepare('UPDATE activity_sessions SET account_ticket_cap = 500 WHERE id = ?').bind(found.sessionId),
  ]);
  return found;
}

/** Copies a row of `table` with some columns set anew; answers the new row's id (a show of a test's own). */
export async function copyRow(table: string, id: number, set: Record<string, number>): Promise<number> {
  const columns = (await env.DB.prepare(`PRAGMA table_info(${table})`).all<{ name: string }>()).results
    .map((column) => column.name)
    .filter((name) => name !== 'id' && !(name in set));
  const names = [...Object.keys(set), ...columns].join(', ');
  const values = [...Object.keys(set).map((_, index) => `?${index + 2}`), ...columns].join(', ');
  const copied = await env.DB.prepare(`INSERT INTO ${table} (${names}) SELECT ${values} FROM ${table} WHERE id = ?1 RETURNING id`)
    .bind(id, ...Object.values(set))
    .first<{ id: number }>();
  return copied!.id;
}

/** A new listing like `listingId` (same tier, seller and price) with `stock` tickets. */
export async function clonedListing(listingId: number, stock: number): Promise<number> {
  const row = await env.DB.prepare(
    `INSERT INTO listings (tier_id, seller_id, price, currency, quantity_total, quantity_available, seating, delivery_types, status, created_at)
     SELECT tier_id, seller_id, price, currency, ?2, ?2, seating, delivery_types, 'active', created_at FROM listings WHERE id = ?1 RETURNING id`,
  )
    .bind(listingId, stock)
    .first<{ id: number }>();
  return row!.id;
}

/** D1's side of a listing: its stock, and its unpaid orders with the tickets they hold. */
export async function heldInD1(listingId: number) {
  const row = await env.DB.prepare(
    `SELECT l.quantity_available AS stock, (SELECT count(*) FROM orders o WHERE o.listing_id = l.id AND o.status = 'pending_payment') AS orders,
       (SELECT coalesce(sum(quantity), 0) FROM orders o WHERE o.listing_id = l.id AND o.status = 'pending_payment') AS held
     FROM listings l WHERE l.id = ?1`,
  )
    .bind(listingId)
    .first<{ stock: number; orders: number; held: number }>();
  return row!;
}

/**
 * An inventory object that accepted a hold (stored, its alarm set) and crashed before its batch
 * reached D1: the hold as the object stores it, unwritten.
 */
export async function storeUnwrittenHold(inventory: DurableObjectStub, accepted: OrderPlacement): Promise<void> {
  await runInDurableObject(inventory, async (_instance, state) => {
    state.storage.sql.exec(
      `INSERT INTO holds (key, listing_id, quantity, state, order_no, request_hash, payment_deadline, placement)
       VALUES (?, ?, 1, 'unwritten', ?, ?, ?, ?)`,
      `${accepted.userId}:${accepted.idempotencyKey}`,
      accepted.listingId,
      accepted.orderNo,
      accepted.requestHash,
      accepted.paymentDeadline,
      JSON.stringify(accepted),
    );
    await state.storage.setAlarm(Date.now());
  });
}

/** The tier and activity of a listing: what a placement names beside the listing. */
export async function showOfListing(listingId: number): Promise<{ tierId: number; activityId: number }> {
  const show = await env.DB.prepare(
    'SELECT t.id AS tierId, s.activity_id AS activityId FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id WHERE l.id = ?1',
  )
    .bind(listingId)
    .first<{ tierId: number; activityId: number }>();
  return show!;
}

/**
 * One buyer's order of `quantity` tickets of a listing of `source`'s session at face value, as checkout
 * hands it to the session's inventory object; `show` is the listing's tier and activity (showOfListing),
 * zeros where a test never writes the order to D1.
 */
export function inventoryPlacement(
  source: ETicketSource,
  listingId: number,
  buyer: number,
  key: string,
  quantity = 1,
  show = { tierId: 0, activityId: 0 },
): OrderPlacement {
  const now = Date.now();
  return {
    orderNo: newOrderNo(now),
    userId: buyer,
    listingId,
    ...show,
    sessionId: source.sessionId,
    quantity,
    currency: source.currency,
    fxPerHkdMicros: 1_000_000,
    unitPrice: source.faceValue,
    ticketAmount: source.faceValue * quantity,
    serviceFee: 0,
    postage: 0,
    couponDiscount: 0,
    total: source.faceValue * quantity,
    userCouponId: null,
    deliveryType: 'e_ticket',
    paymentMethod: 'visa',
    shippingAddress: null,
    takerName: null,
    takerPhone: null,
    paymentDeadline: now + PAYMENT_TIME_LIMIT_MS,
    idempotencyKey: key,
    requestHash: `hash-${key}`,
    sellerId: source.sellerId,
    createdAt: now,
    attendees: [],
    waitingRoomPass: null,
    // As checkout holds an order of a large listing to them.
    limits: {
      accountTicketCap: ACCOUNT_TICKET_CAP,
      unpaidTicketLimit: UNPAID_HOLD_LIMITS.accountTickets,
      listingUnpaidLimit: UNPAID_HOLD_LIMITS.accountTickets,
    },
  };
}

/** What a page's services read with for a signed-in user, as the edge builds it (English, HKD, Hong Kong). */
export async function userScope(userId: number) {
  const db = database(env.DB);
  const reference = await referenceData(db, Date.now(), null);
  return {
    db,
    ctx: { locale: 'en', currency: 'HKD', clientType: 12, cityId: 341 } as const,
    currencies: reference.currencyTable,
    reference,
    userId,
    now: Date.now(),
    env,
    onSales: durableOnSaleObjects(env),
  };
}
