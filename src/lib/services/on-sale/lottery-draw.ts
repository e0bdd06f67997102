/**
 * The free-ticket lottery's commit-reveal draw and the winners' free orders; the rules are in
 * domain/lottery.ts, reading lotteries is lottery-views.ts, joining and helping lottery-entries.ts.
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
import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { activitySessions, listings, lotteries, lotteryCodes, lotteryEntries, orders, ticketTiers } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { drawIsDue, drawWinners } from '../../domain/lottery.ts';
import { currencyTable } from '../catalogue/currency.ts';
import { newOrderNo } from '../orders/placing.ts';
import { batch, rawBatch } from '../../data/batch.ts';

export type LotteryRow = typeof lotteries.$inferSelect;

export function isUniqueViolation(error: unknown, index?: string): boolean {
  const message = String((error as { message?: string })?.message ?? error);
  return message.includes('UNIQUE constraint failed') && (index === undefined || message.includes(index));
}

/** The idempotency key of a winner's free order: one per user and lottery. */
export function prizeOrderKey(lotteryId: number): string {
  return `lottery-${lotteryId}`;
}

/** The e-ticket listings of the lottery's tier that hold a whole prize, cheapest first, with their session and activity. */
function prizeListings(db: Db, lottery: LotteryRow) {
  return db
    .select({ listing: listings, sessionId: ticketTiers.sessionId, activityId: activitySessions.activityId })
    .from(listings)
    .innerJoin(ticketTiers, eq(ticketTiers.id, listings.tierId))
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .where(
      and(
        eq(listings.tierId, lottery.tierId),
        eq(listings.status, 'active'),
        sql`${listings.quantityAvailable} >= ${lottery.ticketsPerPrize}`,
        sql`instr(',' || ${listings.deliveryTypes} || ',', ',e_ticket,') > 0`,
      ),
    )
    .orderBy(asc(listings.price), asc(listings.id));
}

/** Step 3: a free order of the lottery's tier for one winner, from the cheapest e-ticket listing with stock. */
async function issuePrizeOrder(db: Db, lottery: LotteryRow, userId: number, now: number): Promise<void> {
  const key = prizeOrderKey(lottery.id);
  const [existing] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  if (existing) return;
  const quantity = lottery.ticketsPerPrize;
  const candidates = await prizeListings(db, lottery);
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
    .where(and(eq(lotteries.id, lotteryId), eq(lotteries.status, 'open'), lte(lotteries.drawAt, now), isNull(lotteries.retiredAt)));
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
    .where(and(inArray(lotteries.status, ['open', 'drawing']), lte(lotteries.drawAt, now), isNull(lotteries.retiredAt)));
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

export async function findLottery(db: Db, lotteryId: number, now: number): Promise<LotteryRow> {
  const [row] = await db.select().from(lotteries).where(eq(lotteries.id, lotteryId));
  // Buyers see a lottery once its entries open, and never once it is retired (services/storefront/lotteries.ts).
  if (!row || row.retiredAt !== null || row.entryOpensAt > now) throw new DomainError('lottery_not_found');
  return drawIfDue(db, row, now);
}
