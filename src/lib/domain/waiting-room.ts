/**
 * The rules of a high-demand on-sale's waiting room (docs/hot-on-sale.md). Everyone who
 * arrives before the sale opens is in the same early group: when it opens, the group is drawn into a
 * random order (a fair lottery: arriving at 09:59:59 is no worse than at 09:00), and everyone after
 * joins at the end in arrival order. Places are numbered 1, 2, 3… with no gaps, so the room's whole
 * progress is one number, `admittedThrough`: every position up to it may buy. The room lets buyers
 * through at a steady rate from the opening; a buyer's pass to checkout is signed and short-lived.
 * Time and randomness are passed in.
 */
import { WAITING_ROOM_POLL_JITTER, WAITING_ROOM_POLL_MS } from '../config/on-sale.ts';
import { numberFormat } from './intl-cache.ts';

/** Where a buyer stands: in the undrawn early group, in line, or through to checkout (their pass lapsed: `expired`). */
export type WaitingState = 'early' | 'waiting' | 'admitted' | 'expired';

/** The room's progress, all anyone needs to know where they stand once they know their position. */
export interface RoomFront {
  opensAt: number;
  admissionsPerMinute: number;
  /** Whether the early group has been drawn into its order (once the sale opened). */
  drawn: boolean;
  /** Every position up to this one has been let through. */
  admittedThrough: number;
  /** The last position given out: the length of the line, admitted buyers included. */
  lined: number;
  /** No ticket of the on-sale is left for now: the line waits for tickets that come back (`rateForTicketsLeft`). */
  soldOut: boolean;
}

/** The admission clock: how far the line has moved, and since when unspent time counts towards the next buyer. */
export interface AdmissionProgress {
  admittedThrough: number;
  creditSince: number;
}

const MINUTE_MS = 60_000;

/** The entrants in a uniformly random order (Fisher–Yates); `random` answers in [0, 1). */
export function lotteryOrder<T>(entrants: readonly T[], random: () => number): T[] {
  const order = [...entrants];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/**
 * The line moved on to `now`: from the opening, one buyer every 60,000 / rate ms. Time while nobody
 * waits is not saved up, so a crowd arriving after a quiet spell still goes through at the rate; for
 * that the room moves its line on to each arrival's moment before the line grows.
 */
export function advanceAdmissions(
  progress: AdmissionProgress,
  front: Pick<RoomFront, 'opensAt' | 'admissionsPerMinute' | 'lined'>,
  now: number,
): AdmissionProgress {
  const { opensAt, admissionsPerMinute: rate, lined } = front;
  if (now < opensAt) return progress;
  const since = Math.max(progress.creditSince, opensAt);
  if (rate <= 0) return { admittedThrough: progress.admittedThrough, creditSince: now };
  const due = Math.floor(((now - since) * rate) / MINUTE_MS);
  if (progress.admittedThrough + due >= lined) return { admittedThrough: lined, creditSince: now };
  return { admittedThrough: progress.admittedThrough + due, creditSince: since + Math.ceil((due * MINUTE_MS) / rate) };
}

/** A buyer's moment at checkout's door, and the door's next free moment after them. */
export interface Entry {
  enterAt: number;
  nextEntryAt: number;
}

/**
 * When a buyer first seen through enters checkout: at the door's next free moment, not before now,
 * each entry taking one buyer's share of the rate. At rate 0 the line is stopped and only the dev
 * door lets buyers through, unmetered. A queue longer than `mostMs` is a clock that moved back.
 */
export function entryMoment(nextEntryAt: number, now: number, admissionsPerMinute: number, mostMs: number): Entry {
  if (admissionsPerMinute <= 0) return { enterAt: now, nextEntryAt };
  const enterAt = nextEntryAt - now > mostMs ? now : Math.max(now, nextEntryAt);
  return { enterAt, nextEntryAt: enterAt + Math.ceil(MINUTE_MS / admissionsPerMinute) };
}

/**
 * The room's rate given what is left to sell: none while the on-sale has no ticket left (a buyer let
 * through would only find it sold out, and would lose the place that keeps them first in line for
 * tickets that come back: an unpaid order that lapses, a cancel), else the paced rate.
 */
export function rateForTicketsLeft(pacedPerMinute: number, soldOut: boolean): number {
  return soldOut ? 0 : pacedPerMinute;
}

/**
 * The rate the line moves at: none while the door's queue is longer than `backlogMs` (those through
 * are still entering), unless it is longer than `mostMs` (a clock that moved back, as entryMoment).
 */
export function lineRate(
  admissionsPerMinute: number,
  nextEntryAt: number,
  now: number,
  door: { backlogMs: number; mostMs: number },
): number {
  const queue = nextEntryAt - now;
  return queue > door.backlogMs && queue <= door.mostMs ? 0 : admissionsPerMinute;
}

/** What a session's inventory object last said of its checkout, after a D1 batch. */
export interface CheckoutHealth {
  /** How long the batch's oldest hold took from its buyer's request to its order in D1 (the batch's own time when it wrote none). */
  holdMs: number;
  /** Holds left waiting for the next batch. */
  backlog: number;
  reportedAt: number;
  /** The quickest hold any report of this on-sale gave: what a hold takes while checkout keeps up. */
  calmHoldMs: number;
}

export interface PaceRules {
  /** A hold written within this of its request keeps up, or within `calmFactor` times the calm hold when that is sooner. */
  holdTargetMs: number;
  calmFactor: number;
  /** A batch writes this many holds at most: more waiting is a backlog. */
  batchHolds: number;
  /** A report older than this slows nothing. */
  freshMs: number;
  /** The least share of the configured rate the room keeps. */
  leastShare: number;
}

/**
 * The rate the room lets buyers through at now: the configured one while checkout keeps up (the
 * latest batch's holds written within the target and no more holds waiting than one batch writes;
 * the target is the sooner of the rules' own and `calmFactor` times the calm hold, because the rest
 * of the marketplace's checkout shares what slows the holds: D1's writer deployed, the one thread
 * locally, so holds at several times their calm pace mean everyone's orders are),
 * else slower in proportion to how far it falls behind (holds taking twice the target: half the
 * rate; two batches of holds waiting: half the rate; the worse of the two), never below the least
 * share. Once the latest report is no longer fresh the configured rate is back: a fast batch or none
 * at all lets it recover.
 */
export function pacedAdmissionRate(configured: number, health: CheckoutHealth | null, now: number, rules: PaceRules): number {
  if (configured <= 0 || health === null || now - health.reportedAt > rules.freshMs) return configured;
  const target = Math.min(rules.holdTargetMs, rules.calmFactor * health.calmHoldMs);
  const behind = Math.max(1, health.holdMs / target, health.backlog / rules.batchHolds);
  return Math.max(Math.ceil(configured * rules.leastShare), Math.floor(configured / behind));
}

/** How many buyers are before and including this position who have not been let through: 1 is next. */
export function placeInLine(position: number, admittedThrough: number): number {
  return Math.max(0, position - admittedThrough);
}

/** Where one account stands in a waiting room, with the room's front it was judged against. */
export interface RoomStanding {
  state: WaitingState;
  position: number | null;
  /** When the account was let through; its pass runs out WAITING_ROOM_PASS_LIFETIME_MS later. */
  admittedAt: number | null;
  front: RoomFront;
}

/** Where a position stands against the room's front. */
export function stateOf(position: number | null, front: Pick<RoomFront, 'admittedThrough'>): WaitingState {
  if (position === null) return 'early';
  return position <= front.admittedThrough ? 'admitted' : 'waiting';
}

/**
 * How long until the buyer at `place` is let through at the room's rate, counting from the opening
 * when the sale has not opened; null when the room lets nobody through (its rate is zero).
 */
export function estimatedWaitMs(place: number, front: Pick<RoomFront, 'opensAt' | 'admissionsPerMinute'>, now: number): number | null {
  if (front.admissionsPerMinute <= 0) return null;
  return Math.max(0, front.opensAt - now) + Math.ceil((place * MINUTE_MS) / front.admissionsPerMinute);
}

/**
 * When the waiting page should ask again: a third of the wait, between the least and the most, so
 * each answer finds the place a third closer (a page asks a few times more for each tripling of its
 * wait, not once every `least`: a short line of hundreds polling every 2 s is most of a burst's
 * requests), the buyers at the front see each step and those far back cost the room little. With no estimate
 * (a paused line), by the place: the few at the front ask often, everyone else at the most.
 */
export function pollAfterMs(waitMs: number | null, place: number | null): number {
  const { least, most } = WAITING_ROOM_POLL_MS;
  if (waitMs === null) return place === null ? most : Math.min(most, place * least);
  return Math.min(most, Math.max(least, Math.round(waitMs / 3)));
}

/**
 * The interval a page is told, made later by up to WAITING_ROOM_POLL_JITTER of itself at random
 * (`random` answers in [0, 1)): pages told the same interval at the same moment (a crowd joining
 * together, the front moving for everyone at once) then ask at different moments, and never sooner
 * than the rule said.
 */
export function spreadPollMs(ms: number, random: () => number): number {
  return Math.round(ms * (1 + WAITING_ROOM_POLL_JITTER * random()));
}

/**
 * When a page in the undrawn early group should ask again: nothing changes for it before the opening,
 * so at the opening when that is within the most interval (the page then adds its own moment of the
 * draw spread, `drawnAskAfterMs`), else after the most, spread, in case the opening moves.
 */
export function earlyAskAfterMs(opensInMs: number, random: () => number): number {
  const { most } = WAITING_ROOM_POLL_MS;
  return opensInMs <= most ? Math.max(0, opensInMs) : spreadPollMs(most, random);
}

/**
 * When an early page asks for its drawn position: at the opening plus a moment of its own within
 * `spreadMs`, so that a crowd who all waited for the opening reaches the room spread over the
 * spread instead of all at once (the order is drawn already: nobody loses by asking later).
 */
export function drawnAskAfterMs(opensInMs: number, spreadMs: number, random: () => number): number {
  return Math.max(0, opensInMs) + Math.floor(random() * spreadMs);
}

/** Whole minutes shown for a wait, rounded up so the estimate is never shorter than the truth. */
export function waitMinutes(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / MINUTE_MS));
}

/** A wait in words of the language ("3 minutes", "3 分鐘"), as the waiting page shows it on the server and in its script. */
export function formatWait(waitMs: number, locale: string): string {
  return numberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(waitMinutes(waitMs));
}

// ---------------------------------------------------------------------------------------------
// The pass to checkout

/**
 * What a pass says: this account may order for this on-sale until this moment. A session's pass has
 * no `tierId`; a tier's on-sale (domain/on-sale.ts) names its tier, so neither opens the other.
 */
export interface PassClaims {
  userId: number;
  sessionId: number;
  tierId?: number;
  expiresAt: number;
}

/** The signed text of a pass's claims: `session.account.expiry`, a tier's `session-tier.account.expiry`. */
export function passMessage({ userId, sessionId, tierId, expiresAt }: PassClaims): string {
  const onSale = tierId === undefined ? String(sessionId) : `${sessionId}-${tierId}`;
  return `${onSale}.${userId}.${expiresAt}`;
}

const PASS = /^([1-9]\d{0,9})(?:-([1-9]\d{0,9}))?\.([1-9]\d{0,9})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

/** A presented pass's claims and signature, or null when it is not a pass at all. */
export function parsePass(text: string): { claims: PassClaims; signature: string } | null {
  const match = PASS.exec(text);
  if (!match) return null;
  const [, sessionId, tierId, userId, expiresAt, signature] = match;
  const claims: PassClaims = { userId: Number(userId), sessionId: Number(sessionId), expiresAt: Number(expiresAt) };
  if (tierId !== undefined) claims.tierId = Number(tierId);
  return { claims, signature };
}

/**
 * The identity a pass's one order is recorded under: its claims' text, the same whenever the room
 * issues the pass again (a reload), new with a new turn in line. Null when it is not a pass at all.
 */
export function passId(text: string): string | null {
  const parsed = parsePass(text);
  return parsed && passMessage(parsed.claims);
}

/**
 * Why a genuine pass does not let this buyer order for this on-sale now, or null when it does: a
 * session's pass is another on-sale than any of its tiers' (`other_tier`), and the other way round.
 */
export function passRefusal(
  claims: PassClaims,
  wanted: { userId: number; sessionId: number; tierId?: number; now: number },
): 'other_account' | 'other_session' | 'other_tier' | 'expired' | null {
  if (claims.userId !== wanted.userId) return 'other_account';
  if (claims.sessionId !== wanted.sessionId) return 'other_session';
  if (claims.tierId !== wanted.tierId) return 'other_tier';
  if (claims.expiresAt <= wanted.now) return 'expired';
  return null;
}
