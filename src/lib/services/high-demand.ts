/**
 * An operator turns a session's high demand on or off (issue 20, docs/hot-on-sale.md). On: its
 * inventory object takes holds again from D1's stock as it is now, then the flag is set. Off: the
 * object first refuses new holds and writes every hold it keeps to D1, and only then does the flag
 * flip, so no hold is lost and none is held twice across the object's path and checkout's own. Both
 * are idempotent: repeating a call changes nothing more and answers the same.
 */
import { eq } from 'drizzle-orm';
import { sessionInventory } from '../durable-objects/session-inventory.ts';
import { activitySessions } from '../db/schema.ts';
import { DomainError } from '../domain/errors.ts';
import type { RequestScope } from './scope.ts';
import { sessionRow } from './show-changes.ts';

export interface HighDemandSwitch {
  sessionId: number;
  highDemand: boolean;
}

/** Sets a session's high demand; 409 `high_demand_holds_unwritten` when the object could not write its holds yet. */
export async function switchHighDemand(scope: RequestScope, sessionId: number, highDemand: boolean): Promise<HighDemandSwitch> {
  const { db, env } = scope;
  await sessionRow(db, sessionId);
  const inventory = sessionInventory(env, sessionId);
  if (highDemand) await inventory.open(sessionId);
  else {
    const { unwritten } = await inventory.close(sessionId);
    if (unwritten > 0) throw new DomainError('high_demand_holds_unwritten', { count: unwritten });
  }
  await db.update(activitySessions).set({ highDemand }).where(eq(activitySessions.id, sessionId));
  return { sessionId, highDemand };
}
