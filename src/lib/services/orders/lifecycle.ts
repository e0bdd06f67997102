/**
 * Every change of an order's state after checkout: events applied with one guarded write (the
 * state machine is domain/order-state.ts), the buyer's cancel and receipt, and ending the payment
 * time early in local builds. Paying and refunds are services/payments/; the deadline, expiry.ts.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { INVITER_REWARDS_PER_MONTH } from '../../config/accounts.ts';
import type { Db } from '../../data/client.ts';
import { activitySessions, orders, ticketTiers, userCoupons } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { onSaleOf } from '../../domain/on-sale.ts';
import { rewardMonthStart } from '../../domain/invitations.ts';
import { transitionOf, type OrderEvent, type OrderStatus } from '../../domain/order-state.ts';
import { rewardInviterStatements, withdrawInviterRewardStatements } from './coupons.ts';
import { expireOverdueOrders } from '../../data/order-expiry.ts';
import type { OrderDetail } from './presenters.ts';
import { findOwnOrder, orderDetail, type OrderRow } from './queries.ts';
import type { AfterWriteWork } from '../../data/after-write.ts';
import type { UserScope } from '../platform/scope.ts';
import { rawBatch } from '../../data/batch.ts';

function closingChanges(to: OrderStatus, now: number): Partial<OrderRow> {
  if (to === 'pending_ticketing') return { paidAt: now };
  if (to === 'pending_receipt') return { ticketedAt: now };
  return { closedAt: now };
}

/**
 * Applies an event with one guarded update: it changes the order only if its current state allows
 * the event, so concurrent or repeated events apply at most once. True when it applied. A payment's
 * confirmation may carry the request's after-write work last in its batch (one round trip fewer, the
 * order's "paid" message claimed with it); a batch that fails with it is sent again without it, and
 * the API then runs that work on its own.
 */
export async function applyOrderEvent(
  db: Db,
  orderId: number,
  event: OrderEvent,
  now: number,
  changes: Partial<OrderRow> = {},
  afterWrite: AfterWriteWork | null = null,
): Promise<boolean> {
  const { from, to } = transitionOf(event);
  // RETURNING, not meta.changes: D1 counts the rows the release trigger touches as changes too.
  const update = db
    .update(orders)
    .set({ ...closingChanges(to, now), ...changes, status: to, updatedAt: now })
    .where(and(eq(orders.id, orderId), inArray(orders.status, [...from])))
    .returning({ id: orders.id });
  if (event !== 'payment_confirmed' && to !== 'refunded') return (await update).length === 1;
  // One atomic batch: a paid order spends its coupon (still locked to it only if it was payable) and
  // may earn its buyer's inviter a reward; a refund takes back the reward the order earned.
  const raw = (query: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql: text, params } = query.toSQL();
    return db.$client.prepare(text).bind(...params);
  };
  const transition = raw(update);
  const consequences = [
    ...(event === 'payment_confirmed'
      ? [
          raw(
            db
              .update(userCoupons)
              .set({ status: 'used' })
              .where(and(eq(userCoupons.orderId, orderId), eq(userCoupons.status, 'locked'))),
          ),
          ...rewardInviterStatements(db, orderId, now, rewardMonthStart(now), INVITER_REWARDS_PER_MONTH),
        ]
      : withdrawInviterRewardStatements(db, orderId)),
  ];
  const ride = afterWrite?.ride(now);
  const write = (carried: D1PreparedStatement[]) => rawBatch(db.$client, { transition, consequences, afterWrite: carried });
  let answers: Awaited<ReturnType<typeof write>>;
  try {
    answers = await write(ride?.statements ?? []);
  } catch (error) {
    if (!ride) throw error;
    answers = await write([]);
  }
  if (ride && answers.afterWrite.length > 0) ride.carried(answers.afterWrite);
  return answers.transition.results.length === 1;
}

/** Like applyOrderEvent, but an event the order's state does not allow is a 409. */
export async function requireOrderEvent(
  db: Db,
  orderId: number,
  event: OrderEvent,
  now: number,
  changes: Partial<OrderRow> = {},
): Promise<void> {
  if (!(await applyOrderEvent(db, orderId, event, now, changes))) throw new DomainError('order_state_conflict');
}

/**
 * Local builds only (the route checks): lets a demo or an end-to-end test see an unpaid order run
 * out of time without waiting 15 minutes, by moving its deadline to now and expiring it as a read would.
 */
export async function endPaymentTimeNow(scope: UserScope, orderId: number): Promise<void> {
  const { db, userId, now } = scope;
  const order = await findOwnOrder(db, userId, orderId);
  if (order.status !== 'pending_payment') throw new DomainError('order_state_conflict');
  await db.update(orders).set({ paymentDeadline: now }).where(eq(orders.id, order.id));
  await expireOverdueOrders(db, now, { userId });
}

export async function cancelOrder(scope: UserScope, orderId: number): Promise<OrderDetail> {
  const { db, userId, now } = scope;
  await expireOverdueOrders(db, now, { userId });
  const order = await findOwnOrder(db, userId, orderId);
  await requireOrderEvent(db, order.id, 'user_cancelled', now, { cancelReason: 'user', paymentSubstatus: null });
  await releaseToInventory(scope, order.sessionId, order.tierId);
  return orderDetail(scope, orderId);
}

/**
 * The release trigger gave the tickets back in D1; the inventory object of a high-demand on-sale
 * (the session's, or the tier's own) reads its stock back now rather than at its next batch or
 * alarm. The cancel itself is done either way, so an object that cannot be reached is logged, not
 * the buyer's error.
 */
async function releaseToInventory(scope: UserScope, sessionId: number, tierId: number): Promise<void> {
  const [flags] = await scope.db
    .select({ session: activitySessions.highDemand, tier: ticketTiers.highDemand })
    .from(ticketTiers)
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .where(eq(ticketTiers.id, tierId));
  const onSale = flags ? onSaleOf({ id: sessionId, highDemand: flags.session }, { id: tierId, highDemand: flags.tier }) : null;
  if (!onSale) return;
  try {
    await scope.onSales.inventory(onSale).refresh(onSale);
  } catch (error) {
    console.error(JSON.stringify({ event: 'inventory_refresh_failed', ...onSale, error: String(error) }));
  }
}

/** Confirming twice answers with the completed order: a retried tap is not an error. */
export async function confirmReceipt(scope: UserScope, orderId: number): Promise<OrderDetail> {
  const { db, userId, now } = scope;
  const order = await findOwnOrder(db, userId, orderId);
  if (order.status !== 'completed') await requireOrderEvent(db, order.id, 'receipt_confirmed', now);
  return orderDetail(scope, orderId);
}
