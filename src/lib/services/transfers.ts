/**
 * Ticket-transfer listings: a holder resells tickets of an order they bought, as an ordinary
 * listing of the tier (so it sells through the normal checkout) whose `source_order_id` names the
 * order and whose `listing_tickets` rows name the exact tickets. A ticket is in at most one active
 * listing (a partial unique index), and a listing is withdrawn only while none of its tickets is
 * held or sold, with one guarded update, so a purchase racing a withdrawal has exactly one winner.
 *
 * Reissue happens when a buyer's payment is confirmed (services/payments.ts calls
 * `fulfilTransferOrder`): the transfer needs nothing from the seller, whose tickets are e-tickets
 * the platform itself issued, so waiting for the seller to "fulfil" would only let them stall it.
 * In one D1 batch the buyer's order claims that many of the listing's tickets, gets new tickets
 * (new numbers, so new entry codes), the seller's originals become 'transferred', the seller's
 * proceeds are recorded for payout after the event, and the order moves to pending receipt.
 */
import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { ApiError } from '../api/errors.ts';
import type { Db } from '../db/client.ts';
import { activities, activitySessions, cities, listings, listingTickets, orders, sellerPayouts, tickets, ticketTiers, venues } from '../db/schema.ts';
import { convert, formattedMoney, type CurrencyTable, type FormattedMoney } from '../domain/money.ts';
import { transitionOf } from '../domain/order-state.ts';
import { sha256Hex } from '../domain/password.ts';
import type { RequestContext } from '../domain/request-context.ts';
import { formatSessionTime } from '../domain/session-time.ts';
import { ticketNumbers } from '../domain/ticket-code.ts';
import {
  listableTickets, platformFeeOf, priceBand, priceInBand, quantityRefusal, sourceRefusal, transferSplit, type TransferSource,
} from '../domain/transfer.ts';
import { localizedName, type Locale } from '../i18n/locales.ts';
import { expireOverdueOrders } from './orders.ts';
import { orderWithShowQuery, type OrderWithShowRow } from './order-show.ts';
import { entryCodeOf } from './vouchers.ts';

/** Transfers are reissued electronically, whatever the original delivery was. */
const TRANSFER_DELIVERY_TYPES = 'e_ticket';

export interface TransferListingView {
  id: number;
  sourceOrderId: number;
  status: (typeof listings.$inferSelect)['status'];
  quantityTotal: number;
  quantityAvailable: number;
  quantitySold: number;
  /** Withdrawal is possible only while no ticket is held by an unpaid order or sold. */
  withdrawable: boolean;
  price: FormattedMoney;
  faceValue: FormattedMoney;
  /** For the whole listing, in the listing's currency. */
  split: { buyerPays: FormattedMoney; platformFee: FormattedMoney; sellerReceives: FormattedMoney };
  activity: { id: number; name: string };
  session: { startsAt: number; label: string };
  tier: { name: string };
  createdAt: number;
}

export interface TransferListingInput {
  quantity: number;
  price: number;
  currency: string;
  acceptAgreement: boolean;
}

// ---------------------------------------------------------------------------------------------
// Reading

function listingQuery(db: Db) {
  return db
    .select({ listing: listings, tier: ticketTiers, session: activitySessions, activity: activities, city: cities })
    .from(listings)
    .innerJoin(ticketTiers, eq(ticketTiers.id, listings.tierId))
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .innerJoin(venues, eq(venues.id, activities.venueId))
    .innerJoin(cities, eq(cities.id, venues.cityId));
}

type ListingRow = Awaited<ReturnType<ReturnType<typeof listingQuery>['where']>>[number];

async function soldCounts(db: Db, listingIds: number[]): Promise<Map<number, number>> {
  if (listingIds.length === 0) return new Map();
  const rows = await db
    .select({ listingId: listingTickets.listingId, sold: sql<number>`count(*)` })
    .from(listingTickets)
    .where(and(inArray(listingTickets.listingId, listingIds), isNotNull(listingTickets.buyerOrderId)))
    .groupBy(listingTickets.listingId);
  return new Map(rows.map((row) => [row.listingId, row.sold]));
}

function viewOf(row: ListingRow, sold: number, locale: Locale, table: CurrencyTable): TransferListingView {
  const { listing, tier, session, activity, city } = row;
  const money = (amount: number) => formattedMoney(amount, listing.currency, locale, table);
  const split = transferSplit(listing.price, listing.quantityTotal);
  return {
    id: listing.id,
    sourceOrderId: listing.sourceOrderId!,
    status: listing.status,
    quantityTotal: listing.quantityTotal,
    quantityAvailable: listing.quantityAvailable,
    quantitySold: sold,
    withdrawable: listing.status === 'active' && listing.quantityAvailable === listing.quantityTotal,
    price: money(listing.price),
    faceValue: formattedMoney(tier.faceValue, tier.currency, locale, table),
    split: { buyerPays: money(split.buyerPays), platformFee: money(split.platformFee), sellerReceives: money(split.sellerReceives) },
    activity: { id: activity.id, name: localizedName(activity, locale) },
    session: { startsAt: session.startsAt, label: formatSessionTime(session.startsAt, locale, city.timeZone) },
    tier: { name: localizedName(tier, locale) },
    createdAt: listing.createdAt,
  };
}

/** The caller's own transfer listing; anyone else's answers like a missing one. */
async function ownListingRow(db: Db, userId: number, listingId: number): Promise<ListingRow> {
  const [row] = await listingQuery(db).where(and(eq(listings.id, listingId), eq(listings.sellerId, userId), isNotNull(listings.sourceOrderId)));
  if (!row) throw new ApiError(404, 'transfer_listing_not_found');
  return row;
}

async function ownListingView(db: Db, locale: Locale, table: CurrencyTable, userId: number, listingId: number): Promise<TransferListingView> {
  const row = await ownListingRow(db, userId, listingId);
  return viewOf(row, (await soldCounts(db, [listingId])).get(listingId) ?? 0, locale, table);
}

/** The caller's transfer listings, newest first ("My listings"). */
export async function listMyTransferListings(db: Db, ctx: RequestContext, table: CurrencyTable, userId: number, now: number): Promise<TransferListingView[]> {
  await expireOverdueOrders(db, now, { userId });
  const rows = await listingQuery(db)
    .where(and(eq(listings.sellerId, userId), isNotNull(listings.sourceOrderId)))
    .orderBy(desc(listings.createdAt), desc(listings.id));
  const sold = await soldCounts(db, rows.map((row) => row.listing.id));
  return rows.map((row) => viewOf(row, sold.get(row.listing.id) ?? 0, ctx.locale, table));
}

// ---------------------------------------------------------------------------------------------
// Rules applied to the database

/** The order's valid e-tickets, each with whether an active listing already holds it. */
async function heldTickets(db: Db, orderId: number): Promise<Array<{ id: number; listed: boolean }>> {
  const rows = await db
    .select({ id: tickets.id, linkId: listingTickets.id })
    .from(tickets)
    .leftJoin(listingTickets, and(eq(listingTickets.ticketId, tickets.id), eq(listingTickets.active, true)))
    .where(and(eq(tickets.orderId, orderId), eq(tickets.status, 'valid'), isNotNull(tickets.codeHash)))
    .orderBy(tickets.id);
  return rows.map((row) => ({ id: row.id, listed: row.linkId !== null }));
}

function requireKnownCurrency(currency: string, table: CurrencyTable): void {
  if (!table.has(currency)) throw new ApiError(400, 'currency_not_found', {}, 'currency');
}

/** A price per ticket in `currency` must lie within the band of the tier's face value; the error shows the band in that currency. */
function requirePriceInBand(price: number, currency: string, tier: { faceValue: number; currency: string }, locale: Locale, table: CurrencyTable): void {
  const inFaceCurrency = convert({ amount: price, currency }, tier.currency, table).amount;
  if (Number.isSafeInteger(price) && priceInBand(inFaceCurrency, tier.faceValue)) return;
  const band = priceBand(tier.faceValue);
  const shown = (amount: number) => formattedMoney(convert({ amount, currency: tier.currency }, currency, table).amount, currency, locale, table).formatted;
  throw new ApiError(400, 'transfer_price_out_of_band', { min: shown(band.min), max: shown(band.max) }, 'price');
}

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * Lists `quantity` tickets of the caller's order. The listing and its ticket rows are one batch; a
 * concurrent listing of the same tickets breaks the partial unique index and rolls back whole.
 */
export async function createTransferListing(
  db: Db, ctx: RequestContext, table: CurrencyTable, userId: number, orderId: number, input: TransferListingInput, now: number,
): Promise<TransferListingView> {
  if (!input.acceptAgreement) throw new ApiError(400, 'transfer_agreement_required', {}, 'acceptAgreement');
  requireKnownCurrency(input.currency, table);
  const [row] = await orderWithShowQuery(db).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!row) throw new ApiError(404, 'order_not_found');
  const held = await heldTickets(db, orderId);
  const source: TransferSource = {
    status: row.order.status, sessionStartsAt: row.session.startsAt,
    validTickets: held.length, listedTickets: held.filter((ticket) => ticket.listed).length,
  };
  const refusal = sourceRefusal(source, now) ?? quantityRefusal(source, input.quantity);
  if (refusal) throw new ApiError(409, refusal, { available: listableTickets(source) }, refusal === 'transfer_quantity_exceeds_held' ? 'quantity' : undefined);
  requirePriceInBand(input.price, input.currency, row.tier, ctx.locale, table);

  const chosen = held.filter((ticket) => !ticket.listed).slice(0, input.quantity).map((ticket) => ticket.id);
  const seating = await sourceSeating(db, row);
  const d1 = db.$client;
  // Inside the batch (one transaction) the newest listing of this seller for this order is the one just inserted.
  const newListingId = '(SELECT MAX(id) FROM listings WHERE seller_id = ?1 AND source_order_id = ?2)';
  const placeholders = chosen.map((_, index) => `?${index + 4}`).join(', ');
  try {
    await d1.batch([
      d1.prepare(`
        INSERT INTO listings (tier_id, seller_id, price, currency, quantity_total, quantity_available, seating, delivery_types, status, source_order_id, created_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, 'active', ?8, ?9)`,
      ).bind(row.order.tierId, userId, input.price, input.currency, chosen.length, seating, TRANSFER_DELIVERY_TYPES, orderId, now),
      d1.prepare(`
        INSERT INTO listing_tickets (listing_id, ticket_id, active, created_at)
        SELECT ${newListingId}, id, 1, ?3 FROM tickets
        WHERE order_id = ?2 AND status = 'valid' AND id IN (${placeholders})`,
      ).bind(userId, orderId, now, ...chosen),
      // A ticket voided since it was read is simply not linked: the listing offers what was linked.
      d1.prepare(`
        UPDATE listings SET quantity_total = (SELECT count(*) FROM listing_tickets WHERE listing_id = listings.id),
          quantity_available = (SELECT count(*) FROM listing_tickets WHERE listing_id = listings.id)
        WHERE id = ${newListingId}`,
      ).bind(userId, orderId),
    ]);
  } catch (error) {
    if (!String((error as { message?: string })?.message ?? error).includes('UNIQUE constraint failed')) throw error;
    throw new ApiError(409, 'transfer_quantity_exceeds_held', { available: 0 }, 'quantity');
  }
  const [created] = await db
    .select({ id: listings.id })
    .from(listings)
    .where(and(eq(listings.sellerId, userId), eq(listings.sourceOrderId, orderId)))
    .orderBy(desc(listings.id))
    .limit(1);
  return ownListingView(db, ctx.locale, table, userId, created.id);
}

/** The seating of the listing the source order was bought from: the tickets sit as they did. */
async function sourceSeating(db: Db, row: OrderWithShowRow): Promise<(typeof listings.$inferSelect)['seating']> {
  const [source] = await db.select({ seating: listings.seating }).from(listings).where(eq(listings.id, row.order.listingId));
  return source?.seating ?? 'together';
}

/** Changes the price of an active listing; orders already placed keep the price they were quoted. */
export async function changeTransferPrice(
  db: Db, ctx: RequestContext, table: CurrencyTable, userId: number, listingId: number, input: { price: number; currency: string }, now: number,
): Promise<TransferListingView> {
  requireKnownCurrency(input.currency, table);
  const { listing, tier, session } = await ownListingRow(db, userId, listingId);
  if (listing.status !== 'active') throw new ApiError(409, 'transfer_listing_closed');
  if (session.startsAt <= now) throw new ApiError(409, 'transfer_event_started');
  requirePriceInBand(input.price, input.currency, tier, ctx.locale, table);
  const updated = await db
    .update(listings)
    .set({ price: input.price, currency: input.currency })
    .where(and(eq(listings.id, listingId), eq(listings.status, 'active')))
    .returning({ id: listings.id });
  if (updated.length !== 1) throw new ApiError(409, 'transfer_listing_closed');
  return ownListingView(db, ctx.locale, table, userId, listingId);
}

/**
 * Withdraws a listing none of whose tickets is held or sold, with one guarded update that a
 * checkout's guarded stock decrement cannot interleave with; its tickets are then free to list
 * again. Withdrawing a withdrawn listing answers with it unchanged.
 */
export async function withdrawTransferListing(
  db: Db, ctx: RequestContext, table: CurrencyTable, userId: number, listingId: number, now: number,
): Promise<TransferListingView> {
  await ownListingRow(db, userId, listingId);
  // Unpaid orders past their deadline give their tickets back first, so they do not block a withdrawal.
  await expireOverdueOrders(db, now, { listingId });
  const [withdrawn] = await db.batch([
    db
      .update(listings)
      .set({ status: 'withdrawn' })
      .where(and(
        eq(listings.id, listingId), eq(listings.sellerId, userId), eq(listings.status, 'active'),
        eq(listings.quantityAvailable, listings.quantityTotal),
      ))
      .returning({ id: listings.id }),
    db
      .update(listingTickets)
      .set({ active: false })
      .where(and(
        eq(listingTickets.listingId, listingId), isNull(listingTickets.buyerOrderId),
        sql`EXISTS (SELECT 1 FROM ${listings} WHERE ${listings.id} = ${listingId} AND ${listings.status} = 'withdrawn')`,
      )),
  ]);
  const view = await ownListingView(db, ctx.locale, table, userId, listingId);
  if (withdrawn.length !== 1 && view.status !== 'withdrawn') throw new ApiError(409, 'transfer_listing_not_withdrawable');
  return view;
}

/**
 * Reissues the tickets of a paid order bought from a transfer listing (see the module comment);
 * does nothing for any other order, or for one no longer pending ticketing. Every statement is
 * guarded by the order's state and the batch is atomic, so a repeat changes nothing. True when it
 * ticketed the order.
 */
export async function fulfilTransferOrder(db: Db, orderId: number, now: number): Promise<boolean> {
  const [row] = await orderWithShowQuery(db)
    .innerJoin(listings, eq(listings.id, orders.listingId))
    .where(and(eq(orders.id, orderId), isNotNull(listings.sourceOrderId)));
  if (!row || row.order.status !== 'pending_ticketing') return false;
  const { order, session } = row;
  const { from, to } = transitionOf('ticketed');
  const numbers = ticketNumbers(order.orderNo, order.quantity);
  const codeHashes = await Promise.all(numbers.map(async (ticketNo) => sha256Hex(await entryCodeOf(ticketNo))));
  const platformFee = platformFeeOf(order.ticketAmount);
  const statuses = from.map((status) => `'${status}'`).join(', ');
  const payable = `EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND status IN (${statuses}))`;
  const d1 = db.$client;
  const results = await d1.batch([
    d1.prepare(`
      UPDATE listing_tickets SET buyer_order_id = ?1
      WHERE id IN (SELECT id FROM listing_tickets WHERE listing_id = ?2 AND active = 1 AND buyer_order_id IS NULL ORDER BY id LIMIT ?3)
        AND ${payable} AND NOT EXISTS (SELECT 1 FROM listing_tickets WHERE buyer_order_id = ?1)`,
    ).bind(order.id, order.listingId, order.quantity),
    ...numbers.map((ticketNo, index) => d1.prepare(`
      INSERT INTO tickets (order_id, ticket_no, code_hash, seat, status, updated_at)
      SELECT ?1, ?2, ?3,
        (SELECT t.seat FROM listing_tickets lt JOIN tickets t ON t.id = lt.ticket_id WHERE lt.buyer_order_id = ?1 ORDER BY lt.id LIMIT 1 OFFSET ?4),
        'valid', ?5
      WHERE ${payable}
      ON CONFLICT (ticket_no) DO NOTHING`,
    ).bind(order.id, ticketNo, codeHashes[index], index, now)),
    d1.prepare(`
      UPDATE tickets SET status = 'transferred', updated_at = ?2
      WHERE id IN (SELECT ticket_id FROM listing_tickets WHERE buyer_order_id = ?1) AND status = 'valid' AND ${payable}`,
    ).bind(order.id, now),
    d1.prepare(`
      INSERT INTO seller_payouts (seller_id, order_id, listing_id, amount, platform_fee, currency, payable_after, status, created_at)
      SELECT ?2, ?1, ?3, ?4, ?5, ?6, ?7, 'pending', ?8 WHERE ${payable}
      ON CONFLICT (order_id) DO NOTHING`,
    ).bind(order.id, order.sellerId, order.listingId, order.ticketAmount - platformFee, platformFee, order.currency, session.startsAt, now),
    d1.prepare(`UPDATE orders SET status = '${to}', ticketed_at = ?2, updated_at = ?2 WHERE id = ?1 AND status IN (${statuses}) RETURNING id`).bind(order.id, now),
  ]);
  return (results.at(-1)?.results.length ?? 0) === 1;
}

export interface PayoutView {
  id: number;
  orderId: number;
  listingId: number;
  amount: FormattedMoney;
  platformFee: FormattedMoney;
  payableAfter: number;
  status: (typeof sellerPayouts.$inferSelect)['status'];
}

/** The seller's recorded proceeds, newest first (paying them out happens after each event). */
export async function myPayouts(db: Db, ctx: RequestContext, table: CurrencyTable, userId: number): Promise<PayoutView[]> {
  const rows = await db.select().from(sellerPayouts).where(eq(sellerPayouts.sellerId, userId)).orderBy(desc(sellerPayouts.id));
  return rows.map((payout) => ({
    id: payout.id,
    orderId: payout.orderId,
    listingId: payout.listingId,
    amount: formattedMoney(payout.amount, payout.currency, ctx.locale, table),
    platformFee: formattedMoney(payout.platformFee, payout.currency, ctx.locale, table),
    payableAfter: payout.payableAfter,
    status: payout.status,
  }));
}
