/**
 * The audit log: every change a staff member makes is one row, written in the same batch as the
 * change itself, so a change and its record land together or not at all.
 */
import { and, desc, eq, gte, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { auditLog, users } from '../../db/schema.ts';
import type { StaffScope } from '../platform/scope.ts';

export interface AuditChange {
  /** What was done, `subject.verb`: `activity.publish`, `venue.update`, `staff.invite`. */
  action: string;
  subjectType: string;
  subjectId: string | number;
  /** The subject's fields before the change (null when it is created) and after it (null when it is removed). */
  before: unknown;
  after: unknown;
}

function jsonOf(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** The change's audit row, as a statement for the batch that makes the change. */
export function auditEntry(scope: StaffScope, change: AuditChange) {
  return scope.db.insert(auditLog).values({
    actorId: scope.userId,
    at: scope.now,
    action: change.action,
    subjectType: change.subjectType,
    subjectId: String(change.subjectId),
    beforeJson: jsonOf(change.before),
    afterJson: jsonOf(change.after),
  });
}

/**
 * The change's audit row only if `guard` holds as the batch runs it: for a guarded change (a
 * conditional UPDATE), put this before the change in its batch with the change's own condition, so
 * the row is written exactly when the change is, and a repeat that finds nothing to change leaves none.
 */
export function auditEntryIf(scope: StaffScope, change: AuditChange, guard: SQL) {
  // The table's columns in their order, the id left to SQLite.
  return scope.db
    .insert(auditLog)
    .select(
      sql`SELECT NULL, ${scope.userId}, ${scope.now}, ${change.action}, ${change.subjectType}, ${String(change.subjectId)}, ${jsonOf(change.before)}, ${jsonOf(change.after)} WHERE ${guard}`,
    );
}

export interface AuditFilter {
  actorId?: number;
  /** An action's prefix: `activity` finds `activity.publish` and `activity.update`. */
  action?: string;
  subjectType?: string;
  subjectId?: string;
  from?: number;
  until?: number;
  /** The id of the last row of the previous page: older rows follow it. */
  before?: number;
  limit: number;
}

export interface AuditRecord {
  id: number;
  at: number;
  actorId: number | null;
  actorName: string | null;
  action: string;
  subjectType: string;
  subjectId: string;
  before: unknown;
  after: unknown;
}

function parsed(json: string | null): unknown {
  return json === null ? null : JSON.parse(json);
}

/** The log newest first, narrowed by the filter, one page of `limit` rows. */
export async function auditRecords(db: Db, filter: AuditFilter): Promise<AuditRecord[]> {
  const where: (SQL | undefined)[] = [
    filter.actorId === undefined ? undefined : eq(auditLog.actorId, filter.actorId),
    filter.action === undefined ? undefined : or(eq(auditLog.action, filter.action), actionPrefix(filter.action)),
    filter.subjectType === undefined ? undefined : eq(auditLog.subjectType, filter.subjectType),
    filter.subjectId === undefined ? undefined : eq(auditLog.subjectId, filter.subjectId),
    filter.from === undefined ? undefined : gte(auditLog.at, filter.from),
    filter.until === undefined ? undefined : lte(auditLog.at, filter.until),
    filter.before === undefined ? undefined : lt(auditLog.id, filter.before),
  ];
  const rows = await db
    .select({
      id: auditLog.id,
      at: auditLog.at,
      actorId: auditLog.actorId,
      actorName: users.nickname,
      action: auditLog.action,
      subjectType: auditLog.subjectType,
      subjectId: auditLog.subjectId,
      beforeJson: auditLog.beforeJson,
      afterJson: auditLog.afterJson,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(filter.limit);
  return rows.map(({ beforeJson, afterJson, ...row }) => ({ ...row, before: parsed(beforeJson), after: parsed(afterJson) }));
}

/** `activity` matches `activity.publish`: the prefix and its dot, as a range, so no character of the prefix acts as a LIKE wildcard. */
function actionPrefix(prefix: string): SQL | undefined {
  return and(gte(auditLog.action, `${prefix}.`), lt(auditLog.action, `${prefix}/`));
}
