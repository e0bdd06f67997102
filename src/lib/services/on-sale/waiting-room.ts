/**
 * A high-demand on-sale's waiting room (docs/hot-on-sale.md): a session's, or one tier's
 * (domain/on-sale.ts), as the API and the pages use it: joining (signed in: one place per account), where a position stands (anyone: the room's front,
 * read by each isolate at most once a second, and once however many polls arrive during the read, so
 * the waiting pages' polling does not all reach the room), the pass an admitted buyer's checkout
 * carries, and checkout's check of it.
 */
import { and, eq, sql } from 'drizzle-orm';
import { TURNSTILE_ACTION } from '../../config/accounts.ts';
import { WAITING_ROOM_PASS_LIFETIME_MS } from '../../config/on-sale.ts';
import { prefixed } from '../../data/batch-columns.ts';
import type { Db } from '../../data/client.ts';
import { type Read, read, readOne } from '../../data/read-together.ts';
import { activities, activitySessions, ticketTiers } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { type OnSale, onSaleOf, sameOnSale, waitingRoomName } from '../../domain/on-sale.ts';
import { localizedName } from '../../i18n/locales.ts';
import {
  earlyAskAfterMs,
  estimatedWaitMs,
  placeInLine,
  pollAfterMs,
  spreadPollMs,
  stateOf,
  type RoomFront,
  type WaitingState,
} from '../../domain/waiting-room.ts';
import type { ClaimedUserScope, RequestScope, UserScope } from '../platform/scope.ts';
import { readSignedIn } from '../accounts/signed-in.ts';
import type { PresentedChallenge } from '../../domain/turnstile.ts';
import { challengeWidget, requireSolvedChallenge } from '../protection/turnstile.ts';
import { issuePass, judgePass } from './waiting-room-pass.ts';
import type { OnSaleWaitingRoom } from '../../data/inventory-port.ts';

/** Where a buyer stands, as the waiting page shows it. */
export interface WaitingView {
  sessionId: number;
  /** A tier's own on-sale's room, with the tier's name in the request's language; null for a session's. */
  tierId: number | null;
  tierName: string | null;
  activityId: number;
  state: WaitingState;
  /** Null in the early group until the draw at the opening. */
  position: number | null;
  /** 1 is next; null while early. */
  place: number | null;
  /** The honest estimate from the room's rate; null while early or when the room lets nobody through. */
  estimatedWaitMs: number | null;
  /** When the page should ask again: spread at random per answer, so that pages told together do not ask together. */
  pollAfterMs: number;
  opensAt: number;
  /** How long until the opening by the server's clock (0 once open): an early page asks for its drawn position then. */
  opensInMs: number;
  /** Whether the early group has its order: an early buyer's page then asks for its position. */
  drawn: boolean;
  /** No ticket of the on-sale is left for now: the line waits, in order, for tickets that come back. */
  soldOut: boolean;
}

/** An admitted buyer's pass to checkout, with when it runs out. */
export interface WaitingPass {
  pass: string;
  expiresAt: number;
}

/** A tier's names in the three catalogues: a front read once serves every language. */
type TierNames = Parameters<typeof localizedName>[0];

/** The tickets D1 has on sale in the on-sale's listings: a session's (every tier) or one tier's. */
const ticketsLeft = ({ tierId }: OnSale) =>
  sql<number>`(
    SELECT coalesce(sum(l.quantity_available), 0) FROM ticket_tiers t JOIN listings l ON l.tier_id = t.id AND l.status = 'active'
    WHERE t.session_id = ${activitySessions.id}${tierId === null ? sql`` : sql` AND t.id = ${tierId}`}
  )`.mapWith(Number);

interface OpenOnSale {
  activityId: number;
  opensAt: number;
  tier: TierNames | null;
  soldOut: boolean;
}

/**
 * The on-sale's activity and opening, when it is the on-sale its buyers go through now: a high-demand
 * session's, or a high-demand tier's of a session that is not (a high-demand session covers its
 * tiers), and whether it is sold out for now; null for anything else, which has no waiting room. A
 * read, so that a join sends it with the sign-in's session read.
 */
function onSaleRead(db: Db, onSale: OnSale): Read<OpenOnSale | null> {
  const query = db
    .select({
      activityId: activities.id,
      opensAt: activities.saleStartsAt,
      sessionHighDemand: prefixed('session', activitySessions, ['highDemand']).highDemand,
      tierHighDemand: prefixed('tier', ticketTiers, ['highDemand']).highDemand,
      tierNameEn: ticketTiers.nameEn,
      tierNameZhHant: ticketTiers.nameZhHant,
      tierNameZhHans: ticketTiers.nameZhHans,
      ticketsLeft: ticketsLeft(onSale),
    })
    .from(activitySessions)
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .leftJoin(ticketTiers, and(eq(ticketTiers.id, onSale.tierId ?? 0), eq(ticketTiers.sessionId, activitySessions.id)))
    .where(eq(activitySessions.id, onSale.sessionId));
  return read({ opening: query }, ({ opening: [row] }) => {
    const current =
      row &&
      onSaleOf(
        { id: onSale.sessionId, highDemand: row.sessionHighDemand },
        { id: onSale.tierId ?? 0, highDemand: row.tierHighDemand ?? false },
      );
    if (!row || !sameOnSale(current, onSale)) return null;
    const { tierNameEn, tierNameZhHant, tierNameZhHans } = row;
    const tier = onSale.tierId === null ? null : { nameEn: tierNameEn!, nameZhHant: tierNameZhHant!, nameZhHans: tierNameZhHans! };
    return { activityId: row.activityId, opensAt: row.opensAt, tier, soldOut: row.ticketsLeft === 0 };
  });
}

/** The on-sale read, or `waiting_room_not_found` when it has no waiting room. */
function roomOf(open: OpenOnSale | null): OpenOnSale {
  if (!open) throw new DomainError('waiting_room_not_found');
  return open;
}

/** The on-sale read alone (a front read, the dev door), or `waiting_room_not_found`. */
const openOnSale = async (scope: RequestScope, onSale: OnSale): Promise<OpenOnSale> =>
  roomOf(await readOne(scope.db, onSaleRead(scope.db, onSale)));

function viewOf(
  scope: RequestScope,
  { tier, ...onSale }: OnSale & { tier: TierNames | null; activityId: number },
  position: number | null,
  state: WaitingState,
  front: RoomFront,
): WaitingView {
  const { now } = scope;
  const place = position === null || state !== 'waiting' ? null : placeInLine(position, front.admittedThrough);
  const wait = place === null ? null : estimatedWaitMs(place, front, now);
  const opensInMs = Math.max(0, front.opensAt - now);
  const random = Math.random;
  const askAfter =
    state === 'admitted' ? 0 : state === 'early' ? earlyAskAfterMs(opensInMs, random) : spreadPollMs(pollAfterMs(wait, place), random);
  return {
    ...onSale,
    tierName: tier && localizedName(tier, scope.ctx.locale),
    state,
    position,
    place,
    estimatedWaitMs: wait,
    pollAfterMs: askAfter,
    opensAt: front.opensAt,
    opensInMs,
    drawn: front.drawn,
    soldOut: front.soldOut,
  };
}

/**
 * A new place in the line needs a solved challenge (each bot account would otherwise take one); a
 * buyer already in the line (a reload, a return) keeps theirs without. The room is asked only when
 * challenges are on and no token came.
 */
async function challengeNewPlace(scope: UserScope, room: OnSaleWaitingRoom, challenge: PresentedChallenge): Promise<void> {
  if (!challenge.token && challengeWidget(scope.env) !== null && (await room.standing(scope.userId, scope.now)) !== null) return;
  await requireSolvedChallenge(scope.env, TURNSTILE_ACTION.waitingRoomJoin, challenge);
}

/**
 * Takes the buyer's place in the on-sale's line, or answers the place they already have. The
 * sign-in is confirmed in the on-sale's read: a join is one round trip to D1 (the crowd's request
 * at an opening), and a dead session is `unauthorized` before a missing room.
 */
export async function joinWaitingRoom(claimed: ClaimedUserScope, onSale: OnSale, challenge: PresentedChallenge): Promise<WaitingView> {
  const { scope, rows } = await readSignedIn(claimed, () => ({ onSale: onSaleRead(claimed.db, onSale) }));
  const { activityId, opensAt, tier, soldOut } = roomOf(rows.onSale);
  const room = scope.onSales.waitingRoom(onSale);
  await challengeNewPlace(scope, room, challenge);
  const standing = await room.join(scope.userId, scope.now, opensAt, soldOut);
  return viewOf(scope, { ...onSale, tier, activityId }, standing.position, standing.state, standing.front);
}

const FRONT_REUSE_MS = 1000;
/**
 * The rooms' fronts this isolate read last, or is reading, so that many waiting pages cost each room
 * one read a second: polls that arrive while a read is under way wait for it instead of each reading
 * again (on a busy isolate a read takes longest exactly when most polls pile up).
 */
interface FrontRead {
  activityId: number;
  tier: TierNames | null;
  front: RoomFront;
}
const fronts = new Map<string, { readAt: number; read: Promise<FrontRead> }>();

async function readFront(scope: RequestScope, onSale: OnSale): Promise<FrontRead> {
  const { activityId, opensAt, tier, soldOut } = await openOnSale(scope, onSale);
  return { activityId, tier, front: await scope.onSales.waitingRoom(onSale).front(scope.now, opensAt, soldOut) };
}

function frontOf(scope: RequestScope, onSale: OnSale): Promise<FrontRead> {
  const room = waitingRoomName(onSale);
  const known = fronts.get(room);
  if (known && scope.now - known.readAt < FRONT_REUSE_MS) return known.read;
  const read = readFront(scope, onSale);
  const entry = { readAt: scope.now, read };
  fronts.set(room, entry);
  // A failed read is not kept: the next poll reads again.
  read.catch(() => {
    if (fronts.get(room) === entry) fronts.delete(room);
  });
  return read;
}

/**
 * Where a position stands now, for anyone (a position alone lets no one buy: the pass is only for
 * the account that holds it). Without a position: how the early group stands.
 */
export async function waitingPosition(scope: RequestScope, onSale: OnSale, position: number | null): Promise<WaitingView> {
  const { activityId, tier, front } = await frontOf(scope, onSale);
  return viewOf(scope, { ...onSale, tier, activityId }, position, stateOf(position, front), front);
}

/** A pass's on-sale claim: a session's names no tier. */
const passOnSale = ({ sessionId, tierId }: OnSale) => (tierId === null ? { sessionId } : { sessionId, tierId });

/** The signed-in buyer's pass to this on-sale's checkout, or null when they have not been let through (or it ran out). */
export async function passFor(scope: UserScope, onSale: OnSale): Promise<WaitingPass | null> {
  const standing = await scope.onSales.waitingRoom(onSale).standing(scope.userId, scope.now);
  if (standing?.state !== 'admitted' || standing.admittedAt === null) return null;
  const expiresAt = standing.admittedAt + WAITING_ROOM_PASS_LIFETIME_MS;
  return { pass: await issuePass(scope.env, { userId: scope.userId, ...passOnSale(onSale), expiresAt }), expiresAt };
}

/** Checkout's door to a high-demand on-sale: only with this account's own unexpired pass for this very on-sale. */
export async function checkWaitingRoomPass(scope: UserScope, onSale: OnSale, presented: string | undefined): Promise<void> {
  if (!presented) throw new DomainError('waiting_room_pass_required');
  const verdict = await judgePass(scope.env, presented, { userId: scope.userId, ...passOnSale(onSale), now: scope.now });
  if (verdict !== 'valid') throw new DomainError('waiting_room_pass_invalid');
}

/** Lets the next `count` buyers through now (local builds only: the dev route). */
export async function admitNextBuyers(scope: RequestScope, onSale: OnSale, count: number): Promise<RoomFront> {
  const front = await scope.onSales.waitingRoom(onSale).admitNext(count, scope.now, (await openOnSale(scope, onSale)).opensAt);
  fronts.delete(waitingRoomName(onSale));
  return front;
}

/** Sets the room's rate from now on (local builds only: the dev route; 0 stops it). */
export async function setAdmissionRate(scope: RequestScope, onSale: OnSale, perMinute: number): Promise<RoomFront> {
  const front = await scope.onSales.waitingRoom(onSale).setRate(perMinute, scope.now, (await openOnSale(scope, onSale)).opensAt);
  fronts.delete(waitingRoomName(onSale));
  return front;
}
