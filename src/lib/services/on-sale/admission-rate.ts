/**
 * A session's waiting-room admission rate, set by an operator. The rate lives in D1
 * (session_admission_rates, migration 0035), not only in the room's own storage: the change and its
 * audit row then land in one batch, the console reads it without waking the room, and a room made
 * later (the session switched to high demand afterwards, or a room evicted and rebuilt) is handed it
 * when it opens (high-demand.ts). The room applies a rate from the moment it is handed one
 * (its admission clock moves on at the old rate up to then). A session without a row admits at
 * WAITING_ROOM_ADMISSIONS_PER_MINUTE, and its room keeps whatever rate it has.
 */
import { eq, exists, ne, sql } from 'drizzle-orm';
import { WAITING_ROOM_ADMISSIONS_PER_MINUTE, WAITING_ROOM_MAX_ADMISSIONS_PER_MINUTE } from '../../config/on-sale.ts';
import { batch } from '../../data/batch.ts';
import type { Db } from '../../data/client.ts';
import { activities, activitySessions, sessionAdmissionRates } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import type { RequestScope, StaffScope } from '../platform/scope.ts';
import { auditEntry, auditEntryIf } from '../staff/audit.ts';

export interface AdmissionRate {
  sessionId: number;
  perMinute: number;
  /** Set by an operator; false: the configured default. */
  custom: boolean;
}

/** The session's rate and its opening (its activity's sale start), or 404 `session_not_found`. */
async function rateRow(db: Db, sessionId: number) {
  const [row] = await db
    .select({
      highDemand: activitySessions.highDemand,
      opensAt: activities.saleStartsAt,
      perMinute: sessionAdmissionRates.perMinute,
    })
    .from(activitySessions)
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .leftJoin(sessionAdmissionRates, eq(sessionAdmissionRates.sessionId, activitySessions.id))
    .where(eq(activitySessions.id, sessionId));
  if (!row) throw new DomainError('session_not_found');
  return row;
}

const viewOf = (sessionId: number, perMinute: number | null): AdmissionRate => ({
  sessionId,
  perMinute: perMinute ?? WAITING_ROOM_ADMISSIONS_PER_MINUTE,
  custom: perMinute !== null,
});

/** The rate the session's room admits at. */
export async function admissionRateOf(db: Db, sessionId: number): Promise<AdmissionRate> {
  return viewOf(sessionId, (await rateRow(db, sessionId)).perMinute);
}

/** Hands the session's room the rate an operator set, if any (the room keeps its own otherwise). */
export async function pushAdmissionRate(scope: RequestScope, sessionId: number): Promise<void> {
  const row = await rateRow(scope.db, sessionId);
  if (row.perMinute !== null) await scope.onSales.waitingRoom({ sessionId, tierId: null }).setRate(row.perMinute, scope.now, row.opensAt);
}

/**
 * Sets the session's admission rate (null: back to the default; 400 `admission_rate_invalid` outside
 * 0..WAITING_ROOM_MAX_ADMISSIONS_PER_MINUTE, 0 pausing the line), with its audit row when it
 * changes, and hands it to the room at once while the session is high demand. Setting the rate it
 * already has writes nothing and hands it to the room again (a room that missed it catches up).
 */
export async function setAdmissionRate(scope: StaffScope, sessionId: number, perMinute: number | null): Promise<AdmissionRate> {
  const { db, now } = scope;
  if (perMinute !== null && !(Number.isInteger(perMinute) && perMinute >= 0 && perMinute <= WAITING_ROOM_MAX_ADMISSIONS_PER_MINUTE)) {
    throw new DomainError('admission_rate_invalid', { max: WAITING_ROOM_MAX_ADMISSIONS_PER_MINUTE }, 'perMinute');
  }
  const current = await rateRow(db, sessionId);
  const before = viewOf(sessionId, current.perMinute);
  const after = viewOf(sessionId, perMinute);
  const change = {
    action: 'session.admission_rate',
    subjectType: 'session',
    subjectId: sessionId,
    before: { perMinute: before.perMinute, custom: before.custom },
    after: { perMinute: after.perMinute, custom: after.custom },
  };
  if (perMinute === null) {
    const held = eq(sessionAdmissionRates.sessionId, sessionId);
    await batch(db, {
      audit: auditEntryIf(scope, change, exists(db.select({ one: sql`1` }).from(sessionAdmissionRates).where(held))),
      cleared: db.delete(sessionAdmissionRates).where(held),
    });
  } else if (current.perMinute !== perMinute) {
    await batch(db, {
      set: db
        .insert(sessionAdmissionRates)
        .values({ sessionId, perMinute, setBy: scope.userId, setAt: now })
        .onConflictDoUpdate({
          target: sessionAdmissionRates.sessionId,
          set: { perMinute, setBy: scope.userId, setAt: now },
          setWhere: ne(sessionAdmissionRates.perMinute, perMinute),
        }),
      audit: auditEntry(scope, change),
    });
  }
  if (current.highDemand) await scope.onSales.waitingRoom({ sessionId, tierId: null }).setRate(after.perMinute, now, current.opensAt);
  return after;
}
