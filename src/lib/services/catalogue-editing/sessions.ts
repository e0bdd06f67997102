/**
 * An activity's sessions, edited from the console: time, sale window, per-account ticket cap and
 * high demand. Every change also sets the activity's dates from its sessions in the same batch.
 * Once orders or listings hold a session, its time is the on-sale screens' to move (postpone) and it
 * cannot be removed, only cancelled.
 */
import { eq, sql } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import type { Db } from '../../data/client.ts';
import { activities, activitySessions, operatorHighDemandSwitches, sessionOrderRates, ticketTiers } from '../../db/schema.ts';
import { type SessionDraft, sessionProblems, sessionRow, UNPUBLISHED_STATUS } from '../../domain/catalogue-drafts.ts';
import { DomainError } from '../../domain/errors.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';
import { activityRecord, editedActivity, type EditedSession, type SessionRecord } from './activities.ts';
import { brokeForeignKey, nextId, refuseProblems } from './records.ts';

/**
 * The activity's first and last session start and earliest on-sale (domain activityDates' rule), from its
 * sessions as the batch leaves them: in SQL, so it is the batch's own last word whatever else runs.
 */
export function activityDatesUpdate(db: Db, activityId: number) {
  const of = (expression: string) =>
    sql.raw(`(SELECT ${expression} FROM activity_sessions s WHERE s.activity_id = ${Math.trunc(activityId)})`);
  return db
    .update(activities)
    .set({
      startsAt: sql`coalesce(${of('min(s.starts_at)')}, ${activities.startsAt})`,
      endsAt: sql`coalesce(${of('max(s.starts_at)')}, ${activities.endsAt})`,
      saleStartsAt: sql`coalesce(${of('min(coalesce(s.on_sale_at, s.starts_at))')}, ${activities.saleStartsAt})`,
    })
    .where(eq(activities.id, activityId));
}

/** The session as the console edits it, with its activity. */
export async function editedSession(db: Db, sessionId: number): Promise<{ session: EditedSession; activityStatus: number }> {
  const [row] = await db
    .select({ activityId: activitySessions.activityId })
    .from(activitySessions)
    .where(eq(activitySessions.id, sessionId));
  if (!row) throw new DomainError('session_not_found');
  const edited = await editedActivity(db, row.activityId);
  const session = edited.sessions.find((each) => each.id === sessionId)!;
  return { session, activityStatus: edited.activity.status };
}

const inUse = (session: EditedSession) => session.ordered > 0 || session.tiers.some((tier) => tier.listed > 0 || tier.sold > 0);

export async function addSession(scope: StaffScope, activityId: number, draft: SessionDraft): Promise<SessionRecord> {
  refuseProblems(sessionProblems(draft));
  await activityRecord(scope.db, activityId);
  const row = { id: await nextId(scope.db, activitySessions), activityId, ...sessionRow(draft) };
  const { inserted } = await batch(scope.db, {
    inserted: scope.db.insert(activitySessions).values(row).returning(),
    dates: activityDatesUpdate(scope.db, activityId),
    audit: auditEntry(scope, { action: 'session.create', subjectType: 'session', subjectId: row.id, before: null, after: row }),
  });
  return inserted[0];
}

export async function updateSession(scope: StaffScope, sessionId: number, draft: SessionDraft): Promise<SessionRecord> {
  refuseProblems(sessionProblems(draft));
  const { session, activityStatus } = await editedSession(scope.db, sessionId);
  const { tiers: _tiers, ordered: _ordered, ...before } = session;
  const row = sessionRow(draft);
  if (inUse(session) && (row.startsAt !== before.startsAt || row.endsAt !== before.endsAt)) {
    throw new DomainError('session_in_use', {}, 'startsAt');
  }
  // A live on-sale's high demand moves its holds between D1 and the inventory object: the on-sale screens' switch does that.
  if (row.highDemand !== before.highDemand && activityStatus !== UNPUBLISHED_STATUS) {
    throw new DomainError('session_high_demand_live', {}, 'highDemand');
  }
  const { updated } = await batch(scope.db, {
    updated: scope.db.update(activitySessions).set(row).where(eq(activitySessions.id, sessionId)).returning(),
    dates: activityDatesUpdate(scope.db, before.activityId),
    audit: auditEntry(scope, {
      action: 'session.update',
      subjectType: 'session',
      subjectId: sessionId,
      before,
      after: { ...before, ...row },
    }),
  });
  return updated[0];
}

/** Removes a session nobody has ordered or listed, with its tiers. */
export async function removeSession(scope: StaffScope, sessionId: number): Promise<void> {
  const { session } = await editedSession(scope.db, sessionId);
  if (inUse(session)) throw new DomainError('session_in_use');
  const { tiers, ordered: _ordered, ...before } = session;
  try {
    await batch(scope.db, {
      tiers: scope.db.delete(ticketTiers).where(eq(ticketTiers.sessionId, sessionId)),
      switches: scope.db.delete(operatorHighDemandSwitches).where(eq(operatorHighDemandSwitches.sessionId, sessionId)),
      rates: scope.db.delete(sessionOrderRates).where(eq(sessionOrderRates.sessionId, sessionId)),
      session: scope.db.delete(activitySessions).where(eq(activitySessions.id, sessionId)),
      dates: activityDatesUpdate(scope.db, before.activityId),
      audit: auditEntry(scope, {
        action: 'session.remove',
        subjectType: 'session',
        subjectId: sessionId,
        before: { ...before, tiers },
        after: null,
      }),
    });
  } catch (error) {
    // Something else still points at it (a waitlist, a lottery, a gate's admissions): it stays.
    if (brokeForeignKey(error)) throw new DomainError('session_in_use');
    throw error;
  }
}
