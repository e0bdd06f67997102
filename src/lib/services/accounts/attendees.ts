/**
 * A user's real-name attendees. ID numbers are personal data: lists show them masked, and only the
 * owner reads one in full (to edit it). Someone else's id is answered like a missing one (404).
 */
import { and, asc, eq } from 'drizzle-orm';
import { attendees } from '../../db/schema.ts';
import { countryName, isCountryCode } from '../../domain/countries.ts';
import { DomainError } from '../../domain/errors.ts';
import { attendeeProblem, maskIdNumber, normalizeIdNumber, type AttendeeInput, type IdCardType } from '../../domain/identity.ts';
import type { Locale } from '../../i18n/locales.ts';
import { keptWithinCap } from './owner-cap.ts';
import type { UserScope } from '../platform/scope.ts';

/** At most this many attendees per user. */
export const MAX_ATTENDEES = 20;

export interface AttendeeView {
  id: number;
  name: string;
  nationality: string;
  nationalityName: string;
  idCardType: IdCardType;
  /** Masked in lists, in full from getAttendee. */
  idCardNo: string;
}

type AttendeeRow = typeof attendees.$inferSelect;

function viewOf(row: AttendeeRow, locale: Locale, full: boolean): AttendeeView {
  return {
    id: row.id,
    name: row.name,
    nationality: row.nationality,
    nationalityName: isCountryCode(row.nationality) ? countryName(row.nationality, locale) : row.nationality,
    idCardType: row.idCardType,
    idCardNo: full ? row.idCardNo : maskIdNumber(row.idCardNo),
  };
}

function checked(input: AttendeeInput): { name: string; nationality: string; idCardType: IdCardType; idCardNo: string } {
  const issue = attendeeProblem(input, isCountryCode);
  if (issue) throw new DomainError(issue.problem, {}, issue.field);
  return {
    name: input.name.trim(),
    nationality: input.nationality,
    idCardType: input.idCardType as IdCardType,
    idCardNo: normalizeIdNumber(input.idCardNo),
  };
}

export async function listAttendees(scope: UserScope): Promise<AttendeeView[]> {
  const { db, userId } = scope;
  const { locale } = scope.ctx;
  const rows = await db.select().from(attendees).where(eq(attendees.userId, userId)).orderBy(asc(attendees.id));
  return rows.map((row) => viewOf(row, locale, false));
}

/** One attendee of the owner with the full ID number, for the edit form. */
export async function getAttendee(scope: UserScope, id: number): Promise<AttendeeView> {
  const { db, userId } = scope;
  const { locale } = scope.ctx;
  const [row] = await db
    .select()
    .from(attendees)
    .where(and(eq(attendees.id, id), eq(attendees.userId, userId)));
  if (!row) throw new DomainError('attendee_not_found');
  return viewOf(row, locale, true);
}

export async function createAttendee(scope: UserScope, input: AttendeeInput): Promise<AttendeeView> {
  const { db, userId } = scope;
  const { locale } = scope.ctx;
  const attendee = checked(input);
  // Inserted first and then held to the cap, which keeps it without a transaction (owner-cap.ts).
  const [row] = await db
    .insert(attendees)
    .values({ ...attendee, userId })
    .returning();
  if (!(await keptWithinCap(db, { table: attendees, id: attendees.id, owner: attendees.userId }, userId, row.id, MAX_ATTENDEES))) {
    throw new DomainError('attendee_limit_reached', { max: MAX_ATTENDEES });
  }
  return viewOf(row, locale, false);
}

export async function updateAttendee(scope: UserScope, id: number, input: AttendeeInput): Promise<AttendeeView> {
  const { db, userId } = scope;
  const { locale } = scope.ctx;
  const attendee = checked(input);
  const [row] = await db
    .update(attendees)
    .set(attendee)
    .where(and(eq(attendees.id, id), eq(attendees.userId, userId)))
    .returning();
  if (!row) throw new DomainError('attendee_not_found');
  return viewOf(row, locale, false);
}

export async function deleteAttendee(scope: UserScope, id: number): Promise<void> {
  const { db, userId } = scope;
  const deleted = await db
    .delete(attendees)
    .where(and(eq(attendees.id, id), eq(attendees.userId, userId)))
    .returning({ id: attendees.id });
  if (deleted.length === 0) throw new DomainError('attendee_not_found');
}
