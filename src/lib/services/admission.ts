/**
 * The gate: door staff admit ticket holders by their entry code. A seller with tickets on sale for
 * a session (a listing of their own, not a holder's transfer listing) staffs its door and may assign
 * other accounts as door staff for that session; each door admits only the tickets its seller issued
 * (a resold ticket belongs to the seller who issued the original), so one seller cannot use up
 * another's tickets. A code is looked up by its SHA-256 (the only form stored), and a ticket is
 * admitted by one guarded update from valid to used, so two scanners reading the same code at once
 * let one person in, not two.
 */
import { and, asc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { GATE_STAFF_MAX, RESALE_CHAIN_MAX } from '../config.ts';
import { activities, activitySessions, cities, gateStaff, listings, orders, tickets, ticketTiers, users, venues } from '../db/schema.ts';
import { admissionRefusal, admitsFor, normalizeEntryCode, parseStaffAccount } from '../domain/admission.ts';
import { DomainError } from '../domain/errors.ts';
import { sha256Hex } from '../domain/password.ts';
import { formatSessionTime } from '../domain/session-time.ts';
import { localizedName } from '../i18n/locales.ts';
import { orderWithShowQuery } from './show-query.ts';
import type { UserScope } from './scope.ts';

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

const sessionRows = (db: Db) =>
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
async function requireGateStaff(scope: UserScope, sessionId: number): Promise<number[]> {
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

/** Admits the holder of `rawCode` at the session's gate, or says why not (already in, resold, void, another show). */
export async function admit(scope: UserScope, sessionId: number, rawCode: string): Promise<Admission> {
  const { db, ctx, now } = scope;
  const sellers = await requireGateStaff(scope, sessionId);
  const code = normalizeEntryCode(rawCode);
  if (!code) throw new DomainError('entry_code_invalid', {}, 'code');
  const codeHash = await sha256Hex(code);
  const [ticket] = await db.select().from(tickets).where(eq(tickets.codeHash, codeHash));
  if (!ticket) throw new DomainError('ticket_not_found', {}, 'code');
  const [show] = await orderWithShowQuery(db).where(eq(orders.id, ticket.orderId));
  const time = (ms: number) => formatSessionTime(ms, ctx.locale, show.city.timeZone);
  const refuse = (current: typeof ticket): never => {
    const refusal = admissionRefusal({ status: current.status, sessionId: show.order.sessionId }, sessionId) ?? 'ticket_already_used';
    throw new DomainError(refusal, { ticketNo: current.ticketNo, time: time(current.updatedAt) });
  };
  if (admissionRefusal({ status: ticket.status, sessionId: show.order.sessionId }, sessionId)) refuse(ticket);
  const issuer = await issuerOf(db, ticket.orderId);
  if (issuer === undefined || !admitsFor(sellers, issuer)) throw new DomainError('ticket_other_seller', { ticketNo: ticket.ticketNo });

  // Guarded on the code too: a code reissued since it was read (an attendee change) no longer admits.
  const [admitted] = await db
    .update(tickets)
    .set({ status: 'used', updatedAt: now })
    .where(and(eq(tickets.id, ticket.id), eq(tickets.status, 'valid'), eq(tickets.codeHash, codeHash)))
    .returning();
  if (!admitted) {
    // Another scanner admitted it (or it was voided) since it was read, or its code was reissued.
    const [current] = await db.select().from(tickets).where(eq(tickets.id, ticket.id));
    if (current.codeHash !== codeHash) throw new DomainError('ticket_not_found', {}, 'code');
    refuse(current);
  }
  return {
    ticketNo: admitted.ticketNo,
    seat: admitted.seat,
    tier: localizedName(show.tier, ctx.locale),
    activity: localizedName(show.activity, ctx.locale),
    session: time(show.session.startsAt),
    admittedAt: now,
  };
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

// ---------------------------------------------------------------------------------------------
// Door staff, assigned by a seller for one session

export interface DoorStaff {
  userId: number;
  nickname: string;
  /** How the seller named them: the email, or the phone with its calling code. */
  account: string;
}

/** The session's door staff the seller assigned; a 403 for anyone who does not sell at the session. */
export async function doorStaff(scope: UserScope, sessionId: number): Promise<DoorStaff[]> {
  const { db, userId: sellerId } = scope;
  if (!(await sellsTicketsAt(scope, sessionId))) throw new DomainError('not_gate_staff');
  const rows = await db
    .select({
      userId: users.id,
      nickname: users.nickname,
      email: users.email,
      phoneCountryCode: users.phoneCountryCode,
      phone: users.phone,
    })
    .from(gateStaff)
    .innerJoin(users, eq(users.id, gateStaff.staffId))
    .where(and(eq(gateStaff.sessionId, sessionId), eq(gateStaff.sellerId, sellerId)))
    .orderBy(asc(gateStaff.id));
  return rows.map((row) => ({ userId: row.userId, nickname: row.nickname, account: row.email ?? `${row.phoneCountryCode} ${row.phone}` }));
}

/** Lets the account named by `accountText` admit the seller's tickets at the session's door; answers the staff list. */
export async function assignDoorStaff(scope: UserScope, sessionId: number, accountText: string): Promise<DoorStaff[]> {
  const { db, userId: sellerId, now } = scope;
  const current = await doorStaff(scope, sessionId);
  const account = parseStaffAccount(accountText);
  if (!account) throw new DomainError('staff_account_invalid', {}, 'account');
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      account.kind === 'email'
        ? eq(users.email, account.email)
        : and(eq(users.phoneCountryCode, account.callingCode), eq(users.phone, account.number)),
    );
  if (!user) throw new DomainError('staff_account_not_found', {}, 'account');
  if (user.id === sellerId) throw new DomainError('staff_is_seller', {}, 'account');
  if (current.some((staff) => staff.userId === user.id)) return current;
  if (current.length >= GATE_STAFF_MAX) throw new DomainError('staff_limit_reached', { max: GATE_STAFF_MAX }, 'account');
  await db.insert(gateStaff).values({ sessionId, sellerId, staffId: user.id, createdAt: now }).onConflictDoNothing();
  return doorStaff(scope, sessionId);
}

/** Ends an account's door duty for the seller at the session (nothing to do when it had none); answers the staff list. */
export async function removeDoorStaff(scope: UserScope, sessionId: number, staffId: number): Promise<DoorStaff[]> {
  const { db, userId: sellerId } = scope;
  if (!(await sellsTicketsAt(scope, sessionId))) throw new DomainError('not_gate_staff');
  await db
    .delete(gateStaff)
    .where(and(eq(gateStaff.sessionId, sessionId), eq(gateStaff.sellerId, sellerId), eq(gateStaff.staffId, staffId)));
  return doorStaff(scope, sessionId);
}
