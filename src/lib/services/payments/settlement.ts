/**
 * Bringing payments in line with their provider (DESIGN.md, Payments).
 *
 * State of one payment (ours, `payments.status`), always copied from what the provider answers:
 *
 *   created ──provider: succeeded──► succeeded ──order was not payable by it──► refunded
 *      │                                 └──seller failed / event cancelled / transfer no longer
 *      │                                    has the tickets (refundOrderPayment)──► refunded
 *      ├──provider: failed──► failed
 *      └──provider: cancelled──► cancelled
 *
 * A webhook or a poll only makes us ask the provider again (`syncPayment`). A succeeded payment
 * confirms its order with one guarded update (applyOrderEvent), so a second confirmation changes
 * nothing. Money that arrives for an order that can no longer take it (expired, cancelled, or paid
 * by another payment already) is refunded through the provider at once, never kept.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { listings, orders, payments, paymentWebhookEvents } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { paymentStatusOf, reportedMoneyMatches, type PaymentStatus } from '../../domain/payment-outcome.ts';
import type { ServiceEnv } from '../platform/env.ts';
import { expireOverdueOrders } from '../../data/order-expiry.ts';
import { applyOrderEvent } from '../orders/lifecycle.ts';
import { paymentProvider } from './providers/index.ts';
import type { PaymentProvider } from './providers/types.ts';
import { fulfilTransferOrder, type TransferReissue } from '../marketplace/transfer-reissue.ts';
import type { AfterWriteWork } from '../../data/after-write.ts';
import type { RequestScope } from '../platform/scope.ts';
import { orderRow, type PaymentRow } from './rows.ts';
import { refundOrderPayment, refundPayment } from './refunds.ts';
import { batch } from '../../data/batch.ts';

async function markPayment(db: Db, payment: PaymentRow, status: PaymentStatus, from: PaymentStatus[], now: number): Promise<void> {
  await db
    .update(payments)
    .set({ status, updatedAt: now })
    .where(and(eq(payments.id, payment.id), inArray(payments.status, from)));
}

/** The order is no longer "paying" once none of its payments is open. */
async function clearPayingWhenNoneOpen(db: Db, orderId: number, now: number): Promise<void> {
  await db.run(sql`
    UPDATE orders SET payment_substatus = NULL, updated_at = ${now}
    WHERE id = ${orderId} AND status = 'pending_payment'
      AND NOT EXISTS (SELECT 1 FROM payments WHERE order_id = ${orderId} AND status = 'created')`);
}

/** Whether another payment of the order has succeeded and was not refunded: that one paid for it. */
async function paidByAnother(db: Db, payment: PaymentRow): Promise<boolean> {
  const [other] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, payment.orderId), eq(payments.status, 'succeeded'), sql`${payments.id} <> ${payment.id}`))
    .limit(1);
  return other !== undefined;
}

/**
 * The provider says the money is in. Claim the payment as succeeded (guarded), then confirm the
 * order with a guarded transition that stamps the order with the payment's own paidAt, which is
 * how we later know which payment paid it. If the order cannot take the money — past its deadline,
 * cancelled, or paid by another payment (still kept, or since refunded) — the payment is refunded.
 * Repeating this is harmless: the claim and the transition apply once, and the payment that paid
 * its order is left alone.
 */
async function settleSucceeded(
  db: Db,
  env: ServiceEnv,
  provider: PaymentProvider,
  payment: PaymentRow,
  now: number,
  afterWrite: AfterWriteWork | null,
): Promise<void> {
  // One batch: the claim, then the payment and its order as they are after it.
  const {
    claimed: [claimed],
    claimedOrder: [claimedOrder],
  } = await batch(db, {
    claim: db
      .update(payments)
      .set({ status: 'succeeded', paidAt: now, updatedAt: now })
      .where(and(eq(payments.id, payment.id), eq(payments.status, 'created'))),
    claimed: db.select().from(payments).where(eq(payments.id, payment.id)),
    claimedOrder: db
      .select({ order: orders, transfer: sql<boolean>`${listings.sourceOrderId} IS NOT NULL`.mapWith(Boolean) })
      .from(orders)
      .leftJoin(listings, eq(listings.id, orders.listingId))
      .where(eq(orders.id, payment.orderId)),
  });
  if (claimed?.status !== 'succeeded') return;
  if (!claimedOrder) throw new DomainError('order_not_found');

  let order = claimedOrder.order;
  // Only a ticket transfer's order is reissued when paid; any other order is left to its seller.
  const reissue = () => (claimedOrder.transfer ? reissueTransferOrder(db, env, order.id, now) : null);
  if (order.status === 'pending_payment') {
    if (now >= order.paymentDeadline) {
      await expireOverdueOrders(db, now, { userId: order.userId });
    } else if (
      await applyOrderEvent(
        db,
        order.id,
        'payment_confirmed',
        now,
        { paymentSubstatus: null, paymentMethod: claimed.method, paidAt: claimed.paidAt },
        afterWrite,
      )
    ) {
      // A ticket transfer needs nothing from its seller: the tickets are reissued as soon as it is paid.
      await reissue();
      return;
    }
    order = await orderRow(db, payment.orderId);
  }
  if (order.status === 'pending_payment') return;
  if (order.status === 'cancelled') {
    await refundPayment(db, provider, claimed, claimed.amount, now, true);
  } else if ((await paidByAnother(db, claimed)) || order.paidAt !== claimed.paidAt) {
    await refundPayment(db, provider, claimed, claimed.amount, now, false);
  } else if (order.status === 'pending_ticketing') {
    // This payment paid the order: a transfer's reissue that failed after it (a D1 error) is retried.
    await reissue();
  }
}

/**
 * Reissues a paid transfer order's tickets; when its listing no longer has them, the attempt closed
 * the order as refunded and the payment is given back in full. Runs when the payment is confirmed,
 * on later syncs of that payment and from the scheduled sweep, so a reissue that failed after the
 * payment is finished later; repeating it changes nothing. Any other order is left alone. The call
 * that reissues tells the seller their tickets sold.
 */
export async function reissueTransferOrder(db: Db, env: ServiceEnv, orderId: number, now: number): Promise<TransferReissue> {
  const outcome = await fulfilTransferOrder(db, orderId, now);
  if (outcome === 'unavailable') await refundOrderPayment(db, env, orderId, (await orderRow(db, orderId)).total, now);
  return outcome;
}

/**
 * Asks the provider about a payment and brings our records (and the order) in line with its answer;
 * a request's after-write work may ride in the order's confirmation (applyOrderEvent).
 */
export async function syncPayment(
  db: Db,
  env: ServiceEnv,
  payment: PaymentRow,
  now: number,
  afterWrite: AfterWriteWork | null = null,
): Promise<void> {
  if (payment.status !== 'created' && payment.status !== 'succeeded') return;
  const provider = paymentProvider(payment.provider, db, env);
  const remote = await provider.query(payment.providerRef);
  if (!remote) return;
  const reported = paymentStatusOf(remote.status);
  if (reported === 'succeeded') {
    const recorded = { amount: payment.amount, currency: payment.currency };
    if (!reportedMoneyMatches(recorded, remote.amount)) {
      // Never paid on money other than the order's; the payment stays open for someone to look at.
      console.error('Payment not settled: the provider reports other money', {
        paymentId: payment.id,
        provider: payment.provider,
        ref: payment.providerRef,
        recorded,
        reported: remote.amount,
      });
      return;
    }
    await settleSucceeded(db, env, provider, payment, now, afterWrite);
  } else if (reported === 'failed' || reported === 'cancelled') {
    await markPayment(db, payment, reported, ['created'], now);
    await clearPayingWhenNoneOpen(db, payment.orderId, now);
  } else if (reported === 'refunded') {
    await markPayment(db, payment, 'refunded', ['created', 'succeeded'], now);
  }
}

/** Re-checks every payment of an order that may still change: open ones, and succeeded ones not yet settled. */
export async function syncOrderPayments(db: Db, env: ServiceEnv, orderId: number, now: number): Promise<void> {
  const live = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), inArray(payments.status, ['created', 'succeeded'])))
    .orderBy(payments.id);
  for (const payment of live) await syncPayment(db, env, payment, now);
}

/**
 * A provider's webhook: verified (signature, age), taken once per event id, and then only a
 * trigger to ask the provider again. A replayed event is acknowledged and changes nothing.
 */
export async function receiveWebhook(
  scope: RequestScope,
  providerName: string,
  headers: Headers,
  body: string,
  afterWrite: AfterWriteWork | null = null,
): Promise<{ duplicate: boolean }> {
  const { db, env, now } = scope;
  const provider = paymentProvider(providerName, db, env);
  const notice = await provider.verifyWebhook(headers, body, now);
  // One batch: the event taken (once per id), and the payment it names.
  const {
    taken,
    payment: [payment],
  } = await batch(db, {
    taken: db
      .insert(paymentWebhookEvents)
      .values({ eventId: notice.eventId, provider: provider.name, receivedAt: now })
      .onConflictDoNothing(),
    payment: db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, provider.name), eq(payments.providerRef, notice.ref ?? ''))),
  });
  if (taken.meta.changes !== 1) return { duplicate: true };
  if (notice.ref === null) return { duplicate: false };
  try {
    if (payment) await syncPayment(db, env, payment, now, afterWrite);
  } catch (error) {
    // Let the provider's retry of this event be handled rather than ignored as a replay.
    await db.delete(paymentWebhookEvents).where(eq(paymentWebhookEvents.eventId, notice.eventId));
    throw error;
  }
  return { duplicate: false };
}
