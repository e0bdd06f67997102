/**
 * A session's high demand switched on and off (issue 20, docs/hot-on-sale.md), by an operator or, on
 * only, by its orders' rate. On: its inventory object takes holds again from D1's stock as it is now,
 * then the flag is set. Off (an operator's only): the object first refuses new holds and writes every
 * hold it keeps to D1, and only then does the flag flip, so no hold is lost and none is held twice
 * across the object's path and checkout's own. The flag is written only when it changes (each write
 * of a session bumps the catalogue version, migration 0012), so switching is idempotent: repeating
 * a call changes nothing more and answers the same. An operator's decision stands: the order rate
 * never switches on a session an operator switched, either way.
 */
import { and, eq, ne, notExists } from 'drizzle-orm';
import { HIGH_DEMAND_ORDERS_PER_MINUTE } from '../config.ts';
import type { Db } from '../db/client.ts';
import { activitySessions, operatorHighDemandSwitches } from '../db/schema.ts';
import { sessionInventory } from '../durable-objects/session-inventory.ts';
import { DomainError } from '../domain/errors.ts';
import { highDemandThreshold, type MinuteCounts, ordersInLastMinute, reachesHighDemand } from '../domain/order-rate.ts';
import type { RequestScope } from './scope.ts';
import { sessionRow } from './show-changes.ts';

export interface HighDemandSwitch {
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

/** Sets a session's high demand (an operator's switch); 409 `high_demand_holds_unwritten` when the object could not write its holds yet. */
export async function switchHighDemand(scope: RequestScope, sessionId: number, highDemand: boolean): Promise<HighDemandSwitch> {
  const { db, env, now } = scope;
  await sessionRow(db, sessionId);
  const inventory = sessionInventory(env, sessionId);
  if (highDemand) await inventory.open(sessionId);
  else {
    const { unwritten } = await inventory.close(sessionId);
    if (unwritten > 0) throw new DomainError('high_demand_holds_unwritten', { count: unwritten });
  }
  await db.batch([
    db
      .insert(operatorHighDemandSwitches)
      .values({ sessionId, highDemand, switchedAt: now })
      .onConflictDoUpdate({ target: operatorHighDemandSwitches.sessionId, set: { highDemand, switchedAt: now } }),
    flagWrite(db, sessionId, highDemand, false),
  ]);
  return { sessionId, highDemand };
}

/**
 * Switches a plain session on because its orders reached the threshold, as an operator would (the
 * object opened, then the flag set), unless an operator switched it. Orders that reach it together
 * each call this; the flag's guarded write lets one of them through, which alone logs the switch.
 */
async function switchOnByOrderRate(scope: RequestScope, sessionId: number, ordersLastMinute: number, threshold: number): Promise<void> {
  const { db, env } = scope;
  const [decided] = await db
    .select({ sessionId: operatorHighDemandSwitches.sessionId })
    .from(operatorHighDemandSwitches)
    .where(eq(operatorHighDemandSwitches.sessionId, sessionId));
  if (decided) return;
  await sessionInventory(env, sessionId).open(sessionId);
  const [switched] = await flagWrite(db, sessionId, true, true);
  if (switched) {
    console.info(
      JSON.stringify({ event: 'session_high_demand_by_orders', sessionId, ordersLastMinute: Math.round(ordersLastMinute), threshold }),
    );
  }
}

/**
 * After a plain order's batch counted it (orders/placement.ts `orderRateStatement`): when its
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
