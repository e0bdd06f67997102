/** What the payment page polls and shows: the order's payment state, asked of the provider first, and the order. */
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { payments } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import type { OrderStatus } from '../../domain/order-state.ts';
import { parseOrderId } from '../../domain/order-pages.ts';
import type { PaymentStatus } from '../../domain/payment-outcome.ts';
import { expireOverdueOrders } from '../../data/order-expiry.ts';
import type { OrderDetail } from '../orders/presenters.ts';
import { findOwnOrder, orderDetail } from '../orders/queries.ts';
import type { UserScope } from '../platform/scope.ts';
import { orderRow, type PaymentRow } from './rows.ts';
import { syncOrderPayments } from './settlement.ts';

/** What the payment page polls. */
export interface PaymentState {
  orderStatus: OrderStatus;
  paymentSubstatus: 'paying' | 'confirming' | null;
  /** The order's latest payment attempt, if any. */
  paymentId: number | null;
  paymentStatus: PaymentStatus | null;
  deadline: number;
}

/** The order's most recent payment attempt. */
export async function latestPayment(db: Db, orderId: number): Promise<PaymentRow | null> {
  const [row] = await db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(desc(payments.id)).limit(1);
  return row ?? null;
}

/**
 * The order's payment state for the payment page: the provider is asked about the order's
 * payments first, then overdue orders expire, so what is answered is current.
 */
export async function paymentState(scope: UserScope, orderId: number): Promise<PaymentState> {
  const { db, env, userId, now } = scope;
  const order = await findOwnOrder(db, userId, orderId);
  await syncOrderPayments(db, env, order.id, now);
  await expireOverdueOrders(db, now, { userId });
  const current = await orderRow(db, order.id);
  const latest = await latestPayment(db, order.id);
  return {
    orderStatus: current.status,
    paymentSubstatus: current.status === 'pending_payment' ? current.paymentSubstatus : null,
    paymentId: latest?.id ?? null,
    paymentStatus: latest?.status ?? null,
    deadline: current.paymentDeadline,
  };
}

export interface PaymentPageData {
  state: PaymentState;
  order: OrderDetail;
}

/**
 * What the payment page and the outcome pages show: the payment state (the provider asked first)
 * and the order. Null when the id is malformed, unknown or someone else's order (the 404 page).
 */
export async function paymentPageData(scope: UserScope, rawOrderId: string | null | undefined): Promise<PaymentPageData | null> {
  const orderId = parseOrderId(rawOrderId);
  if (orderId === null) return null;
  try {
    const state = await paymentState(scope, orderId);
    return { state, order: await orderDetail(scope, orderId) };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'order_not_found') return null;
    throw error;
  }
}
