/**
 * The seller's side of an order: the orders to fulfil, marking one ticketed (e-tickets with entry
 * codes, a courier shipment with its tracking number, or pickup details) and reporting that it
 * cannot be delivered, which refunds the buyer and grants the guarantee's compensation coupon.
 *
 * A seller is a user flagged as one or who owns listings; an order is the seller's when its
 * `seller_id` is theirs, and anyone else's order is answered like a missing one.
 */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { COMPENSATION_COUPON_DAYS, ORDER_PAGE_SIZE } from '../../config/orders.ts';
import type { DeliveryType } from '../../domain/delivery.ts';
import type { Db } from '../../data/client.ts';
import { activitySessions, listings, orders, tickets, users } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { fulfilmentProblem, type FulfilmentInput } from '../../domain/fulfilment.ts';
import { formattedMoney, type CurrencyTable, type FormattedMoney } from '../../domain/money.ts';
import type { OrderStatus } from '../../domain/order-state.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import { ticketNumbers } from '../../domain/ticket-code.ts';
import { translator } from '../../i18n/index.ts';
import { localizedName, type Locale } from '../../i18n/locales.ts';
import { refundOrderPayment } from '../payments/refunds.ts';
import { orderWithShowQuery, type OrderWithShowRow } from '../catalogue/show-query.ts';
import { requireOrderEvent } from '../orders/lifecycle.ts';
import type { OrderRow } from '../orders/queries.ts';
import { newEntryNonce } from '../gate/entry-secrets.ts';
import type { UserScope } from '../platform/scope.ts';
import { rawBatch } from '../../data/batch.ts';

const DAY_MS = 24 * 3600 * 1000;
/** Locales whose catalogues name the compensation coupon in its three stored scripts. */
const COUPON_NAME_LOCALES = { en: 'en', zhHant: 'zh-HK', zhHans: 'zh-CN' } as const satisfies Record<string, Locale>;

export type SellerOrderFilter = OrderStatus | 'all';

export interface SellerOrder {
  id: number;
  orderNo: string;
  status: OrderStatus;
  createdAt: number;
  paidAt: number | null;
  ticketedAt: number | null;
  activity: { id: number; name: string; venueName: string; cityName: string };
  session: { startsAt: number; label: string };
  tier: { name: string };
  quantity: number;
  deliveryType: DeliveryType;
  ticketAmount: FormattedMoney;
  /** Who receives the tickets: the shipping address of a courier order, the taker of a pickup. */
  shippingAddress: { name: string; phone: string; text: string } | null;
  taker: { name: string; phone: string } | null;
  trackingNo: string | null;
  pickup: { address: string; time: number } | null;
  tickets: Array<{ ticketNo: string; seat: string | null; status: (typeof tickets.$inferSelect)['status'] }>;
  refund: FormattedMoney | null;
}

export interface SellerOrderPage {
  items: SellerOrder[];
  page: number;
  pageSize: number;
  total: number;
  hasMore: boolean;
}

/**
 * Orders the seller delivers themselves. A ticket holder's transfer listing is not among them: the
 * platform reissues its tickets on payment (transfer-reissue.ts), so its seller can neither
 * fulfil nor fail the buyer's order (failing it would refund the buyer and leave the payout).
 */
const sellerDelivered = sql`NOT EXISTS (SELECT 1 FROM ${listings} WHERE ${listings.id} = ${orders.listingId} AND ${listings.sourceOrderId} IS NOT NULL)`;

/** The user, if they are a seller (flagged, or owning a listing other than a transfer listing); anyone else is a 403. */
export async function requireSeller(scope: UserScope): Promise<void> {
  const { db, userId } = scope;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, userId),
        sql`(${users.isSeller} = 1 OR EXISTS (
      SELECT 1 FROM ${listings} WHERE ${listings.sellerId} = ${users.id} AND ${listings.sourceOrderId} IS NULL))`,
      ),
    );
  if (!row) throw new DomainError('not_a_seller');
}

function viewOf(row: OrderWithShowRow, ticketRows: (typeof tickets.$inferSelect)[], locale: Locale, table: CurrencyTable): SellerOrder {
  const { order, activity, venue, city, session, tier } = row;
  const shipping = order.shippingAddress ? (JSON.parse(order.shippingAddress) as { name: string; phone: string; text: string }) : null;
  return {
    id: order.id,
    orderNo: order.orderNo,
    status: order.status,
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    ticketedAt: order.ticketedAt,
    activity: {
      id: activity.id,
      name: localizedName(activity, locale),
      venueName: localizedName(venue, locale),
      cityName: localizedName(city, locale),
    },
    session: { startsAt: session.startsAt, label: formatSessionTime(session.startsAt, locale, city.timeZone) },
    tier: { name: localizedName(tier, locale) },
    quantity: order.quantity,
    deliveryType: order.deliveryType as DeliveryType,
    ticketAmount: formattedMoney(order.ticketAmount, order.currency, locale, table),
    shippingAddress: shipping ? { name: shipping.name, phone: shipping.phone, text: shipping.text } : null,
    taker: order.takerName && order.takerPhone ? { name: order.takerName, phone: order.takerPhone } : null,
    trackingNo: order.trackingNo,
    pickup: order.pickupAddress && order.pickupTime !== null ? { address: order.pickupAddress, time: order.pickupTime } : null,
    tickets: ticketRows.map((ticket) => ({ ticketNo: ticket.ticketNo, seat: ticket.seat, status: ticket.status })),
    refund: order.refundAmount > 0 ? formattedMoney(order.refundAmount, order.currency, locale, table) : null,
  };
}

async function ticketsByOrder(db: Db, orderIds: number[]): Promise<Map<number, (typeof tickets.$inferSelect)[]>> {
  const byOrder = new Map<number, (typeof tickets.$inferSelect)[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db.select().from(tickets).where(inArray(tickets.orderId, orderIds)).orderBy(asc(tickets.id));
  for (const row of rows) byOrder.set(row.orderId, [...(byOrder.get(row.orderId) ?? []), row]);
  return byOrder;
}

async function sellerOrderRow(db: Db, sellerId: number, orderId: number): Promise<OrderWithShowRow> {
  const [row] = await orderWithShowQuery(db).where(and(eq(orders.id, orderId), eq(orders.sellerId, sellerId), sellerDelivered));
  if (!row) throw new DomainError('order_not_found');
  return row;
}

async function sellerOrderView(db: Db, locale: Locale, table: CurrencyTable, sellerId: number, orderId: number): Promise<SellerOrder> {
  const row = await sellerOrderRow(db, sellerId, orderId);
  const ticketRows = (await ticketsByOrder(db, [orderId])).get(orderId) ?? [];
  return viewOf(row, ticketRows, locale, table);
}

/**
 * A page of the seller's orders in one state (or all), the most urgent first: the soonest show,
 * then the oldest order, so the queue of pending ticketing reads top-down.
 */
export async function listSellerOrders(scope: UserScope, query: { status: SellerOrderFilter; page: number }): Promise<SellerOrderPage> {
  const { db, currencies: table, userId: sellerId } = scope;
  const { locale } = scope.ctx;
  const conditions: SQL[] = [eq(orders.sellerId, sellerId), sellerDelivered];
  if (query.status !== 'all') conditions.push(eq(orders.status, query.status));
  const where = and(...conditions);
  const offset = (query.page - 1) * ORDER_PAGE_SIZE;
  const [rows, [{ total }]] = await Promise.all([
    orderWithShowQuery(db).where(where).orderBy(asc(activitySessions.startsAt), asc(orders.id)).limit(ORDER_PAGE_SIZE).offset(offset),
    db.select({ total: sql<number>`count(*)` }).from(orders).where(where),
  ]);
  const ticketRows = await ticketsByOrder(
    db,
    rows.map((row) => row.order.id),
  );
  return {
    items: rows.map((row) => viewOf(row, ticketRows.get(row.order.id) ?? [], locale, table)),
    page: query.page,
    pageSize: ORDER_PAGE_SIZE,
    total,
    hasMore: offset + rows.length < total,
  };
}

function ticketedChanges(input: FulfilmentInput): Partial<OrderRow> {
  if (input.method === 'courier') return { trackingNo: input.trackingNo };
  if (input.method === 'pickup') return { pickupAddress: input.pickupAddress!.trim(), pickupTime: input.pickupTime };
  return {};
}

/**
 * Marks an order ticketed: its tickets are written (each e-ticket with the entry nonce its rotating
 * entry code comes from; a paper ticket's entry is the paper itself), then the order moves on with
 * one guarded update. The tickets are only written while the order is pending ticketing, and their numbers
 * come from the order number, so a concurrent fulfilment cannot add a second set, only one request
 * moves the order (the other is a 409), and a retry after a failure between the two steps finishes
 * the job with the tickets already written.
 */
export async function fulfilOrder(scope: UserScope, orderId: number, input: FulfilmentInput): Promise<SellerOrder> {
  const { db, currencies: table, userId: sellerId, now } = scope;
  const { locale } = scope.ctx;
  const { order, session } = await sellerOrderRow(db, sellerId, orderId);
  const problem = fulfilmentProblem(input, {
    deliveryType: order.deliveryType as DeliveryType,
    quantity: order.quantity,
    sessionStartsAt: session.startsAt,
  });
  if (problem) throw new DomainError(problem.problem, { quantity: order.quantity }, problem.field);
  if (order.status !== 'pending_ticketing') throw new DomainError('order_state_conflict');

  const numbers = ticketNumbers(order.orderNo, order.quantity);
  const entryNonces = numbers.map(() => (input.method === 'e_ticket' ? newEntryNonce() : null));
  const d1 = db.$client;
  const writes = numbers.map((ticketNo, index) =>
    d1
      .prepare(`
    INSERT INTO tickets (order_id, ticket_no, entry_nonce, seat, status, updated_at)
    SELECT ?1, ?2, ?3, ?4, 'valid', ?5 WHERE EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND status = 'pending_ticketing')
    ON CONFLICT (ticket_no) DO NOTHING`)
      .bind(order.id, ticketNo, entryNonces[index], input.seats?.[index] ?? null, now),
  );
  await rawBatch(d1, { writes });
  await requireOrderEvent(db, order.id, 'ticketed', now, ticketedChanges(input));
  return sellerOrderView(db, locale, table, sellerId, orderId);
}

/**
 * Reports that the seller cannot deliver. The guarded state change decides the one request that
 * acts; it then voids the tickets, grants the buyer a coupon worth the ticket amount (the
 * guarantee's 1:1 compensation, in the order's currency) and refunds the payment in full (or, if
 * the provider cannot be reached, leaves that to the scheduled sweep).
 */
export async function failOrder(scope: UserScope, orderId: number, reason: string): Promise<SellerOrder> {
  const { db, currencies: table, userId: sellerId, now } = scope;
  const { locale } = scope.ctx;
  const { order } = await sellerOrderRow(db, sellerId, orderId);
  await requireOrderEvent(db, order.id, 'seller_failed', now, { refundAmount: order.total });
  // There is no column for it: the reason goes to the log, where support looks a failed order up.
  console.info('Seller failed to deliver', JSON.stringify({ orderNo: order.orderNo, sellerId, reason }));

  const code = `COMP-${order.orderNo}`;
  const name = (target: Locale) => translator(target)('voucher.compensationCoupon', { orderNo: order.orderNo });
  const d1 = db.$client;
  await rawBatch(d1, {
    voidTickets: d1
      .prepare(`UPDATE tickets SET status = 'invalid', updated_at = ?2 WHERE order_id = ?1 AND status IN ('pending', 'valid')`)
      .bind(order.id, now),
    compensation: d1
      .prepare(`
      INSERT INTO coupons (code, name_en, name_zh_hant, name_zh_hans, kind, amount, currency, min_spend, valid_from, valid_to, purpose)
      VALUES (?1, ?2, ?3, ?4, 'amount', ?5, ?6, 0, ?7, ?8, 'compensation')
      ON CONFLICT (code) DO NOTHING`)
      .bind(
        code,
        name(COUPON_NAME_LOCALES.en),
        name(COUPON_NAME_LOCALES.zhHant),
        name(COUPON_NAME_LOCALES.zhHans),
        order.ticketAmount,
        order.currency,
        now,
        now + COMPENSATION_COUPON_DAYS * DAY_MS,
      ),
    grant: d1
      .prepare(`
      INSERT INTO user_coupons (user_id, coupon_id, status, created_at)
      SELECT ?1, id, 'unused', ?2 FROM coupons WHERE code = ?3 AND changes() = 1`)
      .bind(order.userId, now, code),
  });
  try {
    await refundOrderPayment(db, scope.env, order.id, order.total, now);
  } catch (error) {
    // The order is failed either way; money the provider did not take back now, the sweep gives back later (retryOwedRefunds).
    console.error(JSON.stringify({ event: 'refund_deferred', orderNo: order.orderNo, error: String(error) }));
  }
  return sellerOrderView(db, locale, table, sellerId, orderId);
}
