/** Giving money back through a payment's provider: for an order that cannot keep it, and again for refunds still owed. */
import { and, eq, inArray, lt } from 'drizzle-orm';
import { REFUND_RETRY_AFTER_MS } from '../../config/orders.ts';
import type { Db } from '../../data/client.ts';
import { orders, payments } from '../../db/schema.ts';
import type { Money } from '../../domain/money.ts';
import type { ServiceEnv } from '../platform/env.ts';
import { paymentProvider } from './providers/index.ts';
import type { PaymentProvider } from './providers/types.ts';
import type { PaymentRow } from './rows.ts';
import { rawBatch } from '../../data/batch.ts';

/**
 * Gives a succeeded payment back through the provider and records it. When the order it paid for
 * was closed, the order shows the refund too (in the same batch, only if this call made the refund).
 */
export async function refundPayment(
  db: Db,
  provider: PaymentProvider,
  payment: PaymentRow,
  amount: number,
  now: number,
  orderClosed: boolean,
): Promise<void> {
  await provider.refund(payment.providerRef, { amount, currency: payment.currency }, now);
  // Raw D1 statements: the order's update must see `changes()` of the payment's, which only plain SQL can say.
  const d1 = db.$client;
  const markRefunded = d1
    .prepare("UPDATE payments SET status = 'refunded', refunded_at = ?1, updated_at = ?1 WHERE id = ?2 AND status = 'succeeded'")
    .bind(now, payment.id);
  if (!orderClosed) {
    await markRefunded.run();
    return;
  }
  const showOnOrder = d1
    .prepare(
      "UPDATE orders SET refund_amount = refund_amount + ?1, updated_at = ?2 WHERE id = ?3 AND status = 'cancelled' AND changes() = 1",
    )
    .bind(amount, now, payment.orderId);
  await rawBatch(d1, { markRefunded, showOnOrder });
}

/**
 * Refunds `amount` (minor units of the order's currency) of the payment that paid an order, through
 * its provider, and marks the payment refunded. Fulfilment calls it when a seller fails to deliver.
 * Answers the money refunded, or null when the order has no succeeded payment (nothing to give back).
 */
export async function refundOrderPayment(db: Db, env: ServiceEnv, orderId: number, amount: number, now: number): Promise<Money | null> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'succeeded')))
    .orderBy(payments.paidAt, payments.id)
    .limit(1);
  if (!payment || amount <= 0) return null;
  if (!Number.isInteger(amount) || amount > payment.amount) {
    throw new Error(`Cannot refund ${amount} of payment ${payment.id} (${payment.amount} ${payment.currency})`);
  }
  await refundPayment(db, paymentProvider(payment.provider, db, env), payment, amount, now, false);
  return { amount, currency: payment.currency };
}

/**
 * Gives back money still held for orders that can no longer keep it: a refunded order whose refund
 * call failed (or never ran: the worker stopped after the state change), and a cancelled order a
 * late payment was not refunded for. Run by the sweep, only for closes older than
 * REFUND_RETRY_AFTER_MS; provider refunds are idempotent, so a refund that did reach the provider
 * is only recorded. Each payment is tried on its own; one that keeps failing is logged. Answers how
 * many were refunded now.
 */
export async function retryOwedRefunds(db: Db, env: ServiceEnv, now: number): Promise<number> {
  const settledBefore = now - REFUND_RETRY_AFTER_MS;
  const owed = await db
    .select({ payment: payments, orderStatus: orders.status, refundAmount: orders.refundAmount })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(
      and(
        eq(payments.status, 'succeeded'),
        inArray(orders.status, ['refunded', 'cancelled']),
        lt(orders.updatedAt, settledBefore),
        lt(payments.updatedAt, settledBefore),
      ),
    );
  let refunded = 0;
  for (const { payment, orderStatus, refundAmount } of owed) {
    const closed = orderStatus === 'cancelled';
    // A refunded order says how much it gives back; a cancelled one was never paid, so all of it.
    const amount = closed ? payment.amount : Math.min(payment.amount, refundAmount > 0 ? refundAmount : payment.amount);
    try {
      await refundPayment(db, paymentProvider(payment.provider, db, env), payment, amount, now, closed);
      refunded += 1;
    } catch (error) {
      console.error(
        JSON.stringify({ event: 'refund_retry_failed', paymentId: payment.id, orderId: payment.orderId, error: String(error) }),
      );
    }
  }
  return refunded;
}
