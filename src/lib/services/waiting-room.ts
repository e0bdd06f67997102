/**
 * A high-demand session's waiting room (issue 20, docs/hot-on-sale.md) as the API and the pages use
 * it: joining (signed in: one place per account), where a position stands (anyone: the room's front,
 * read by each isolate at most once a second, and once however many polls arrive during the read, so
 * the waiting pages' polling does not all reach the room), the pass an admitted buyer's checkout
 * carries, and checkout's check of it.
 */
import { and, eq } from 'drizzle-orm';
import { WAITING_ROOM_PASS_LIFETIME_MS } from '../config.ts';
import { activities, activitySessions } from '../db/schema.ts';
import { DomainError } from '../domain/errors.ts';
import {
  earlyAskAfterMs,
  estimatedWaitMs,
  placeInLine,
  pollAfterMs,
  spreadPollMs,
  stateOf,
  type RoomFront,
  type WaitingState,
} from '../domain/waiting-room.ts';
import { waitingRoom } from '../durable-objects/waiting-room.ts';
import type { RequestScope, UserScope } from './scope.ts';
import { issuePass, judgePass } from './waiting-room-pass.ts';

/** Where a buyer stands, as the waiting page shows it. */
export interface WaitingView {
  sessionId: number;
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
}

/** An admitted buyer's pass to checkout, with when it runs out. */
export interface WaitingPass {
  pass: string;
  expiresAt: number;
}

/** The session's activity and opening, when it is a high-demand session; anything else has no waiting room. */
async function onSaleOf(scope: RequestScope, sessionId: number): Promise<{ activityId: number; opensAt: number }> {
  const [row] = await scope.db
    .select({ activityId: activities.id, opensAt: activities.saleStartsAt })
    .from(activitySessions)
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .where(and(eq(activitySessions.id, sessionId), eq(activitySessions.highDemand, true)));
  if (!row) throw new DomainError('waiting_room_not_found');
  return row;
}

function viewOf(
  onSale: { sessionId: number; activityId: number },
  position: number | null,
  state: WaitingState,
  front: RoomFront,
  now: number,
): WaitingView {
  const place = position === null || state !== 'waiting' ? null : placeInLine(position, front.admittedThrough);
  const wait = place === null ? null : estimatedWaitMs(place, front, now);
  const opensInMs = Math.max(0, front.opensAt - now);
  const random = Math.random;
  const askAfter =
    state === 'admitted' ? 0 : state === 'early' ? earlyAskAfterMs(opensInMs, random) : spreadPollMs(pollAfterMs(wait, place), random);
  return {
    ...onSale,
    state,
    position,
    place,
    estimatedWaitMs: wait,
    pollAfterMs: askAfter,
    opensAt: front.opensAt,
    opensInMs,
    drawn: front.drawn,
  };
}

/** Takes the buyer's place in the session's line, or answers the place they already have. */
export async function joinWaitingRoom(scope: UserScope, sessionId: number): Promise<WaitingView> {
  const { activityId, opensAt } = await onSaleOf(scope, sessionId);
  const standing = await waitingRoom(scope.env, sessionId).join(scope.userId, scope.now, opensAt);
  return viewOf({ sessionId, activityId }, standing.position, standing.state, standing.front, scope.now);
}

const FRONT_REUSE_MS = 1000;
/**
 * The rooms' fronts this isolate read last, or is reading, so that many waiting pages cost each room
 * one read a second: polls that arrive while a read is under way wait for it instead of each reading
 * again (on a busy isolate a read takes longest exactly when most polls pile up).
 */
const fronts = new Map<number, { readAt: number; read: Promise<{ activityId: number; front: RoomFront }> }>();

async function readFront(scope: RequestScope, sessionId: number): Promise<{ activityId: number; front: RoomFront }> {
  const { activityId, opensAt } = await onSaleOf(scope, sessionId);
  return { activityId, front: await waitingRoom(scope.env, sessionId).front(scope.now, opensAt) };
}

function frontOf(scope: RequestScope, sessionId: number): Promise<{ activityId: number; front: RoomFront }> {
  const known = fronts.get(sessionId);
  if (known && scope.now - known.readAt < FRONT_REUSE_MS) return known.read;
  const read = readFront(scope, sessionId);
  const entry = { readAt: scope.now, read };
  fronts.set(sessionId, entry);
  // A failed read is not kept: the next poll reads again.
  read.catch(() => {
    if (fronts.get(sessionId) === entry) fronts.delete(sessionId);
  });
  return read;
}

/**
 * Where a position stands now, for anyone (a position alone lets no one buy: the pass is only for
 * the account that holds it). Without a position: how the early group stands.
 */
export async function waitingPosition(scope: RequestScope, sessionId: number, position: number | null): Promise<WaitingView> {
  const { activityId, front } = await frontOf(scope, sessionId);
  return viewOf({ sessionId, activityId }, position, stateOf(position, front), front, scope.now);
}

/** The signed-in buyer's pass to this session's checkout, or null when they have not been let through (or it ran out). */
export async function passFor(scope: UserScope, sessionId: number): Promise<WaitingPass | null> {
  const standing = await waitingRoom(scope.env, sessionId).standing(scope.userId, scope.now);
  if (standing?.state !== 'admitted' || standing.admittedAt === null) return null;
  const expiresAt = standing.admittedAt + WAITING_ROOM_PASS_LIFETIME_MS;
  return { pass: await issuePass(scope.env, { userId: scope.userId, sessionId, expiresAt }), expiresAt };
}

/** Checkout's door to a high-demand session: only with this account's own unexpired pass for this very session. */
export async function checkWaitingRoomPass(scope: UserScope, sessionId: number, presented: string | undefined): Promise<void> {
  if (!presented) throw new DomainError('waiting_room_pass_required');
  const verdict = await judgePass(scope.env, presented, { userId: scope.userId, sessionId, now: scope.now });
  if (verdict !== 'valid') throw new DomainError('waiting_room_pass_invalid');
}

/** Lets the next `count` buyers through now (local builds only: the dev route). */
export async function admitNextBuyers(scope: RequestScope, sessionId: number, count: number): Promise<RoomFront> {
  const front = await waitingRoom(scope.env, sessionId).admitNext(count, scope.now, (await onSaleOf(scope, sessionId)).opensAt);
  fronts.delete(sessionId);
  return front;
}

/** Sets the room's rate from now on (local builds only: the dev route; 0 stops it). */
export async function setAdmissionRate(scope: RequestScope, sessionId: number, perMinute: number): Promise<RoomFront> {
  const front = await waitingRoom(scope.env, sessionId).setRate(perMinute, scope.now, (await onSaleOf(scope, sessionId)).opensAt);
  fronts.delete(sessionId);
  return front;
}
