/**
 * A session's high demand switched on and off (docs/hot-on-sale.md), by an operator or, on
 * only, by its orders' rate. On: its inventory object takes holds again from D1's stock as it is now,
 * then the flag is set. Off (an operator's only): the object first refuses new holds and writes every
 * hold it keeps to D1, and only then does the flag flip, so no hold is lost and none is held twice
 * across the object's path and checkout's own. The flag is written only when it changes (each write
 * of a session bumps the catalogue version, migration 0012), so switching is idempotent: repeating
 * a call changes nothing more and answers the same. An operator's decision stands: the order rate
 * never switches on a session an operator switched, either way.
 *
 * One tier of a session can be on sale as high demand of its own (docs/hot-on-sale.md "Per tier"):
 * switched the same way through the tier's own inventory object, by an operator only, so the switch
 * is always theirs and final.
 *
 * An operator's switch writes its audit row in the flag's batch, under the flag's own condition: a
 * switch to what the flag already is changes nothing and leaves no row. Switching a session on hands
 * its room the admission rate an operator set for it (admission-rate.ts).
 */
import { and, eq, exists, ne, notExists, sql } from 'drizzle-orm';
import { HIGH_DEMAND_ORDERS_PER_MINUTE } from '../../config/on-sale.ts';
import type { Db } from '../../data/client.ts';
import { activitySessions, operatorHighDemandSwitches, ticketTiers } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import type { OnSale } from '../../domain/on-sale.ts';
import { highDemandThreshold, type MinuteCounts, ordersInLastMinute, reachesHighDemand } from '../../domain/order-rate.ts';
import type { RequestScope, StaffScope } from '../platform/scope.ts';
import { auditEntryIf } from '../staff/audit.ts';
import { pushAdmissionRate } from './admission-rate.ts';
import { sessionRow } from '../catalogue/show-query.ts';
import { batch } from '../../data/batch.ts';

export interface HighDemandSwitch {
  sessionId: number;
  highDemand: boolean;
}

export interface TierHighDemandSwitch {
  tierId: number;
  sessionId: number;
  highDemand: boolean;
}

/**
 * The flag set to `highDemand` unless it already is, answering the session when it changed. By the
 * order rate, only while no operator switched the session: checked in the write itself, so an
 * operator's switch racing this one wins.
 */
function flagWrite(db: Db, sessionId: number, highDemand: boolean, byOrderRate: boolean) {
  const decidedByOperator = db
    .select({ sessionId: operatorHighDemandSwitches.sessionId })
    .from(operatorHighDemandSwitches)
    .where(eq(operatorHighDemandSwitches.sessionId, sessionId));
  return db
    .update(activitySessions)
    .set({ highDemand })
    .where(
      and(
        eq(activitySessions.id, sessionId),
        ne(activitySessions.highDemand, highDemand),
        byOrderRate ? notExists(decidedByOperator) : undefined,
      ),
    )
    .returning({ id: activitySessions.id });
}

/**
 * Before the flag: on, the on-sale's object takes holds from D1's stock as it is now; off, it refuses
 * new ones and writes those it keeps (409 `high_demand_holds_unwritten` while any is left).
 */
async function switchInventory(scope: RequestScope, onSale: OnSale, highDemand: boolean): Promise<void> {
  const inventory = scope.onSales.inventory(onSale);
  if (highDemand) {
    await inventory.open(onSale);
    return;
  }
  const { unwritten } = await inventory.close(onSale);
  if (unwritten > 0) throw new DomainError('high_demand_holds_unwritten', { count: unwritten });
}

/** Sets a session's high demand (an operator's switch); 409 `high_demand_holds_unwritten` when the object could not write its holds yet. */
export async function switchHighDemand(scope: StaffScope, sessionId: number, highDemand: boolean): Promise<HighDemandSwitch> {
  const { db, now } = scope;
  await sessionRow(db, sessionId);
  await switchInventory(scope, { sessionId, tierId: null }, highDemand);
  if (highDemand) await pushAdmissionRate(scope, sessionId);
  const differs = and(eq(activitySessions.id, sessionId), ne(activitySessions.highDemand, highDemand));
  await batch(db, {
    audit: auditEntryIf(
      scope,
      {
        action: 'session.high_demand',
        subjectType: 'session',
        subjectId: sessionId,
        before: { highDemand: !highDemand },
        after: { highDemand },
      },
      exists(db.select({ one: sql`1` }).from(activitySessions).where(differs)),
    ),
    recorded: db
      .insert(operatorHighDemandSwitches)
      .values({ sessionId, highDemand, switchedAt: now })
      .onConflictDoUpdate({ target: operatorHighDemandSwitches.sessionId, set: { highDemand, switchedAt: now } }),
    flagged: flagWrite(db, sessionId, highDemand, false),
  });
  return { sessionId, highDemand };
}

/**
 * Switches a plain session on because its orders reached the threshold, as an operator would (the
 * object opened, then the flag set), unless an operator switched it. Orders that reach it together
 * each call this; the flag's guarded write lets one of them through, which alone logs the switch.
 */
async function switchOnByOrderRate(scope: RequestScope, sessionId: number, ordersLastMinute: number, threshold: number): Promise<void> {
  const { db } = scope;
  const [decided] = await db
    .select({ sessionId: operatorHighDemandSwitches.sessionId })
    .from(operatorHighDemandSwitches)
    .where(eq(operatorHighDemandSwitches.sessionId, sessionId));
  if (decided) return;
  await switchInventory(scope, { sessionId, tierId: null }, true);
  await pushAdmissionRate(scope, sessionId);
  const [switched] = await flagWrite(db, sessionId, true, true);
  if (switched) {
    console.info(
      JSON.stringify({ event: 'session_high_demand_by_orders', sessionId, ordersLastMinute: Math.round(ordersLastMinute), threshold }),
    );
  }
}

/**
 * After a plain order's batch counted it (data/order-placement.ts `orderRateStatement`): when its
 * session's orders over the last minute reached the threshold, the session is switched on after the
 * buyer's answer (the scope's `waitUntil`; without one, before it). A switch that fails is logged, and
 * the next order past the threshold tries again.
 */
export async function afterOrderCounted(scope: RequestScope, sessionId: number, counts: MinuteCounts, at: number): Promise<void> {
  const threshold = highDemandThreshold(scope.env.HIGH_DEMAND_ORDERS_PER_MINUTE, HIGH_DEMAND_ORDERS_PER_MINUTE);
  if (!reachesHighDemand(counts, at, threshold)) return;
  const switching = switchOnByOrderRate(scope, sessionId, ordersInLastMinute(counts, at), threshold).catch((error: unknown) => {
    console.error(JSON.stringify({ event: 'session_high_demand_switch_failed', sessionId, error: String(error) }));
  });
  if (scope.waitUntil) scope.waitUntil(switching);
  else await switching;
}

/**
 * Sets one tier's own high demand (an operator's switch; 404 `ticket_category_not_found`), as a
 * session's: its object opened before the flag is set, or closed with every hold written before the
 * flag is cleared. The flag is written only when it changes: each write of a tier bumps the
 * catalogue version (migration 0012).
 */
export async function switchTierHighDemand(scope: StaffScope, tierId: number, highDemand: boolean): Promise<TierHighDemandSwitch> {
  const { db } = scope;
  const [tier] = await db.select({ sessionId: ticketTiers.sessionId }).from(ticketTiers).where(eq(ticketTiers.id, tierId));
  if (!tier) throw new DomainError('ticket_category_not_found');
  await switchInventory(scope, { sessionId: tier.sessionId, tierId }, highDemand);
  const differs = and(eq(ticketTiers.id, tierId), ne(ticketTiers.highDemand, highDemand));
  await batch(db, {
    audit: auditEntryIf(
      scope,
      { action: 'tier.high_demand', subjectType: 'tier', subjectId: tierId, before: { highDemand: !highDemand }, after: { highDemand } },
      exists(db.select({ one: sql`1` }).from(ticketTiers).where(differs)),
    ),
    flagged: db.update(ticketTiers).set({ highDemand }).where(differs),
  });
  return { tierId, sessionId: tier.sessionId, highDemand };
}
