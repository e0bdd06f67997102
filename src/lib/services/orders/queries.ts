/**
 * Reading a buyer's orders: one order with everything its detail page shows, and a page of orders
 * under a tab. Reads close overdue unpaid orders first, so no one sees a hold that has run out.
 */
import { and, desc, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import { ORDER_PAGE_SIZE } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { activities, listingTickets, orderAttendees, orders, tickets } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import type { OrderTab } from '../../domain/order-state.ts';
import { orderWithShowQuery, type OrderWithShowRow } from '../show-query.ts';
import { voucherUrl } from '../voucher-link.ts';
import { expireOverdueOrders } from './expiry.ts';
import { orderDetailView, orderSummaryView, type OrderDetail, type OrderPage } from './presenters.ts';
import type { RequestScope, UserScope } from '../scope.ts';

export type OrderRow = typeof orders.$inferSelect;

/** Whether the user has paid for any order: coupons and invitations for new users ask. */
export async function hasPaidOrder(db: Db, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), isNotNull(orders.paidAt)))
    .limit(1);
  return row !== undefined;
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

async function loadOrderDetail(scope: RequestScope, row: OrderWithShowRow): Promise<OrderDetail> {
  const { db, env, ctx, currencies: table, now } = scope;
  const [attendeeRows, ticketRows] = await Promise.all([
    db.select().from(orderAttendees).where(eq(orderAttendees.orderId, row.order.id)).orderBy(orderAttendees.id),
    db.select().from(tickets).where(eq(tickets.orderId, row.order.id)).orderBy(tickets.id),
  ]);
  const listed = new Set(
    ticketRows.length === 0
      ? []
      : (
          await db
            .select({ ticketId: listingTickets.ticketId })
            .from(listingTickets)
            .where(
              and(
                inArray(
                  listingTickets.ticketId,
                  ticketRows.map((ticket) => ticket.id),
                ),
                eq(listingTickets.active, true),
              ),
            )
        ).map((link) => link.ticketId),
  );
  const voucher = ticketRows.length > 0 ? await voucherUrl(env, row.order.orderNo) : null;
  return orderDetailView(row, { attendeeRows, ticketRows, listed, voucherUrl: voucher }, ctx.locale, table, now);
}

/** The detail of an order already found (a checkout answering with the order it created). */
export async function orderDetailOf(scope: RequestScope, order: OrderRow): Promise<OrderDetail> {
  const [row] = await orderWithShowQuery(scope.db).where(eq(orders.id, order.id));
  return loadOrderDetail(scope, row);
}

/** One of the buyer's orders with everything the detail page shows. */
export async function orderDetail(scope: UserScope, orderId: number): Promise<OrderDetail> {
  const { db, userId, now } = scope;
  await expireOverdueOrders(db, now, { userId });
  const [row] = await orderWithShowQuery(db).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!row) throw new DomainError('order_not_found');
  return loadOrderDetail(scope, row);
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
