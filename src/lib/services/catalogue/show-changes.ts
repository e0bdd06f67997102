/**
 * A show's session cancelled or postponed by an operator, and a postponed show's refund asked for by
 * its buyer (SPEC.md, refund rules: what was paid minus the service fee and the mailing fee).
 *
 * Cancelling runs four steps, each guarded so that running it again (a retried call, two operators at
 * once) changes nothing twice and finishes what an interrupted run left: the session is marked, its
 * listings close (no new order can hold tickets: the hold is a guarded decrement of an active
 * listing), its unpaid orders close (the database trigger gives their holds and coupons back), then
 * each paid order moves to refunded with one guarded transition (the triggers void its tickets and
 * give its coupon back) and only the request that moved it asks the provider for the money. A payment
 * that lands after its order closed unpaid is refunded in full when it is confirmed (payments/settlement.ts); a
 * refund the provider did not take is retried by the scheduled sweep.
 *
 * The operator's audit row rides with the first step, the session's guarded mark, in its batch and
 * under the same guard: it is written by the one call that marked the session, so a repeated or
 * concurrent cancel finishes the run without a second row, and a run interrupted after the mark is
 * already on record (the later steps only carry out what the row says was decided). Postponing is
 * one guarded write, its row in the same batch under the same guard.
 */
import { and, eq, exists, inArray, sql } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import { activitySessions, listings, orders, ticketTiers } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import {
  postponementProblem,
  postponementRefundOpen,
  showChangeRefund,
  type Postponement,
  type SessionStatus,
} from '../../domain/show-changes.ts';
import { applyOrderEvent } from '../orders/lifecycle.ts';
import { findOwnOrder, type OrderRow } from '../orders/queries.ts';
import { refundOrderPayment } from '../payments/refunds.ts';
import type { RequestScope, StaffScope, UserScope } from '../platform/scope.ts';
import { auditEntryIf } from '../staff/audit.ts';
import { sessionRow } from './show-query.ts';

type SessionRow = typeof activitySessions.$inferSelect;

/** The orders a show change refunds: paid, whether ticketed, delivered or used. */
export const PAID_STATUSES = ['pending_ticketing', 'pending_receipt', 'completed'] as const;

/** What a cancellation did in this call; a repeated call answers zeros for what was already done. */
export interface CancellationResult {
  sessionId: number;
  status: SessionStatus;
  listingsClosed: number;
  unpaidClosed: number;
  refunded: number;
}

/**
 * Moves one paid order to refunded for a show change and, if this call moved it, gives the money back
 * through the provider (or leaves it to the sweep when the provider cannot be reached). True when this call refunded it.
 */
async function refundForShowChange(
  scope: RequestScope,
  order: OrderRow,
  event: 'event_cancelled' | 'postponement_refund',
): Promise<boolean> {
  const { db, env, now } = scope;
  const refundAmount = showChangeRefund(order);
  if (!(await applyOrderEvent(db, order.id, event, now, { refundAmount }))) return false;
  try {
    await refundOrderPayment(db, env, order.id, refundAmount, now);
  } catch (error) {
    console.error(JSON.stringify({ event: 'refund_deferred', orderNo: order.orderNo, reason: event, error: String(error) }));
  }
  return true;
}

/** Cancels a session: see the module comment. Repeating it finishes an interrupted run and changes nothing more. */
export async function cancelSession(scope: StaffScope, sessionId: number): Promise<CancellationResult> {
  const { db, now } = scope;
  const current = await sessionRow(db, sessionId);
  const open = and(eq(activitySessions.id, sessionId), inArray(activitySessions.status, ['scheduled', 'postponed']));
  await batch(db, {
    audit: auditEntryIf(
      scope,
      {
        action: 'session.cancel',
        subjectType: 'session',
        subjectId: sessionId,
        before: { status: current.status, startsAt: current.startsAt },
        after: { status: 'cancelled' },
      },
      exists(db.select({ one: sql`1` }).from(activitySessions).where(open)),
    ),
    cancelled: db.update(activitySessions).set({ status: 'cancelled', changedAt: now }).where(open),
  });
  const tiers = db.select({ id: ticketTiers.id }).from(ticketTiers).where(eq(ticketTiers.sessionId, sessionId));
  const closed = await db
    .update(listings)
    .set({ status: 'closed' })
    .where(and(inArray(listings.tierId, tiers), inArray(listings.status, ['active', 'sold_out'])))
    .returning({ id: listings.id });
  const unpaid = await db
    .update(orders)
    .set({ status: 'cancelled', cancelReason: 'event', paymentSubstatus: null, closedAt: now, updatedAt: now })
    .where(and(eq(orders.sessionId, sessionId), eq(orders.status, 'pending_payment')))
    .returning({ id: orders.id });
  const paid = await db
    .select()
    .from(orders)
    .where(and(eq(orders.sessionId, sessionId), inArray(orders.status, [...PAID_STATUSES])));
  let refunded = 0;
  for (const order of paid) if (await refundForShowChange(scope, order, 'event_cancelled')) refunded += 1;
  return { sessionId, status: 'cancelled', listingsClosed: closed.length, unpaidClosed: unpaid.length, refunded };
}

/**
 * Postpones a session to a later date: its orders stay valid for it, and until `refundUntil` each
 * buyer may ask for the cancellation refund instead. Postponing again moves it again; the first date is kept.
 */
export async function postponeSession(scope: StaffScope, sessionId: number, next: Postponement): Promise<SessionRow> {
  const { db, now } = scope;
  const current = await sessionRow(db, sessionId);
  const problem = postponementProblem(current, next, now);
  if (problem === 'session_cancelled') throw new DomainError(problem);
  if (problem) throw new DomainError(problem, {}, problem === 'postpone_date_invalid' ? 'startsAt' : 'refundUntil');
  const open = and(eq(activitySessions.id, sessionId), inArray(activitySessions.status, ['scheduled', 'postponed']));
  const dates = (row: Pick<SessionRow, 'status' | 'startsAt' | 'endsAt' | 'refundUntil'>) => ({
    status: row.status,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    refundUntil: row.refundUntil,
  });
  const {
    moved: [moved],
  } = await batch(db, {
    audit: auditEntryIf(
      scope,
      {
        action: 'session.postpone',
        subjectType: 'session',
        subjectId: sessionId,
        before: dates(current),
        after: dates({ status: 'postponed', ...next }),
      },
      exists(db.select({ one: sql`1` }).from(activitySessions).where(open)),
    ),
    moved: db
      .update(activitySessions)
      .set({
        status: 'postponed',
        startsAt: next.startsAt,
        endsAt: next.endsAt,
        refundUntil: next.refundUntil,
        changedAt: now,
        originalStartsAt: sql`coalesce(${activitySessions.originalStartsAt}, ${activitySessions.startsAt})`,
      })
      .where(open)
      .returning(),
  });
  // A cancellation won the race.
  if (!moved) throw new DomainError('session_cancelled');
  return moved;
}

/**
 * A buyer of a postponed show asks for their refund before its deadline. Asking again, or twice at
 * once, refunds once; an order that is not paid, or a show not postponed (or past the deadline), is a 409.
 */
export async function requestPostponementRefund(scope: UserScope, orderId: number): Promise<void> {
  const { db, userId, now } = scope;
  const order = await findOwnOrder(db, userId, orderId);
  if (order.status === 'refunded') return;
  const session = await sessionRow(db, order.sessionId);
  if (!postponementRefundOpen(session, now) || !(PAID_STATUSES as readonly string[]).includes(order.status)) {
    throw new DomainError('refund_not_available');
  }
  await refundForShowChange(scope, order, 'postponement_refund');
}
