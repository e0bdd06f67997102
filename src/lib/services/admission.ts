/**
 * The gate: door staff admit ticket holders by their entry code. Staff of a session are the sellers
 * who sell tickets for it (a listing of their own on one of its tiers, not a ticket holder's transfer
 * listing); they admit any ticket of the session, whoever sold it, as a door does. A code is looked up
 * by its SHA-256 (the only form stored), and a ticket is admitted by one guarded update from valid to
 * used, so two scanners reading the same code at once let one person in, not two.
 */
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { ApiError } from '../api/errors.ts';
import type { Db } from '../db/client.ts';
import { activities, activitySessions, cities, listings, orders, tickets, ticketTiers, venues } from '../db/schema.ts';
import { admissionRefusal, normalizeEntryCode } from '../domain/admission.ts';
import { sha256Hex } from '../domain/password.ts';
import type { RequestContext } from '../domain/request-context.ts';
import { formatSessionTime } from '../domain/session-time.ts';
import { localizedName } from '../i18n/locales.ts';
import { orderWithShowQuery } from './order-show.ts';

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

/** The sessions the user may staff the gate of: those they sell tickets for, not yet ended, soonest first. */
export async function gateSessions(db: Db, ctx: RequestContext, userId: number, now: number): Promise<GateSession[]> {
  const rows = await db
    .selectDistinct({ session: activitySessions, activity: activities, venue: venues, city: cities })
    .from(listings)
    .innerJoin(ticketTiers, eq(ticketTiers.id, listings.tierId))
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .innerJoin(venues, eq(venues.id, activities.venueId))
    .innerJoin(cities, eq(cities.id, venues.cityId))
    .where(and(eq(listings.sellerId, userId), isNull(listings.sourceOrderId), gt(activitySessions.endsAt, now)))
    .orderBy(asc(activitySessions.startsAt), asc(activitySessions.id));
  return rows.map(({ session, activity, venue, city }) => ({
    id: session.id,
    activity: { id: activity.id, name: localizedName(activity, ctx.locale) },
    venueName: localizedName(venue, ctx.locale),
    startsAt: session.startsAt,
    label: formatSessionTime(session.startsAt, ctx.locale, city.timeZone),
  }));
}

/** The user staffs the gate of the session, or it is a 403. */
async function requireGateStaff(db: Db, userId: number, sessionId: number): Promise<void> {
  const [row] = await db
    .select({ id: listings.id })
    .from(listings)
    .innerJoin(ticketTiers, eq(ticketTiers.id, listings.tierId))
    .where(and(eq(listings.sellerId, userId), isNull(listings.sourceOrderId), eq(ticketTiers.sessionId, sessionId)))
    .limit(1);
  if (!row) throw new ApiError(403, 'not_gate_staff');
}

/** Admits the holder of `rawCode` at the session's gate, or says why not (already in, resold, void, another show). */
export async function admit(db: Db, ctx: RequestContext, userId: number, sessionId: number, rawCode: string, now: number): Promise<Admission> {
  await requireGateStaff(db, userId, sessionId);
  const code = normalizeEntryCode(rawCode);
  if (!code) throw new ApiError(400, 'entry_code_invalid', {}, 'code');
  const [ticket] = await db.select().from(tickets).where(eq(tickets.codeHash, await sha256Hex(code)));
  if (!ticket) throw new ApiError(404, 'ticket_not_found', {}, 'code');
  const [show] = await orderWithShowQuery(db).where(eq(orders.id, ticket.orderId));
  const time = (ms: number) => formatSessionTime(ms, ctx.locale, show.city.timeZone);
  const refuse = (current: typeof ticket): never => {
    const refusal = admissionRefusal({ status: current.status, sessionId: show.order.sessionId }, sessionId) ?? 'ticket_already_used';
    throw new ApiError(409, refusal, { ticketNo: current.ticketNo, time: time(current.updatedAt) });
  };
  if (admissionRefusal({ status: ticket.status, sessionId: show.order.sessionId }, sessionId)) refuse(ticket);

  const [admitted] = await db
    .update(tickets)
    .set({ status: 'used', updatedAt: now })
    .where(and(eq(tickets.id, ticket.id), eq(tickets.status, 'valid')))
    .returning();
  // Another scanner admitted it (or it was voided) since it was read.
  if (!admitted) refuse((await db.select().from(tickets).where(eq(tickets.id, ticket.id)))[0]);
  return {
    ticketNo: admitted.ticketNo,
    seat: admitted.seat,
    tier: localizedName(show.tier, ctx.locale),
    activity: localizedName(show.activity, ctx.locale),
    session: time(show.session.startsAt),
    admittedAt: now,
  };
}

/** Tickets admitted so far at a session's gate, for the staff's running count. */
export async function admittedCount(db: Db, userId: number, sessionId: number): Promise<{ admitted: number; issued: number }> {
  await requireGateStaff(db, userId, sessionId);
  const [row] = await db
    .select({
      admitted: sql<number>`coalesce(sum(${tickets.status} = 'used'), 0)`,
      issued: sql<number>`coalesce(sum(${tickets.status} IN ('valid', 'used')), 0)`,
    })
    .from(tickets)
    .innerJoin(orders, eq(orders.id, tickets.orderId))
    .where(eq(orders.sessionId, sessionId));
  return row;
}
