/** Reading the free-ticket lottery: the list, one lottery with the user's entry, and the record to re-run its draw. Reading draws what is due. */
import { and, asc, count, eq, inArray, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { lotteries, lotteryCodes, lotteryEntries, orders, ticketTiers } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { lotteryPhase, type LotteryPhase } from '../../domain/lottery.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import { entryClosesAt } from '../../domain/storefront-schedule.ts';
import { localizedName, type Locale } from '../../i18n/locales.ts';
import { showQuery } from '../catalogue/show-query.ts';
import type { RequestScope } from '../platform/scope.ts';
import { drawDueLotteries, findLottery, type LotteryRow, prizeOrderKey } from './lottery-draw.ts';

export function sharePath(shareToken: string): string {
  return `/overload-ticket/${encodeURIComponent(shareToken)}/share`;
}

export interface LotteryView {
  id: number;
  phase: LotteryPhase;
  activity: { id: number; name: string; poster: string; venueName: string; cityName: string; sessionLabel: string };
  tierName: string;
  prizeCount: number;
  ticketsPerPrize: number;
  maxCodesPerEntry: number;
  drawAt: number;
  drawAtLabel: string;
  participantCount: number;
  codeCount: number;
  /** SHA-256 of the seed, published from the start. */
  seedCommitment: string;
  /** The seed, only once drawn. */
  seed: string | null;
  drawnAt: number | null;
  /** The winning codes in draw order, only once drawn. */
  winningCodes: string[] | null;
}

export interface MyEntry {
  shareToken: string;
  sharePath: string;
  codes: Array<{ code: string; fromFriend: boolean; isWinner: boolean }>;
  won: boolean;
  prizeOrderId: number | null;
}

export interface LotteryDetail extends LotteryView {
  /** The signed-in user's entry; null when signed out or not joined. */
  myEntry: MyEntry | null;
}

export async function viewsOf(db: Db, rows: LotteryRow[], locale: Locale, now: number): Promise<LotteryView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [details, entryCounts, codeCounts, winners] = await Promise.all([
    showQuery(db, { lotteryId: lotteries.id }).innerJoin(lotteries, eq(lotteries.tierId, ticketTiers.id)).where(inArray(lotteries.id, ids)),
    db
      .select({ lotteryId: lotteryEntries.lotteryId, n: count() })
      .from(lotteryEntries)
      .where(inArray(lotteryEntries.lotteryId, ids))
      .groupBy(lotteryEntries.lotteryId),
    db
      .select({ lotteryId: lotteryCodes.lotteryId, n: count() })
      .from(lotteryCodes)
      .where(inArray(lotteryCodes.lotteryId, ids))
      .groupBy(lotteryCodes.lotteryId),
    db
      .select({ lotteryId: lotteryCodes.lotteryId, code: lotteryCodes.code })
      .from(lotteryCodes)
      .where(and(inArray(lotteryCodes.lotteryId, ids), eq(lotteryCodes.isWinner, true))),
  ]);
  return rows.map((row) => {
    const detail = details.find((d) => d.lotteryId === row.id)!;
    const drawn = row.status === 'drawn';
    const seed = drawn ? row.seed : null;
    return {
      id: row.id,
      phase: lotteryPhase(row.status, entryClosesAt(row), now),
      activity: {
        id: detail.activity.id,
        name: localizedName(detail.activity, locale),
        poster: detail.activity.poster,
        venueName: localizedName(detail.venue, locale),
        cityName: localizedName(detail.city, locale),
        sessionLabel: formatSessionTime(detail.session.startsAt, locale, detail.city.timeZone),
      },
      tierName: localizedName(detail.tier, locale),
      prizeCount: row.prizeCount,
      ticketsPerPrize: row.ticketsPerPrize,
      maxCodesPerEntry: row.maxCodesPerEntry,
      drawAt: row.drawAt,
      drawAtLabel: formatSessionTime(row.drawAt, locale, detail.city.timeZone),
      participantCount: entryCounts.find((c) => c.lotteryId === row.id)?.n ?? 0,
      codeCount: codeCounts.find((c) => c.lotteryId === row.id)?.n ?? 0,
      seedCommitment: row.seedCommitment,
      seed,
      drawnAt: drawn ? row.drawnAt : null,
      winningCodes: drawn
        ? winners
            .filter((w) => w.lotteryId === row.id)
            .map((w) => w.code)
            .sort()
        : null,
    };
  });
}

async function myEntryOf(db: Db, lottery: LotteryRow, userId: number | null): Promise<MyEntry | null> {
  if (userId === null) return null;
  const [entry] = await db
    .select()
    .from(lotteryEntries)
    .where(and(eq(lotteryEntries.lotteryId, lottery.id), eq(lotteryEntries.userId, userId)));
  if (!entry) return null;
  const [codes, [prize]] = await Promise.all([
    db.select().from(lotteryCodes).where(eq(lotteryCodes.entryId, entry.id)).orderBy(asc(lotteryCodes.id)),
    db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, prizeOrderKey(lottery.id)))),
  ]);
  return {
    shareToken: entry.shareToken,
    sharePath: sharePath(entry.shareToken),
    codes: codes.map((code) => ({
      code: code.code,
      fromFriend: code.helperUserId !== null,
      isWinner: lottery.status === 'drawn' && code.isWinner,
    })),
    won: lottery.status === 'drawn' && codes.some((code) => code.isWinner),
    prizeOrderId: prize?.id ?? null,
  };
}

/** Every lottery, open ones first (soonest draw first), then the drawn ones (latest first). Draws what is due. */
export async function listLotteries(scope: RequestScope): Promise<LotteryView[]> {
  const { db, ctx, now } = scope;
  await drawDueLotteries(db, now);
  const rows = await db
    .select()
    .from(lotteries)
    .where(and(isNull(lotteries.retiredAt), lte(lotteries.entryOpensAt, now)))
    .orderBy(asc(lotteries.drawAt));
  const ordered = [...rows.filter((row) => row.status !== 'drawn'), ...rows.filter((row) => row.status === 'drawn').reverse()];
  return viewsOf(db, ordered, ctx.locale, now);
}

/** One lottery with the signed-in user's entry. */
export async function lotteryDetail(scope: RequestScope, lotteryId: number, userId: number | null): Promise<LotteryDetail> {
  const { db, ctx, now } = scope;
  const lottery = await findLottery(db, lotteryId, now);
  const [[view], myEntry] = await Promise.all([viewsOf(db, [lottery], ctx.locale, now), myEntryOf(db, lottery, userId)]);
  return { ...view, myEntry };
}

export interface DrawRecord {
  lotteryId: number;
  seed: string;
  seedCommitment: string;
  prizeCount: number;
  /** Every code of the lottery with its entry, sorted by code: the input of the draw. */
  codes: Array<{ code: string; entryId: number }>;
  winningCodes: string[];
}

/** What a participant needs to re-run the draw; only once drawn (before, the seed is secret). */
export async function drawRecord(scope: RequestScope, lotteryId: number): Promise<DrawRecord> {
  const { db, now } = scope;
  const lottery = await findLottery(db, lotteryId, now);
  if (lottery.status !== 'drawn' || lottery.seed === null) throw new DomainError('lottery_not_drawn');
  const codes = await db
    .select({ code: lotteryCodes.code, entryId: lotteryCodes.entryId, isWinner: lotteryCodes.isWinner })
    .from(lotteryCodes)
    .where(eq(lotteryCodes.lotteryId, lottery.id))
    .orderBy(asc(lotteryCodes.code));
  return {
    lotteryId: lottery.id,
    seed: lottery.seed,
    seedCommitment: lottery.seedCommitment,
    prizeCount: lottery.prizeCount,
    codes: codes.map(({ code, entryId }) => ({ code, entryId })),
    winningCodes: codes.filter((code) => code.isWinner).map((code) => code.code),
  };
}
