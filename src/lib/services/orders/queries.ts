/**
 * Reading a buyer's orders: one order with everything its detail page shows, and a page of orders
 * under a tab. Reads close overdue unpaid orders first, so no one sees a hold that has run out.
 */
import { and, desc, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import { ORDER_PAGE_SIZE } from '../../config/orders.ts';
import type { BatchAnswers } from '../../data/batch.ts';
import type { Db } from '../../data/client.ts';
import { type Bound, compiledSelect } from '../../data/compiled-select.ts';
import { read, readOne, type Read } from '../../data/read-together.ts';
import { activities, listingTickets, orderAttendees, orders, tickets } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import type { OrderTab } from '../../domain/order-state.ts';
import { orderWithShowQuery, type OrderWithShowRow } from '../catalogue/show-query.ts';
import { voucherUrl } from './voucher-link.ts';
import { expireOverdueOrders, expireOverdueOrdersStatement } from '../../data/order-expiry.ts';
import { orderDetailView, orderSummaryView, type OrderDetail, type OrderPage } from './presenters.ts';
import type { ClaimedUserScope, RequestScope, UserScope } from '../platform/scope.ts';
import { confirmedClaim, readSignedIn } from '../accounts/signed-in.ts';

export type OrderRow = typeof orders.$inferSelect;

/** Whether the user has paid for any order: coupons and invitations for new users ask. */
export function hasPaidOrderStatement(db: Db, userId: number) {
  return db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), isNotNull(orders.paidAt)))
    .limit(1);
}

export async function hasPaidOrder(db: Db, userId: number): Promise<boolean> {
  return (await hasPaidOrderStatement(db, userId)).length > 0;
}

/** The buyer's own order; anyone else's is answered like a missing one. */
export async function findOwnOrder(db: Db, userId: number, orderId: number): Promise<OrderRow> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!row) throw new DomainError('order_not_found');
  return row;
}

export interface LoadedOrder {
  row: OrderWithShowRow;
  attendeeRows: (typeof orderAttendees.$inferSelect)[];
  ticketRows: (typeof tickets.$inferSelect)[];
  /** Tickets of the order offered for resale now. */
  listed: Set<number>;
}

/** The selects of the order `where` picks: with its show, its attendees, its tickets, and which of them are listed for resale. */
function orderSelects(db: Db, where: SQL) {
  const orderIds = db.select({ id: orders.id }).from(orders).where(where);
  const ticketIds = db.select({ id: tickets.id }).from(tickets).where(inArray(tickets.orderId, orderIds));
  return {
    order: orderWithShowQuery(db).where(where),
    attendees: db.select().from(orderAttendees).where(inArray(orderAttendees.orderId, orderIds)).orderBy(orderAttendees.id),
    tickets: db.select().from(tickets).where(inArray(tickets.orderId, orderIds)).orderBy(tickets.id),
    listed: db
      .select({ ticketId: listingTickets.ticketId })
      .from(listingTickets)
      .where(and(inArray(listingTickets.ticketId, ticketIds), eq(listingTickets.active, true))),
  };
}

type OrderSelects = ReturnType<typeof orderSelects>;

function loadedOrder({
  order: [row],
  attendees: attendeeRows,
  tickets: ticketRows,
  listed,
}: BatchAnswers<OrderSelects>): LoadedOrder | null {
  return row ? { row, attendeeRows, ticketRows, listed: new Set(listed.map((link) => link.ticketId)) } : null;
}

/** The order `where` picks, with its show, attendees, tickets and which of them are listed for resale: one batch. */
function orderRead(db: Db, where: SQL): Read<LoadedOrder | null> {
  return read(orderSelects(db, where), loadedOrder);
}

// A buyer's own order is read after every payment and on every order page: its four selects' SQL
// (the first a hundred columns long) is built once per isolate (data/compiled-select.ts).
type OwnOrder = { orderId: number; userId: number };
const ownOrderNames = ['orderId', 'userId'] as const;
const ownOrderWhere = (values: { orderId: Bound<number>; userId: Bound<number> }) =>
  and(eq(orders.id, values.orderId), eq(orders.userId, values.userId)) as SQL;
const ownOrderRow = compiledSelect<OwnOrder, OrderSelects['order']>(
  ownOrderNames,
  (db, values) => orderSelects(db, ownOrderWhere(values)).order,
);
const ownOrderAttendees = compiledSelect<OwnOrder, OrderSelects['attendees']>(
  ownOrderNames,
  (db, values) => orderSelects(db, ownOrderWhere(values)).attendees,
);
const ownOrderTickets = compiledSelect<OwnOrder, OrderSelects['tickets']>(
  ownOrderNames,
  (db, values) => orderSelects(db, ownOrderWhere(values)).tickets,
);
const ownOrderListed = compiledSelect<OwnOrder, OrderSelects['listed']>(
  ownOrderNames,
  (db, values) => orderSelects(db, ownOrderWhere(values)).listed,
);

/** The buyer's own order, as orderRead reads it. */
function ownOrderRead(db: Db, values: OwnOrder): Read<LoadedOrder | null> {
  return read(
    {
      order: ownOrderRow(db, values),
      attendees: ownOrderAttendees(db, values),
      tickets: ownOrderTickets(db, values),
      listed: ownOrderListed(db, values),
    },
    loadedOrder,
  );
}

/** The detail view of an order's rows (voucher link included once it has tickets). */
export async function orderDetailFrom(scope: RequestScope, loaded: LoadedOrder): Promise<OrderDetail> {
  const { row, ticketRows } = loaded;
  const voucher = ticketRows.length > 0 ? await voucherUrl(scope.env, row.order.orderNo) : null;
  return orderDetailView(row, { ...loaded, voucherUrl: voucher }, scope.ctx.locale, scope.currencies, scope.now);
}

/** The detail of the order with this number, in one round trip (a checkout answering with the order it created). */
export async function orderDetailByNo(scope: RequestScope, orderNo: string): Promise<OrderDetail> {
  const loaded = await readOne(scope.db, orderRead(scope.db, eq(orders.orderNo, orderNo)));
  if (!loaded) throw new DomainError('order_not_found');
  return orderDetailFrom(scope, loaded);
}

/** One of the buyer's orders with everything the detail page shows; overdue unpaid orders close first, in the same batch. */
export async function orderDetail(scope: UserScope, orderId: number): Promise<OrderDetail> {
  return claimedOrderDetail(confirmedClaim(scope), orderId);
}

/** `orderDetail` for a claimed sign-in: the session is read in the same batch (one round trip, as the order's read is the request's only one). */
export async function claimedOrderDetail(claimed: ClaimedUserScope, orderId: number): Promise<OrderDetail> {
  const { scope, rows } = await readSignedIn(claimed, ({ db, userId, now }) => ({
    expired: read({ expired: expireOverdueOrdersStatement(db, now, { userId }) }, () => null),
    loaded: ownOrderRead(db, { orderId, userId }),
  }));
  if (!rows.loaded) throw new DomainError('order_not_found');
  return orderDetailFrom(scope, rows.loaded);
}

/** A page of the buyer's orders under a tab, newest first; the keyword matches the order number or the show. */
export async function listOrders(scope: UserScope, query: { tab: OrderTab; keyword: string; page: number }): Promise<OrderPage> {
  const { db, ctx, currencies: table, userId, now } = scope;
  await expireOverdueOrders(db, now, { userId });
  const conditions: SQL[] = [eq(orders.userId, userId)];
  if (query.tab !== 'all') conditions.push(eq(orders.status, query.tab));
  const keyword = query.keyword.trim();
  if (keyword !== '') {
    // instr, not LIKE: D1 refuses LIKE patterns over 50 bytes (17 Chinese characters), and a
    // keyword's % or _ must not act as wildcards anyway.
    const needle = keyword.toLowerCase();
    const matches = [orders.orderNo, activities.nameEn, activities.nameZhHant, activities.nameZhHans].map(
      (column) => sql`instr(lower(${column}), ${needle}) > 0`,
    );
    conditions.push(or(...matches)!);
  }
  const where = and(...conditions);
  const offset = (query.page - 1) * ORDER_PAGE_SIZE;
  const [rows, [{ total }]] = await Promise.all([
    orderWithShowQuery(db).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).limit(ORDER_PAGE_SIZE).offset(offset),
    db.select({ total: sql<number>`count(*)` }).from(orders).innerJoin(activities, eq(activities.id, orders.activityId)).where(where),
  ]);
  return {
    items: rows.map((row) => orderSummaryView(row, ctx.locale, table, now)),
    page: query.page,
    pageSize: ORDER_PAGE_SIZE,
    total,
    hasMore: offset + rows.length < total,
  };
}
