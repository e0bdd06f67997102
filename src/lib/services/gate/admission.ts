/**
 * The gate: door staff admit ticket holders by the voucher's rotating entry code (ticket number and
 * current code, domain/entry-code.ts), or by the ticket number after checking a photo ID. A seller
 * with tickets on sale for a session (a listing of their own, not a holder's transfer listing)
 * staffs its door and may assign other accounts as door staff for that session; each door admits
 * only the tickets its seller issued (a resold ticket belongs to the seller who issued the
 * original), so one seller cannot use up another's tickets. A ticket is admitted by one guarded
 * batch (its admission recorded, valid to used), so scanners reading the same ticket at once let
 * one person in, not two. A door device can sync the session's entry secrets and admit without
 * signal, uploading its admissions later; the server then decides each (offline-door.ts,
 * docs/entry-codes.md). Its door staff are door-staff.ts.
 */
import { and, asc, eq, gt, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { RESALE_CHAIN_MAX } from '../../config/orders.ts';
import {
  activities,
  activitySessions,
  admissions,
  cities,
  gateStaff,
  listings,
  orders,
  tickets,
  ticketTiers,
  venues,
} from '../../db/schema.ts';
import { admissionRefusal, admitsFor, idNumberEnding, type DoorTicket } from '../../domain/admission.ts';
import { entryCodeValid, parseEntryScan } from '../../domain/entry-code.ts';
import { DomainError } from '../../domain/errors.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import { localizedName } from '../../i18n/locales.ts';
import { entrySecrets } from './entry-secrets.ts';
import { orderWithShowQuery, type OrderWithShowRow } from '../catalogue/show-query.ts';
import type { UserScope } from '../platform/scope.ts';
import { rawBatch } from '../../data/batch.ts';

export interface GateSession {
  id: number;
  activity: { id: number; name: string };
  venueName: string;
  startsAt: number;
  label: string;
}

export interface Admission {
  ticketNo: string;
  seat: string | null;
  tier: string;
  activity: string;
  session: string;
  admittedAt: number;
}

export const sessionRows = (db: Db) =>
  db
    .selectDistinct({ session: activitySessions, activity: activities, venue: venues, city: cities })
    .from(activitySessions)
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .innerJoin(venues, eq(venues.id, activities.venueId))
    .innerJoin(cities, eq(cities.id, venues.cityId));

/** Sessions (all, or the one given) where the user sells tickets of their own (a listing that is not a holder's resale). */
const ownSessionIds = (db: Db, userId: number, sessionId?: number) =>
  db
    .select({ id: ticketTiers.sessionId })
    .from(listings)
    .innerJoin(ticketTiers, eq(ticketTiers.id, listings.tierId))
    .where(
      and(
        eq(listings.sellerId, userId),
        isNull(listings.sourceOrderId),
        sessionId === undefined ? undefined : eq(ticketTiers.sessionId, sessionId),
      ),
    );

/** The sessions the user may staff the gate of (their own, and those a seller assigned them to), not yet ended, soonest first. */
export async function gateSessions(scope: UserScope): Promise<GateSession[]> {
  const { db, ctx, userId, now } = scope;
  const assigned = db.select({ id: gateStaff.sessionId }).from(gateStaff).where(eq(gateStaff.staffId, userId));
  const rows = await sessionRows(db)
    .where(
      and(
        gt(activitySessions.endsAt, now),
        or(inArray(activitySessions.id, ownSessionIds(db, userId)), inArray(activitySessions.id, assigned)),
      ),
    )
    .orderBy(asc(activitySessions.startsAt), asc(activitySessions.id));
  return rows.map(({ session, activity, venue, city }) => ({
    id: session.id,
    activity: { id: activity.id, name: localizedName(activity, ctx.locale) },
    venueName: localizedName(venue, ctx.locale),
    startsAt: session.startsAt,
    label: formatSessionTime(session.startsAt, ctx.locale, city.timeZone),
  }));
}

/** Whether the user sells tickets of their own for the session (and so runs its door and assigns its staff). */
export async function sellsTicketsAt(scope: UserScope, sessionId: number): Promise<boolean> {
  const [row] = await ownSessionIds(scope.db, scope.userId, sessionId).limit(1);
  return row !== undefined;
}

/** The sellers whose tickets the user admits at the session: themselves if they sell there, and whoever assigned them; a 403 when none. */
export async function requireGateStaff(scope: UserScope, sessionId: number): Promise<number[]> {
  const { db, userId } = scope;
  const [own, assigners] = await Promise.all([
    sellsTicketsAt(scope, sessionId),
    db
      .select({ sellerId: gateStaff.sellerId })
      .from(gateStaff)
      .where(and(eq(gateStaff.sessionId, sessionId), eq(gateStaff.staffId, userId))),
  ]);
  const sellers = [...(own ? [userId] : []), ...assigners.map((row) => row.sellerId)];
  if (sellers.length === 0) throw new DomainError('not_gate_staff');
  return sellers;
}

/**
 * The issuing seller of each order that `start` picks (SQL, its columns orderId and issuerId): a
 * resale order's listing points at the order it resells, and so on back to the seller's own
 * listing, whose seller issued the tickets.
 */
export const issuersOf = (start: SQL) => sql`WITH RECURSIVE up(order_id, listing_id, depth) AS (
    SELECT id, listing_id, 0 FROM orders WHERE ${start}
    UNION ALL
    SELECT up.order_id, src.listing_id, up.depth + 1 FROM up
      JOIN listings l ON l.id = up.listing_id JOIN orders src ON src.id = l.source_order_id
    WHERE up.depth < ${RESALE_CHAIN_MAX}
  )
  SELECT up.order_id AS orderId, l.seller_id AS issuerId FROM up JOIN listings l ON l.id = up.listing_id WHERE l.source_order_id IS NULL`;

/** The seller who issued the tickets of an order. */
export async function issuerOf(db: Db, orderId: number): Promise<number | undefined> {
  const [row] = await db.all<{ orderId: number; issuerId: number }>(issuersOf(sql`id = ${orderId}`));
  return row?.issuerId;
}

/** A ticket found for a door, with the show it is for and the seller who issued it. */
export interface FoundTicket {
  ticket: typeof tickets.$inferSelect;
  show: OrderWithShowRow;
  issuerId: number | undefined;
}

/** The e-ticket with this number and its show, or a 404 ticket_not_found (a paper ticket's entry is the paper). */
export async function ticketByNumber(db: Db, ticketNo: string): Promise<FoundTicket> {
  const [ticket] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.ticketNo, ticketNo), isNotNull(tickets.entryNonce)));
  if (!ticket) throw new DomainError('ticket_not_found', {}, 'code');
  const [[show], issuerId] = await Promise.all([orderWithShowQuery(db).where(eq(orders.id, ticket.orderId)), issuerOf(db, ticket.orderId)]);
  return { ticket, show, issuerId };
}

/** When a used ticket was admitted: its admission's time (a ticket used before admissions were recorded, its last change). */
async function admittedAt(db: Db, ticket: typeof tickets.$inferSelect): Promise<number> {
  const [row] = await db.select({ at: admissions.admittedAt }).from(admissions).where(eq(admissions.ticketId, ticket.id));
  return row?.at ?? ticket.updatedAt;
}

/** Throws why the ticket does not admit at this door (another session, already in, resold, void, another seller's), if it does not. */
export async function requireAdmissible(scope: UserScope, sessionId: number, sellers: number[], found: FoundTicket): Promise<void> {
  const { ticket, show, issuerId } = found;
  const refusal = admissionRefusal({ status: ticket.status, sessionId: show.order.sessionId }, sessionId);
  if (refusal) {
    const at = refusal === 'ticket_already_used' ? await admittedAt(scope.db, ticket) : ticket.updatedAt;
    throw new DomainError(refusal, { ticketNo: ticket.ticketNo, time: formatSessionTime(at, scope.ctx.locale, show.city.timeZone) });
  }
  if (issuerId === undefined || !admitsFor(sellers, issuerId)) throw new DomainError('ticket_other_seller', { ticketNo: ticket.ticketNo });
}

export interface AdmissionRecord {
  ticketId: number;
  sessionId: number;
  staffId: number;
  method: 'code' | 'id_check';
  offline: boolean;
  admittedAt: number;
  /** The entry nonce a scanned code was checked against: a ticket reissued since (an attendee change) is not admitted by it. */
  checkedNonce: string | null;
}

/**
 * The statements that admit a ticket, for one batch: its admission is recorded while it is valid
 * (and has none: the unique index), and only if that row was written (`changes()`) the ticket moves
 * from valid to used, so of any number of scans at once (or an offline upload meeting an online
 * scan) exactly one admits, and each admission has its record. The update answers the ticket.
 */
function admissionStatements(db: Db, record: AdmissionRecord, now: number) {
  const d1 = db.$client;
  return {
    recorded: d1
      .prepare(`
      INSERT INTO admissions (ticket_id, session_id, staff_id, method, offline, admitted_at, recorded_at)
      SELECT id, ?2, ?3, ?4, ?5, ?6, ?7 FROM tickets WHERE id = ?1 AND status = 'valid' AND (?8 IS NULL OR entry_nonce = ?8)
      ON CONFLICT (ticket_id) DO NOTHING`)
      .bind(
        record.ticketId,
        record.sessionId,
        record.staffId,
        record.method,
        record.offline ? 1 : 0,
        record.admittedAt,
        now,
        record.checkedNonce,
      ),
    used: d1
      .prepare(`UPDATE tickets SET status = 'used', updated_at = ?2 WHERE id = ?1 AND status = 'valid' AND changes() = 1 RETURNING id`)
      .bind(record.ticketId, now),
  };
}

/** Records the admission of a ticket found admissible, or throws why another request got there first. */
export async function recordAdmission(scope: UserScope, sellers: number[], found: FoundTicket, record: AdmissionRecord): Promise<void> {
  const { db, now } = scope;
  const { used } = await rawBatch(db.$client, admissionStatements(db, record, now));
  if (used.results.length > 0) return;
  // Another scanner admitted it (or it was voided or resold) since it was read, or it was reissued
  // (an attendee change): the scanned code is then one of the old voucher's.
  const [current] = await db.select().from(tickets).where(eq(tickets.id, found.ticket.id));
  await requireAdmissible(scope, record.sessionId, sellers, { ...found, ticket: current });
  if (record.checkedNonce !== null && current.entryNonce !== record.checkedNonce) {
    throw new DomainError('entry_code_expired', { ticketNo: current.ticketNo });
  }
  throw new DomainError('conflict');
}

/** Admits a found ticket now (by its code, or by its number after a photo-ID check), or says why not. */
async function admitNow(
  scope: UserScope,
  sessionId: number,
  sellers: number[],
  found: FoundTicket,
  method: AdmissionRecord['method'],
): Promise<Admission> {
  const { ctx, userId, now } = scope;
  const { ticket, show } = found;
  await recordAdmission(scope, sellers, found, {
    ticketId: ticket.id,
    sessionId,
    staffId: userId,
    method,
    offline: false,
    admittedAt: now,
    checkedNonce: method === 'code' ? ticket.entryNonce : null,
  });
  return {
    ticketNo: ticket.ticketNo,
    seat: ticket.seat,
    tier: localizedName(show.tier, ctx.locale),
    activity: localizedName(show.activity, ctx.locale),
    session: formatSessionTime(show.session.startsAt, ctx.locale, show.city.timeZone),
    admittedAt: now,
  };
}

/**
 * Admits the holder of a scanned voucher (`rawScan`: its ticket number and current entry code) at
 * the session's gate, or says why not: already in, resold, void, another show or seller, or a code
 * outside the skew window (a screenshot, or a code noted down earlier).
 */
export async function admit(scope: UserScope, sessionId: number, rawScan: string): Promise<Admission> {
  const sellers = await requireGateStaff(scope, sessionId);
  const scan = parseEntryScan(rawScan);
  if (scan?.kind !== 'code') throw new DomainError('entry_code_invalid', {}, 'code');
  const found = await ticketByNumber(scope.db, scan.ticketNo);
  await requireAdmissible(scope, sessionId, sellers, found);
  const secret = await (await entrySecrets(scope.env))(found.ticket.ticketNo, found.ticket.entryNonce!);
  if (!(await entryCodeValid(secret, scan.code, scope.now)))
    throw new DomainError('entry_code_expired', { ticketNo: found.ticket.ticketNo });
  return admitNow(scope, sessionId, sellers, found, 'code');
}

/**
 * A ticket of the door that may be admitted, by its number, for the photo-ID check: its tier, seat
 * and real-name attendee (no secret); or why it may not (already in, resold, void, another door's).
 */
export async function ticketForIdCheck(scope: UserScope, sessionId: number, ticketNo: string): Promise<DoorTicket> {
  const sellers = await requireGateStaff(scope, sessionId);
  const number = ticketNo.trim().toUpperCase();
  await requireAdmissible(scope, sessionId, sellers, await ticketByNumber(scope.db, number));
  const [ticket] = await doorTickets(scope, sessionId, sellers, number);
  return { ...ticket, secret: null };
}

/** Admits a ticket by its number after the staff checked the holder's photo ID (the accessible path, recorded as such). */
export async function admitAfterIdCheck(scope: UserScope, sessionId: number, ticketNo: string): Promise<Admission> {
  const sellers = await requireGateStaff(scope, sessionId);
  const found = await ticketByNumber(scope.db, ticketNo.trim().toUpperCase());
  await requireAdmissible(scope, sessionId, sellers, found);
  return admitNow(scope, sessionId, sellers, found, 'id_check');
}

/**
 * The door's tickets of the session (all, or the one numbered `ticketNo`): the e-tickets its
 * sellers issued, with each valid one's entry secret, its tier and the real-name attendee (the
 * order's attendees in ticket order) for the photo-ID check.
 */
export async function doorTickets(scope: UserScope, sessionId: number, sellers: number[], ticketNo?: string): Promise<DoorTicket[]> {
  const { db, env, ctx } = scope;
  const sessionOrders = sql`SELECT id FROM orders WHERE session_id = ${sessionId}`;
  // A real-name order has one attendee per ticket, written in the same order: the nth ticket is the nth attendee's.
  const rows = await db.all<{
    ticketNo: string;
    entryNonce: string;
    seat: string | null;
    status: DoorTicket['status'];
    nameEn: string;
    nameZhHant: string;
    nameZhHans: string;
    attendeeName: string | null;
    idCardType: 'passport' | 'id_card' | null;
    idCardNo: string | null;
    admittedAt: number | null;
    updatedAt: number;
  }>(sql`WITH issuers AS (${issuersOf(sql`session_id = ${sessionId}`)}),
    placed AS (SELECT *, row_number() OVER (PARTITION BY order_id ORDER BY id) AS place FROM tickets WHERE order_id IN (${sessionOrders})),
    people AS (SELECT *, row_number() OVER (PARTITION BY order_id ORDER BY id) AS place FROM order_attendees WHERE order_id IN (${sessionOrders}))
    SELECT t.ticket_no AS ticketNo, t.entry_nonce AS entryNonce, t.seat, t.status,
      tt.name_en AS nameEn, tt.name_zh_hant AS nameZhHant, tt.name_zh_hans AS nameZhHans,
      p.name AS attendeeName, p.id_card_type AS idCardType, p.id_card_no AS idCardNo,
      a.admitted_at AS admittedAt, t.updated_at AS updatedAt
    FROM placed t JOIN issuers i ON i.orderId = t.order_id
    JOIN orders o ON o.id = t.order_id JOIN ticket_tiers tt ON tt.id = o.tier_id
    LEFT JOIN people p ON p.order_id = t.order_id AND p.place = t.place
    LEFT JOIN admissions a ON a.ticket_id = t.id
    WHERE t.entry_nonce IS NOT NULL AND i.issuerId IN (${sql.join(
      sellers.map((id) => sql`${id}`),
      sql`, `,
    )})
      ${ticketNo === undefined ? sql`` : sql`AND t.ticket_no = ${ticketNo}`}
    ORDER BY t.id`);
  const entrySecretOf = await entrySecrets(env);
  return Promise.all(
    rows.map(async (row) => ({
      ticketNo: row.ticketNo,
      secret: row.status === 'valid' ? await entrySecretOf(row.ticketNo, row.entryNonce) : null,
      status: row.status,
      seat: row.seat,
      tier: localizedName(row, ctx.locale),
      attendee:
        row.attendeeName && row.idCardType && row.idCardNo
          ? { name: row.attendeeName, idType: row.idCardType, idEnding: idNumberEnding(row.idCardNo) }
          : null,
      admittedAt: row.status === 'used' ? (row.admittedAt ?? row.updatedAt) : null,
    })),
  );
}

/** Tickets admitted so far at a session's gate, of the sellers this door admits for, for the staff's running count. */
export async function admittedCount(scope: UserScope, sessionId: number): Promise<{ admitted: number; issued: number }> {
  const sellers = await requireGateStaff(scope, sessionId);
  const [row] = await scope.db.all<{ admitted: number; issued: number }>(sql`WITH issuers AS (${issuersOf(sql`session_id = ${sessionId}`)})
    SELECT coalesce(sum(t.status = 'used'), 0) AS admitted, coalesce(sum(t.status IN ('valid', 'used')), 0) AS issued
    FROM tickets t JOIN issuers i ON i.orderId = t.order_id
    WHERE i.issuerId IN (${sql.join(
      sellers.map((id) => sql`${id}`),
      sql`, `,
    )})`);
  return row;
}
