/**
 * A session's refund preview: before an operator cancels or postpones it, what each paid order's
 * buyer paid and gets back (domain/show-changes.ts `showChangeRefund`, the rule the cancellation
 * itself applies), the totals per currency, and how many unpaid orders would close.
 */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { orders, users } from '../../db/schema.ts';
import { formattedMoney, type FormattedMoney } from '../../domain/money.ts';
import { maskedContact, maskedName, refundTotals } from '../../domain/refund-preview.ts';
import { showChangeRefund, type SessionStatus } from '../../domain/show-changes.ts';
import type { RequestScope } from '../platform/scope.ts';
import { PAID_STATUSES } from './show-changes.ts';
import { sessionRow } from './show-query.ts';

/** The orders a preview lists one by one; the totals count every order. */
export const REFUND_PREVIEW_LISTED = 200;

export interface RefundPreviewLine {
  orderNo: string;
  buyer: string;
  contact: string | null;
  quantity: number;
  paid: FormattedMoney;
  refund: FormattedMoney;
}

export interface RefundPreview {
  sessionId: number;
  status: SessionStatus;
  /** The first REFUND_PREVIEW_LISTED paid orders, oldest first. */
  orders: RefundPreviewLine[];
  paidOrders: number;
  totals: { currency: string; orders: number; paid: FormattedMoney; refund: FormattedMoney }[];
  /** Orders waiting for payment: a cancellation closes them and gives their tickets back. */
  unpaidOrders: number;
}

export async function refundPreview(scope: RequestScope, sessionId: number): Promise<RefundPreview> {
  const { db, ctx, currencies } = scope;
  const session = await sessionRow(db, sessionId);
  const paid = and(eq(orders.sessionId, sessionId), inArray(orders.status, [...PAID_STATUSES]));
  const [amounts, listed, unpaid] = await Promise.all([
    db
      .select({ currency: orders.currency, total: orders.total, serviceFee: orders.serviceFee, postage: orders.postage })
      .from(orders)
      .where(paid),
    db
      .select({
        orderNo: orders.orderNo,
        quantity: orders.quantity,
        currency: orders.currency,
        total: orders.total,
        serviceFee: orders.serviceFee,
        postage: orders.postage,
        nickname: users.nickname,
        phone: users.phone,
        email: users.email,
      })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(paid)
      .orderBy(asc(orders.id))
      .limit(REFUND_PREVIEW_LISTED),
    db
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.sessionId, sessionId), eq(orders.status, 'pending_payment'))),
  ]);
  const money = (amount: number, currency: string) => formattedMoney(amount, currency, ctx.locale, currencies);
  return {
    sessionId,
    status: session.status,
    orders: listed.map((order) => ({
      orderNo: order.orderNo,
      buyer: maskedName(order.nickname),
      contact: maskedContact(order),
      quantity: order.quantity,
      paid: money(order.total, order.currency),
      refund: money(showChangeRefund(order), order.currency),
    })),
    paidOrders: amounts.length,
    totals: refundTotals(amounts).map((total) => ({
      currency: total.currency,
      orders: total.orders,
      paid: money(total.paid, total.currency),
      refund: money(total.refund, total.currency),
    })),
    unpaidOrders: unpaid[0]?.n ?? 0,
  };
}
