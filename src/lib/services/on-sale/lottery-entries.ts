/**
 * Joining the free-ticket lottery (one draw code) and friends' help (one more code each), with the
 * share link that asks for it. Every check that races is repeated inside the one SQL statement that
 * writes, so a lottery past its draw time, a second help or a full entry can never be granted however
 * requests interleave.
 */
import { and, count, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { lotteries, lotteryCodes, lotteryEntries, users } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { drawCodeFrom, helpRefusal, joinRefusal, lotteryPhase } from '../../domain/lottery.ts';
import type { RequestScope, UserScope } from '../platform/scope.ts';
import { findLottery, isUniqueViolation, type LotteryRow } from './lottery-draw.ts';
import { type LotteryDetail, type LotteryView, lotteryDetail, viewsOf } from './lottery-views.ts';
import { rawBatch } from '../../data/batch.ts';
import { entryClosesAt } from '../../domain/storefront-schedule.ts';

/** The lottery (its columns read through `prefix`) takes entries and help at ?4: within its entry window, not retired. */
const takingEntries = (prefix = '') =>
  `${prefix}entry_opens_at <= ?4 AND coalesce(${prefix}entry_closes_at, ${prefix}draw_at) > ?4 AND ${prefix}retired_at IS NULL`;

/** Attempts at a fresh random code when one collides with a code already in the lottery (40 bits: rare). */
const CODE_ATTEMPTS = 3;

function randomDrawCode(): string {
  return drawCodeFrom(crypto.getRandomValues(new Uint8Array(8)));
}

function randomShareToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** Joins a lottery: one entry per user, with its first code and its share token. */
export async function joinLottery(scope: UserScope, lotteryId: number): Promise<LotteryDetail> {
  const { db, userId, now } = scope;
  const lottery = await findLottery(db, lotteryId, now);
  const [joined] = await db
    .select({ id: lotteryEntries.id })
    .from(lotteryEntries)
    .where(and(eq(lotteryEntries.lotteryId, lottery.id), eq(lotteryEntries.userId, userId)));
  const refusal = joinRefusal(lotteryPhase(lottery.status, entryClosesAt(lottery), now), joined !== undefined);
  if (refusal) throw new DomainError(refusal);
  const d1 = db.$client;
  for (let attempt = 1; ; attempt++) {
    const token = randomShareToken();
    const insertEntry = d1
      .prepare(`
      INSERT INTO lottery_entries (lottery_id, user_id, share_token, created_at)
      SELECT id, ?2, ?3, ?4 FROM lotteries WHERE id = ?1 AND status = 'open' AND ${takingEntries()}`)
      .bind(lottery.id, userId, token, now);
    const insertCode = d1
      .prepare(`
      INSERT INTO lottery_codes (entry_id, lottery_id, code, helper_user_id, is_winner, created_at)
      SELECT id, lottery_id, ?2, NULL, 0, ?3 FROM lottery_entries WHERE share_token = ?1`)
      .bind(token, randomDrawCode(), now);
    try {
      const { entry } = await rawBatch(d1, { entry: insertEntry, insertCode });
      if (entry.meta.changes !== 1) throw new DomainError('lottery_closed');
      break;
    } catch (error) {
      if (isUniqueViolation(error, 'lottery_entries.lottery_id')) throw new DomainError('lottery_already_joined');
      if (!isUniqueViolation(error) || attempt >= CODE_ATTEMPTS) throw error;
    }
  }
  return lotteryDetail(scope, lottery.id, userId);
}

export interface ShareView {
  lottery: LotteryView;
  sharerName: string;
  sharerCodeCount: number;
  /** For the signed-in visitor: whose link this is, and whether they have helped in this lottery. */
  viewer: { isSharer: boolean; helpedInLottery: boolean; helpedThisEntry: boolean } | null;
}

async function findEntry(db: Db, shareToken: string) {
  const [row] = await db
    .select({ entry: lotteryEntries, nickname: users.nickname })
    .from(lotteryEntries)
    .innerJoin(users, eq(users.id, lotteryEntries.userId))
    .where(eq(lotteryEntries.shareToken, shareToken));
  if (!row) throw new DomainError('lottery_share_not_found');
  return row;
}

async function codeCountOf(db: Db, entryId: number): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(lotteryCodes).where(eq(lotteryCodes.entryId, entryId));
  return n;
}

async function helpOf(db: Db, lotteryId: number, helperId: number) {
  const [help] = await db
    .select({ entryId: lotteryCodes.entryId })
    .from(lotteryCodes)
    .where(and(eq(lotteryCodes.lotteryId, lotteryId), eq(lotteryCodes.helperUserId, helperId), isNotNull(lotteryCodes.helperUserId)));
  return help;
}

/** A nickname shown to strangers: its first character, then asterisks (it may be an email address or phone). */
function maskedName(nickname: string | null): string {
  const name = (nickname ?? '').trim();
  return name === '' ? '***' : `${[...name][0]}***`;
}

/** The share landing page's data: the lottery, whose entry this is, and what the visitor did. */
export async function shareView(scope: RequestScope, shareToken: string, viewerId: number | null): Promise<ShareView> {
  const { db, ctx, now } = scope;
  const { entry, nickname } = await findEntry(db, shareToken);
  const lottery = await findLottery(db, entry.lotteryId, now);
  const [[view], codeCount, help] = await Promise.all([
    viewsOf(db, [lottery], ctx.locale, now),
    codeCountOf(db, entry.id),
    viewerId === null ? Promise.resolve(undefined) : helpOf(db, lottery.id, viewerId),
  ]);
  return {
    lottery: view,
    sharerName: maskedName(nickname),
    sharerCodeCount: codeCount,
    viewer:
      viewerId === null
        ? null
        : { isSharer: viewerId === entry.userId, helpedInLottery: help !== undefined, helpedThisEntry: help?.entryId === entry.id },
  };
}

export interface HelpResult {
  sharerName: string;
  sharerCodeCount: number;
  maxCodesPerEntry: number;
}

async function refusalFor(db: Db, lottery: LotteryRow, entry: typeof lotteryEntries.$inferSelect, helperId: number, now: number) {
  const [help, codeCount] = await Promise.all([helpOf(db, lottery.id, helperId), codeCountOf(db, entry.id)]);
  return helpRefusal({
    phase: lotteryPhase(lottery.status, entryClosesAt(lottery), now),
    helperId,
    sharerId: entry.userId,
    helpedInLottery: help !== undefined,
    sharerCodeCount: codeCount,
    maxCodesPerEntry: lottery.maxCodesPerEntry,
  });
}

/** A friend's help: one more code for the sharer, if every rule of helpRefusal allows it at the moment of writing. */
export async function helpEntry(scope: UserScope, shareToken: string): Promise<HelpResult> {
  const { db, userId: helperId, now } = scope;
  const { entry, nickname } = await findEntry(db, shareToken);
  const lottery = await findLottery(db, entry.lotteryId, now);
  const before = await refusalFor(db, lottery, entry, helperId, now);
  if (before) throw new DomainError(before);
  const d1 = db.$client;
  for (let attempt = 1; ; attempt++) {
    const insertHelp = d1
      .prepare(`
      INSERT INTO lottery_codes (entry_id, lottery_id, code, helper_user_id, is_winner, created_at)
      SELECT e.id, e.lottery_id, ?3, ?2, 0, ?4 FROM lottery_entries e JOIN lotteries l ON l.id = e.lottery_id
      WHERE e.id = ?1 AND l.status = 'open' AND ${takingEntries('l.')} AND e.user_id <> ?2
        AND (SELECT count(*) FROM lottery_codes c WHERE c.entry_id = e.id) < l.max_codes_per_entry`)
      .bind(entry.id, helperId, randomDrawCode(), now);
    try {
      const { meta } = await insertHelp.run();
      if (meta.changes === 1) break;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (!isUniqueViolation(error, 'lottery_codes.helper_user_id') && attempt < CODE_ATTEMPTS) continue;
    }
    // Something changed between the check and the write (the draw, the cap, a parallel help): say what.
    const [fresh] = await db.select().from(lotteries).where(eq(lotteries.id, lottery.id));
    throw new DomainError((await refusalFor(db, fresh, entry, helperId, now)) ?? 'lottery_already_helped');
  }
  return { sharerName: maskedName(nickname), sharerCodeCount: await codeCountOf(db, entry.id), maxCodesPerEntry: lottery.maxCodesPerEntry };
}

/** The share image's data: the lottery of a share link, for the SVG. */
export async function shareImageData(scope: RequestScope, shareToken: string): Promise<{ lottery: LotteryView; sharerName: string }> {
  const view = await shareView(scope, shareToken, null);
  return { lottery: view.lottery, sharerName: view.sharerName };
}
