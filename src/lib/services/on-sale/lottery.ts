/**
 * The free-ticket lottery: reading lotteries, joining (one draw code), friends' help (one more code
 * each), the commit-reveal draw and the winners' free orders. The rules are in domain/lottery.ts;
 * here every check that races is repeated inside the one SQL statement that writes, so a lottery
 * past its draw time, a second help or a full entry can never be granted however requests interleave.
 *
 * The draw runs from the scheduled sweep and lazily when a lottery past its draw time is read:
 *   1. claim:  open → drawing, guarded (WHERE status = 'open' AND draw_at <= now). Joining and help
 *              require status 'open' in their own INSERT, so from here on the codes are frozen.
 *   2. record: the winners follow from the seed and the frozen codes alone, so whoever finishes
 *              (the claimant, or a later reader if the claimant died) writes the same result; drawing
 *              → drawn is guarded again.
 *   3. prizes: each winner gets one free order, keyed (user, `lottery-{id}`) like a retried checkout,
 *              so re-running never doubles an order and a failure is retried by the next sweep.
 */
import { and, asc, count, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { activitySessions, listings, lotteries, lotteryCodes, lotteryEntries, orders, ticketTiers, users } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { drawCodeFrom, drawIsDue, drawWinners, helpRefusal, joinRefusal, lotteryPhase, type LotteryPhase } from '../../domain/lottery.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import { localizedName, type Locale } from '../../i18n/locales.ts';
import { currencyTable } from '../catalogue/currency.ts';
import { newOrderNo } from '../orders/placing.ts';
import { showQuery } from '../catalogue/show-query.ts';
import type { RequestScope, UserScope } from '../platform/scope.ts';
import { batch, rawBatch } from '../../data/batch.ts';

type LotteryRow = typeof lotteries.$inferSelect;

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

function isUniqueViolation(error: unknown, index?: string): boolean {
  const message = String((error as { message?: string })?.message ?? error);
  return message.includes('UNIQUE constraint failed') && (index === undefined || message.includes(index));
}

/** The idempotency key of a winner's free order: one per user and lottery. */
export function prizeOrderKey(lotteryId: number): string {
  return `lottery-${lotteryId}`;
}

export function sharePath(shareToken: string): string {
  return `/overload-ticket/${encodeURIComponent(shareToken)}/share`;
}

// ---------------------------------------------------------------------------------------------
// The draw

/** Step 3: a free order of the lottery's tier for one winner, from the cheapest e-ticket listing with stock. */
async function issuePrizeOrder(db: Db, lottery: LotteryRow, userId: number, now: number): Promise<void> {
  const key = prizeOrderKey(lottery.id);
  const [existing] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  if (existing) return;
  const quantity = lottery.ticketsPerPrize;
  const candidates = await db
    .select({ listing: listings, sessionId: ticketTiers.sessionId, activityId: activitySessions.activityId })
    .from(listings)
    .innerJoin(ticketTiers, eq(ticketTiers.id, listings.tierId))
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .where(
      and(
        eq(listings.tierId, lottery.tierId),
        eq(listings.status, 'active'),
        sql`${listings.quantityAvailable} >= ${quantity}`,
        sql`instr(',' || ${listings.deliveryTypes} || ',', ',e_ticket,') > 0`,
      ),
    )
    .orderBy(asc(listings.price), asc(listings.id));
  const table = await currencyTable(db, now);
  const d1 = db.$client;
  for (const { listing, sessionId, activityId } of candidates) {
    // The same guarded decrement as checkout, and the order only if it happened and none exists yet.
    const takeTickets = d1
      .prepare(`
      UPDATE listings SET quantity_available = quantity_available - ?1
      WHERE id = ?2 AND status = 'active' AND quantity_available >= ?1
        AND NOT EXISTS (SELECT 1 FROM orders WHERE user_id = ?3 AND idempotency_key = ?4)`)
      .bind(quantity, listing.id, userId, key);
    const insertOrder = d1
      .prepare(`
      INSERT INTO orders (order_no, user_id, listing_id, activity_id, session_id, tier_id, quantity, status, currency,
        fx_per_hkd_micros, unit_price, ticket_amount, service_fee, postage, coupon_discount, total, delivery_type,
        payment_deadline, idempotency_key, seller_id, created_at, updated_at)
      SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, 'pending_ticketing', ?8, ?9, 0, 0, 0, 0, 0, 0, 'e_ticket', ?10, ?11, ?12, ?10, ?10
      WHERE changes() = 1`)
      .bind(
        newOrderNo(now),
        userId,
        listing.id,
        activityId,
        sessionId,
        lottery.tierId,
        quantity,
        listing.currency,
        table.get(listing.currency)?.perHkdMicros ?? 1_000_000,
        now,
        key,
        listing.sellerId,
      );
    try {
      const { taken } = await rawBatch(d1, { taken: takeTickets, insertOrder });
      if (taken.meta.changes === 1) return;
    } catch (error) {
      // A concurrent run issued this winner's order first; its batch won, this one rolled back.
      if (isUniqueViolation(error)) return;
      throw error;
    }
    const [issued] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
    if (issued) return;
  }
  // No listing of the tier holds the prize right now: the next sweep tries again.
  console.error('Lottery prize has no stock', lottery.id, userId);
}

async function issuePrizeOrders(db: Db, lottery: LotteryRow, now: number): Promise<void> {
  const winners = await db
    .select({ userId: lotteryEntries.userId })
    .from(lotteryCodes)
    .innerJoin(lotteryEntries, eq(lotteryEntries.id, lotteryCodes.entryId))
    .where(and(eq(lotteryCodes.lotteryId, lottery.id), eq(lotteryCodes.isWinner, true)))
    .orderBy(asc(lotteryCodes.id));
  for (const { userId } of winners) await issuePrizeOrder(db, lottery, userId, now);
}

/**
 * Draws one lottery if its time has come (steps 1-3 above). Safe to call any number of times, at
 * the same time too: true only for the one call that recorded the winners.
 */
export async function drawLottery(db: Db, lotteryId: number, now: number): Promise<boolean> {
  await db
    .update(lotteries)
    .set({ status: 'drawing' })
    .where(and(eq(lotteries.id, lotteryId), eq(lotteries.status, 'open'), lte(lotteries.drawAt, now)));
  const [lottery] = await db.select().from(lotteries).where(eq(lotteries.id, lotteryId));
  if (!lottery || lottery.status === 'open') return false;
  let recorded = false;
  if (lottery.status === 'drawing') {
    const codes = await db
      .select({ code: lotteryCodes.code, entryId: lotteryCodes.entryId })
      .from(lotteryCodes)
      .where(eq(lotteryCodes.lotteryId, lottery.id));
    const winners = await drawWinners(lottery.seed ?? '', codes, lottery.prizeCount);
    const stillDrawing = sql`EXISTS (SELECT 1 FROM lotteries WHERE id = ${lottery.id} AND status = 'drawing')`;
    const finish = db
      .update(lotteries)
      .set({ status: 'drawn', drawnAt: now })
      .where(and(eq(lotteries.id, lottery.id), eq(lotteries.status, 'drawing')))
      .returning({ id: lotteries.id });
    if (winners.length === 0) {
      recorded = (await finish).length === 1;
    } else {
      const markWinners = db
        .update(lotteryCodes)
        .set({ isWinner: true })
        .where(
          and(
            eq(lotteryCodes.lotteryId, lottery.id),
            inArray(
              lotteryCodes.code,
              winners.map((winner) => winner.code),
            ),
            stillDrawing,
          ),
        );
      const { finished } = await batch(db, { markWinners, finished: finish });
      recorded = finished.length === 1;
    }
  }
  await issuePrizeOrders(db, { ...lottery, status: 'drawn' }, now);
  return recorded;
}

/** Every lottery past its draw time that is not drawn yet, or drawn with a prize still to issue. */
export async function drawDueLotteries(db: Db, now: number): Promise<number> {
  const due = await db
    .select({ id: lotteries.id })
    .from(lotteries)
    .where(and(inArray(lotteries.status, ['open', 'drawing']), lte(lotteries.drawAt, now)));
  const pendingPrizes = await db
    .selectDistinct({ id: lotteryCodes.lotteryId })
    .from(lotteryCodes)
    .innerJoin(lotteryEntries, eq(lotteryEntries.id, lotteryCodes.entryId))
    .leftJoin(
      orders,
      and(eq(orders.userId, lotteryEntries.userId), sql`${orders.idempotencyKey} = 'lottery-' || ${lotteryCodes.lotteryId}`),
    )
    .where(and(eq(lotteryCodes.isWinner, true), sql`${orders.id} IS NULL`));
  const ids = new Set([...due.map((row) => row.id), ...pendingPrizes.map((row) => row.id).filter((id): id is number => id !== null)]);
  let drawn = 0;
  for (const id of ids) if (await drawLottery(db, id, now)) drawn += 1;
  return drawn;
}

async function drawIfDue(db: Db, lottery: LotteryRow, now: number): Promise<LotteryRow> {
  if (!drawIsDue(lottery.status, lottery.drawAt, now) && lottery.status !== 'drawing') return lottery;
  await drawLottery(db, lottery.id, now);
  const [fresh] = await db.select().from(lotteries).where(eq(lotteries.id, lottery.id));
  return fresh;
}

async function findLottery(db: Db, lotteryId: number, now: number): Promise<LotteryRow> {
  const [row] = await db.select().from(lotteries).where(eq(lotteries.id, lotteryId));
  if (!row) throw new DomainError('lottery_not_found');
  return drawIfDue(db, row, now);
}

// ---------------------------------------------------------------------------------------------
// Views

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

async function viewsOf(db: Db, rows: LotteryRow[], locale: Locale, now: number): Promise<LotteryView[]> {
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
      phase: lotteryPhase(row.status, row.drawAt, now),
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
  const rows = await db.select().from(lotteries).orderBy(asc(lotteries.drawAt));
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

// ---------------------------------------------------------------------------------------------
// Joining and helping

/** Joins a lottery: one entry per user, with its first code and its share token. */
export async function joinLottery(scope: UserScope, lotteryId: number): Promise<LotteryDetail> {
  const { db, userId, now } = scope;
  const lottery = await findLottery(db, lotteryId, now);
  const [joined] = await db
    .select({ id: lotteryEntries.id })
    .from(lotteryEntries)
    .where(and(eq(lotteryEntries.lotteryId, lottery.id), eq(lotteryEntries.userId, userId)));
  const refusal = joinRefusal(lotteryPhase(lottery.status, lottery.drawAt, now), joined !== undefined);
  if (refusal) throw new DomainError(refusal);
  const d1 = db.$client;
  for (let attempt = 1; ; attempt++) {
    const token = randomShareToken();
    const insertEntry = d1
      .prepare(`
      INSERT INTO lottery_entries (lottery_id, user_id, share_token, created_at)
      SELECT id, ?2, ?3, ?4 FROM lotteries WHERE id = ?1 AND status = 'open' AND draw_at > ?4`)
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
    phase: lotteryPhase(lottery.status, lottery.drawAt, now),
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
      WHERE e.id = ?1 AND l.status = 'open' AND l.draw_at > ?4 AND e.user_id <> ?2
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
