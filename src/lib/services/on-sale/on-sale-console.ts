/**
 * The console's view of on-sales: the sessions on sale now or soon (with their waiting rooms' line
 * sizes), one session's sale times and switches, and its live state (in line, admitted, sold) read
 * from D1 and, for a high-demand session or tier, from its waiting room through the port
 * (data/inventory-port.ts `peek`): no room is made for asking.
 */
import { and, asc, desc, eq, gt, inArray, lte, ne, or, sql, sum } from 'drizzle-orm';
import { ON_SALE_LIST_LIMIT, ON_SALE_SOON_MS } from '../../config/on-sale.ts';
import { activities, activitySessions, listings, orders, ticketTiers } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import type { OnSale } from '../../domain/on-sale.ts';
import type { SessionStatus } from '../../domain/show-changes.ts';
import { localizedName } from '../../i18n/locales.ts';
import type { RequestScope } from '../platform/scope.ts';
import { PAID_STATUSES } from '../catalogue/show-changes.ts';
import { admissionRateOf, type AdmissionRate } from './admission-rate.ts';

export const ON_SALE_WHEN = ['now', 'soon', 'all'] as const;
export type OnSaleWhen = (typeof ON_SALE_WHEN)[number];

export interface OnSaleFilter {
  /** On sale now, opening within ON_SALE_SOON_MS, or either. */
  when: OnSaleWhen;
  highDemandOnly: boolean;
  /** Part of the activity's name in any script; empty for all. */
  query: string;
}

export interface OnSaleRow {
  sessionId: number;
  activityId: number;
  activityName: string;
  startsAt: number;
  saleStartsAt: number;
  status: SessionStatus;
  highDemand: boolean;
  /** Buyers waiting in the session's room (not yet let through); null without a room. */
  inLine: number | null;
}

/** A waiting room's progress as the console shows it. */
export interface RoomState {
  /** Waiting, not yet let through. */
  inLine: number;
  /** Let through to checkout so far. */
  admitted: number;
  admissionsPerMinute: number;
  opensAt: number;
  soldOut: boolean;
}

async function roomState(scope: RequestScope, onSale: OnSale): Promise<RoomState | null> {
  const front = await scope.onSales.waitingRoom(onSale).peek(scope.now);
  if (!front) return null;
  return {
    inLine: Math.max(0, front.lined - front.admittedThrough),
    admitted: front.admittedThrough,
    admissionsPerMinute: front.admissionsPerMinute,
    opensAt: front.opensAt,
    soldOut: front.soldOut,
  };
}

/** Percent signs and underscores typed by the operator are letters, not wildcards. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/** Sessions not yet played and not cancelled whose sale is open now or opens soon, high demand first. */
export async function onSaleSessions(scope: RequestScope, filter: OnSaleFilter): Promise<OnSaleRow[]> {
  const { db, now, ctx } = scope;
  const opensBy = filter.when === 'now' ? lte(activities.saleStartsAt, now) : lte(activities.saleStartsAt, now + ON_SALE_SOON_MS);
  const text = filter.query.trim();
  const named = text
    ? or(
        sql`${activities.nameEn} LIKE ${likeText(text)} ESCAPE '\\'`,
        sql`${activities.nameZhHant} LIKE ${likeText(text)} ESCAPE '\\'`,
        sql`${activities.nameZhHans} LIKE ${likeText(text)} ESCAPE '\\'`,
      )
    : undefined;
  const rows = await db
    .select({
      sessionId: activitySessions.id,
      activityId: activities.id,
      nameEn: activities.nameEn,
      nameZhHant: activities.nameZhHant,
      nameZhHans: activities.nameZhHans,
      startsAt: activitySessions.startsAt,
      saleStartsAt: activities.saleStartsAt,
      status: activitySessions.status,
      highDemand: activitySessions.highDemand,
    })
    .from(activitySessions)
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .where(
      and(
        gt(activitySessions.startsAt, now),
        ne(activitySessions.status, 'cancelled'),
        opensBy,
        filter.when === 'soon' ? gt(activities.saleStartsAt, now) : undefined,
        filter.highDemandOnly ? eq(activitySessions.highDemand, true) : undefined,
        named,
      ),
    )
    .orderBy(desc(activitySessions.highDemand), asc(activities.saleStartsAt), asc(activitySessions.id))
    .limit(ON_SALE_LIST_LIMIT);
  return Promise.all(
    rows.map(async ({ nameEn, nameZhHant, nameZhHans, ...row }) => ({
      ...row,
      activityName: localizedName({ nameEn, nameZhHant, nameZhHans }, ctx.locale),
      inLine: row.highDemand ? ((await roomState(scope, { sessionId: row.sessionId, tierId: null }))?.inLine ?? null) : null,
    })),
  );
}

export interface OnSaleTier {
  tierId: number;
  name: string;
  highDemand: boolean;
}

/** One session as its on-sale screen shows it. */
export interface OnSaleSession {
  sessionId: number;
  activityId: number;
  activityName: string;
  startsAt: number;
  endsAt: number;
  status: SessionStatus;
  refundUntil: number | null;
  saleStartsAt: number;
  highDemand: boolean;
  tiers: OnSaleTier[];
  admissionRate: AdmissionRate;
}

export async function onSaleSession(scope: RequestScope, sessionId: number): Promise<OnSaleSession> {
  const { db, ctx } = scope;
  // Apart, not in one batch: a batch's rows come back keyed by column name, and the session's id and its activity's would collide.
  const [session, tiers] = await Promise.all([
    db
      .select({
        sessionId: activitySessions.id,
        activityId: activities.id,
        nameEn: activities.nameEn,
        nameZhHant: activities.nameZhHant,
        nameZhHans: activities.nameZhHans,
        startsAt: activitySessions.startsAt,
        endsAt: activitySessions.endsAt,
        status: activitySessions.status,
        refundUntil: activitySessions.refundUntil,
        saleStartsAt: activities.saleStartsAt,
        highDemand: activitySessions.highDemand,
      })
      .from(activitySessions)
      .innerJoin(activities, eq(activities.id, activitySessions.activityId))
      .where(eq(activitySessions.id, sessionId)),
    db
      .select({
        tierId: ticketTiers.id,
        nameEn: ticketTiers.nameEn,
        nameZhHant: ticketTiers.nameZhHant,
        nameZhHans: ticketTiers.nameZhHans,
        highDemand: ticketTiers.highDemand,
      })
      .from(ticketTiers)
      .where(eq(ticketTiers.sessionId, sessionId))
      .orderBy(asc(ticketTiers.sort), asc(ticketTiers.id)),
  ]);
  const [row] = session;
  if (!row) throw new DomainError('session_not_found');
  const { nameEn, nameZhHant, nameZhHans, ...rest } = row;
  return {
    ...rest,
    activityName: localizedName({ nameEn, nameZhHant, nameZhHans }, ctx.locale),
    tiers: tiers.map(({ nameEn: en, nameZhHant: hant, nameZhHans: hans, ...tier }) => ({
      ...tier,
      name: localizedName({ nameEn: en, nameZhHant: hant, nameZhHans: hans }, ctx.locale),
    })),
    admissionRate: await admissionRateOf(db, sessionId),
  };
}

/** A session's on-sale as it stands now: its tickets, and its rooms' lines. */
export interface OnSaleLiveState {
  sessionId: number;
  highDemand: boolean;
  /** Tickets in paid orders, in orders awaiting payment, and still on sale. */
  sold: number;
  held: number;
  left: number;
  room: RoomState | null;
  /** The high-demand tiers' own rooms. */
  tierRooms: { tierId: number; room: RoomState | null }[];
  at: number;
}

export async function onSaleLiveState(scope: RequestScope, sessionId: number): Promise<OnSaleLiveState> {
  const { db, now } = scope;
  const tiersOfSession = db.select({ id: ticketTiers.id }).from(ticketTiers).where(eq(ticketTiers.sessionId, sessionId));
  const [session, tickets, left, tiers] = await Promise.all([
    db.select({ highDemand: activitySessions.highDemand }).from(activitySessions).where(eq(activitySessions.id, sessionId)),
    db
      .select({ status: orders.status, quantity: sum(orders.quantity).mapWith(Number) })
      .from(orders)
      .where(and(eq(orders.sessionId, sessionId), inArray(orders.status, ['pending_payment', ...PAID_STATUSES])))
      .groupBy(orders.status),
    db
      .select({ quantity: sum(listings.quantityAvailable).mapWith(Number) })
      .from(listings)
      .where(and(inArray(listings.tierId, tiersOfSession), eq(listings.status, 'active'))),
    db
      .select({ tierId: ticketTiers.id })
      .from(ticketTiers)
      .where(and(eq(ticketTiers.sessionId, sessionId), eq(ticketTiers.highDemand, true))),
  ]);
  const [row] = session;
  if (!row) throw new DomainError('session_not_found');
  const quantity = (statuses: readonly string[]) =>
    tickets.filter((line) => statuses.includes(line.status)).reduce((total, line) => total + (line.quantity ?? 0), 0);
  const [room, tierRooms] = await Promise.all([
    row.highDemand ? roomState(scope, { sessionId, tierId: null }) : null,
    Promise.all(tiers.map(async ({ tierId }) => ({ tierId, room: await roomState(scope, { sessionId, tierId }) }))),
  ]);
  return {
    sessionId,
    highDemand: row.highDemand,
    sold: quantity(PAID_STATUSES),
    held: quantity(['pending_payment']),
    left: left[0]?.quantity ?? 0,
    room,
    tierRooms,
    at: now,
  };
}
