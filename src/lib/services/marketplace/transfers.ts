/**
 * Ticket-transfer listings: a holder resells tickets of an order they bought, as an ordinary
 * listing of the tier (so it sells through the normal checkout) whose `source_order_id` names the
 * order and whose `listing_tickets` rows name the exact tickets. A ticket is in at most one active
 * listing (a partial unique index), and a listing is withdrawn only while none of its tickets is
 * held or sold, with one guarded update, so a purchase racing a withdrawal has exactly one winner.
 *
 * Reissue happens when a buyer's payment is confirmed (services/payments/payments.ts calls
 * `fulfilTransferOrder`): the transfer needs nothing from the seller, whose tickets are e-tickets
 * the platform itself issued, so waiting for the seller to "fulfil" would only let them stall it.
 * In one D1 batch the buyer's order claims that many of the listing's tickets, gets new tickets
 * (new numbers and entry nonces, so new entry secrets), the seller's originals become 'transferred', the seller's
 * proceeds are recorded for payout after the event, and the order moves to pending receipt.
 * A listed ticket that stops being valid before it is sold (the seller's own order refunded)
 * leaves its listing at once (triggers of migration 0006); an order that held it unpaid is
 * refunded when paid, and a reissue that failed after payment is retried by the scheduled sweep.
 */
import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { listings, listingTickets, orders, sellerPayouts, tickets, ticketTiers } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { convert, formattedMoney, type CurrencyTable, type FormattedMoney } from '../../domain/money.ts';
import { transitionOf } from '../../domain/order-state.ts';
import type { RequestContext } from '../../domain/request-context.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import { ticketNumbers } from '../../domain/ticket-code.ts';
import {
  listableTickets,
  listingState,
  platformFeeOf,
  priceBandIn,
  quantityRefusal,
  sourceRefusal,
  transferSplit,
  type ListingState,
  type TransferRefusal,
  type TransferSource,
} from '../../domain/transfer.ts';
import { localizedName, type Locale } from '../../i18n/locales.ts';
import { expireOverdueOrders } from '../../data/order-expiry.ts';
import { orderWithShowQuery, showQuery, type OrderWithShowRow } from '../catalogue/show-query.ts';
import { newEntryNonce } from '../gate/entry-secrets.ts';
import type { UserScope } from '../platform/scope.ts';
import { batch, rawBatch } from '../../data/batch.ts';

/** Transfers are reissued electronically, whatever the original delivery was. */
const TRANSFER_DELIVERY_TYPES = 'e_ticket';

export interface TransferListingView {
  id: number;
  sourceOrderId: number;
  sourceOrderNo: string;
  status: ListingState;
  quantityTotal: number;
  quantityAvailable: number;
  quantitySold: number;
  /** Withdrawal (of the tickets not sold) is possible while some are on sale and no order holds any unsold one. */
  withdrawable: boolean;
  price: FormattedMoney;
  faceValue: FormattedMoney;
  /** The prices allowed per ticket, in the listing's currency. */
  priceBand: { min: FormattedMoney; max: FormattedMoney };
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
  return showQuery(db, {
    listing: listings,
    sourceOrderNo: sql<string | null>`(SELECT ${orders.orderNo} FROM ${orders} WHERE ${orders.id} = ${listings.sourceOrderId})`,
  }).innerJoin(listings, eq(listings.tierId, ticketTiers.id));
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

function viewOf(row: ListingRow, sold: number, locale: Locale, table: CurrencyTable, now: number): TransferListingView {
  const { listing, tier, session, activity, city, sourceOrderNo } = row;
  const money = (amount: number) => formattedMoney(amount, listing.currency, locale, table);
  const split = transferSplit(listing.price, listing.quantityTotal);
  const band = priceBandIn({ amount: tier.faceValue, currency: tier.currency }, listing.currency, table);
  const state = listingState(listing, sold, session.startsAt, now);
  return {
    id: listing.id,
    sourceOrderId: listing.sourceOrderId!,
    sourceOrderNo: sourceOrderNo ?? '',
    status: state,
    quantityTotal: listing.quantityTotal,
    // Below zero while unpaid orders hold more tickets than the listing still has (migration 0006).
    // A withdrawn listing offers nothing, whatever its stock column still says.
    quantityAvailable: state === 'active' ? Math.max(0, listing.quantityAvailable) : 0,
    quantitySold: sold,
    withdrawable: state === 'active' && listing.quantityAvailable > 0 && listing.quantityTotal - listing.quantityAvailable === sold,
    price: money(listing.price),
    faceValue: formattedMoney(tier.faceValue, tier.currency, locale, table),
    priceBand: { min: money(band.min), max: money(band.max) },
    split: { buyerPays: money(split.buyerPays), platformFee: money(split.platformFee), sellerReceives: money(split.sellerReceives) },
    activity: { id: activity.id, name: localizedName(activity, locale) },
    session: { startsAt: session.startsAt, label: formatSessionTime(session.startsAt, locale, city.timeZone) },
    tier: { name: localizedName(tier, locale) },
    createdAt: listing.createdAt,
  };
}

/** The caller's own transfer listing; anyone else's answers like a missing one. */
async function ownListingRow(db: Db, userId: number, listingId: number): Promise<ListingRow> {
  const [row] = await listingQuery(db).where(
    and(eq(listings.id, listingId), eq(listings.sellerId, userId), isNotNull(listings.sourceOrderId)),
  );
  if (!row) throw new DomainError('transfer_listing_not_found');
  return row;
}

async function ownListingView(
  db: Db,
  locale: Locale,
  table: CurrencyTable,
  userId: number,
  listingId: number,
  now: number,
): Promise<TransferListingView> {
  const row = await ownListingRow(db, userId, listingId);
  return viewOf(row, (await soldCounts(db, [listingId])).get(listingId) ?? 0, locale, table, now);
}

/** The caller's transfer listings, newest first ("My listings"). */
export async function listMyTransferListings(scope: UserScope): Promise<TransferListingView[]> {
  const { db, ctx, currencies: table, userId, now } = scope;
  await expireOverdueOrders(db, now, { userId });
  const rows = await listingQuery(db)
    .where(and(eq(listings.sellerId, userId), isNotNull(listings.sourceOrderId)))
    .orderBy(desc(listings.createdAt), desc(listings.id));
  const sold = await soldCounts(
    db,
    rows.map((row) => row.listing.id),
  );
  return rows.map((row) => viewOf(row, sold.get(row.listing.id) ?? 0, ctx.locale, table, now));
}

/** What the "Sell / transfer" page offers for one of the caller's orders. */
export interface TransferDraft {
  order: { id: number; orderNo: string };
  activity: { id: number; name: string; poster: string };
  session: { label: string };
  tier: { name: string };
  faceValue: FormattedMoney;
  /** Tickets that may be listed now; when none, `refusal` says why. */
  listable: number;
  refusal: TransferRefusal | null;
  /** Every currency a price may be set in, with the face value and the price band in it. */
  currencies: Array<{ code: string; minorDigits: number; faceValue: number; min: number; max: number }>;
  /** The caller's own currency: the one they think in. */
  currency: string;
}

/** One of the caller's orders (anyone else's answers like a missing one), its held tickets, and what the transfer rules read of it. */
async function ownTransferSource(db: Db, userId: number, orderId: number) {
  const [row] = await orderWithShowQuery(db).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!row) throw new DomainError('order_not_found');
  const held = await heldTickets(db, orderId);
  const source: TransferSource = {
    status: row.order.status,
    sessionStartsAt: row.session.startsAt,
    validTickets: held.length,
    listedTickets: held.filter((ticket) => ticket.listed).length,
  };
  return { row, held, source };
}

export async function transferDraft(
  db: Db,
  ctx: RequestContext,
  table: CurrencyTable,
  userId: number,
  orderId: number,
  now: number,
): Promise<TransferDraft> {
  const { row, source } = await ownTransferSource(db, userId, orderId);
  const refusal = sourceRefusal(source, now);
  const face = { amount: row.tier.faceValue, currency: row.tier.currency };
  return {
    order: { id: row.order.id, orderNo: row.order.orderNo },
    activity: { id: row.activity.id, name: localizedName(row.activity, ctx.locale), poster: row.activity.poster },
    session: { label: formatSessionTime(row.session.startsAt, ctx.locale, row.city.timeZone) },
    tier: { name: localizedName(row.tier, ctx.locale) },
    faceValue: formattedMoney(face.amount, face.currency, ctx.locale, table),
    listable: refusal ? 0 : listableTickets(source),
    refusal,
    currencies: [...table.values()].map(({ code, minorDigits }) => ({
      code,
      minorDigits,
      faceValue: convert(face, code, table).amount,
      ...priceBandIn(face, code, table),
    })),
    currency: table.has(ctx.currency) ? ctx.currency : face.currency,
  };
}

// ---------------------------------------------------------------------------------------------
// Rules applied to the database

/** The order's valid e-tickets, each with whether an active listing already holds it. */
async function heldTickets(db: Db, orderId: number): Promise<Array<{ id: number; listed: boolean }>> {
  const rows = await db
    .select({ id: tickets.id, linkId: listingTickets.id })
    .from(tickets)
    .leftJoin(listingTickets, and(eq(listingTickets.ticketId, tickets.id), eq(listingTickets.active, true)))
    .where(and(eq(tickets.orderId, orderId), eq(tickets.status, 'valid'), isNotNull(tickets.entryNonce)))
    .orderBy(tickets.id);
  return rows.map((row) => ({ id: row.id, listed: row.linkId !== null }));
}

function requireKnownCurrency(currency: string, table: CurrencyTable): void {
  if (!table.has(currency)) throw new DomainError('currency_not_found', {}, 'currency');
}

/** A price per ticket in `currency` must lie within the band of the tier's face value; the error shows the band in that currency. */
function requirePriceInBand(
  price: number,
  currency: string,
  tier: { faceValue: number; currency: string },
  locale: Locale,
  table: CurrencyTable,
): void {
  const band = priceBandIn({ amount: tier.faceValue, currency: tier.currency }, currency, table);
  if (Number.isSafeInteger(price) && price >= band.min && price <= band.max) return;
  const shown = (amount: number) => formattedMoney(amount, currency, locale, table).formatted;
  throw new DomainError('transfer_price_out_of_band', { min: shown(band.min), max: shown(band.max) }, 'price');
}

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * Lists `quantity` tickets of the caller's order. The listing and its ticket rows are one batch; a
 * concurrent listing of the same tickets breaks the partial unique index and rolls back whole.
 */
export async function createTransferListing(scope: UserScope, orderId: number, input: TransferListingInput): Promise<TransferListingView> {
  const { db, ctx, currencies: table, userId, now } = scope;
  if (!input.acceptAgreement) throw new DomainError('transfer_agreement_required', {}, 'acceptAgreement');
  requireKnownCurrency(input.currency, table);
  const { row, held, source } = await ownTransferSource(db, userId, orderId);
  const refusal = sourceRefusal(source, now) ?? quantityRefusal(source, input.quantity);
  if (refusal)
    throw new DomainError(
      refusal,
      { count: listableTickets(source) },
      refusal === 'transfer_quantity_exceeds_held' ? 'quantity' : undefined,
    );
  requirePriceInBand(input.price, input.currency, row.tier, ctx.locale, table);

  const chosen = held
    .filter((ticket) => !ticket.listed)
    .slice(0, input.quantity)
    .map((ticket) => ticket.id);
  const seating = await sourceSeating(db, row);
  const d1 = db.$client;
  // Inside the batch (one transaction) the newest listing of this seller for this order is the one just inserted.
  const newListingId = '(SELECT MAX(id) FROM listings WHERE seller_id = ?1 AND source_order_id = ?2)';
  const placeholders = chosen.map((_, index) => `?${index + 4}`).join(', ');
  try {
    await rawBatch(d1, {
      listing: d1
        .prepare(`
        INSERT INTO listings (tier_id, seller_id, price, currency, quantity_total, quantity_available, seating, delivery_types, status, source_order_id, created_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, 'active', ?8, ?9)`)
        .bind(row.order.tierId, userId, input.price, input.currency, chosen.length, seating, TRANSFER_DELIVERY_TYPES, orderId, now),
      link: d1
        .prepare(`
        INSERT INTO listing_tickets (listing_id, ticket_id, active, created_at)
        SELECT ${newListingId}, id, 1, ?3 FROM tickets
        WHERE order_id = ?2 AND status = 'valid' AND id IN (${placeholders})`)
        .bind(userId, orderId, now, ...chosen),
      // A ticket voided since it was read is simply not linked: the listing offers what was linked.
      count: d1
        .prepare(`
        UPDATE listings SET quantity_total = (SELECT count(*) FROM listing_tickets WHERE listing_id = listings.id),
          quantity_available = (SELECT count(*) FROM listing_tickets WHERE listing_id = listings.id)
        WHERE id = ${newListingId}`)
        .bind(userId, orderId),
    });
  } catch (error) {
    if (!String((error as { message?: string })?.message ?? error).includes('UNIQUE constraint failed')) throw error;
    throw new DomainError('transfer_quantity_exceeds_held', { count: 0 }, 'quantity');
  }
  const [created] = await db
    .select({ id: listings.id })
    .from(listings)
    .where(and(eq(listings.sellerId, userId), eq(listings.sourceOrderId, orderId)))
    .orderBy(desc(listings.id))
    .limit(1);
  return ownListingView(db, ctx.locale, table, userId, created.id, now);
}

/** The seating of the listing the source order was bought from: the tickets sit as they did. */
async function sourceSeating(db: Db, row: OrderWithShowRow): Promise<(typeof listings.$inferSelect)['seating']> {
  const [source] = await db.select({ seating: listings.seating }).from(listings).where(eq(listings.id, row.order.listingId));
  return source?.seating ?? 'together';
}

/** Changes the price of an active listing; orders already placed keep the price they were quoted. */
export async function changeTransferPrice(
  scope: UserScope,
  listingId: number,
  input: { price: number; currency: string },
): Promise<TransferListingView> {
  const { db, ctx, currencies: table, userId, now } = scope;
  requireKnownCurrency(input.currency, table);
  const { listing, tier, session } = await ownListingRow(db, userId, listingId);
  if (listing.status !== 'active') throw new DomainError('transfer_listing_closed');
  if (session.startsAt <= now) throw new DomainError('transfer_event_started');
  requirePriceInBand(input.price, input.currency, tier, ctx.locale, table);
  const updated = await db
    .update(listings)
    .set({ price: input.price, currency: input.currency })
    .where(and(eq(listings.id, listingId), eq(listings.status, 'active')))
    .returning({ id: listings.id });
  if (updated.length !== 1) throw new DomainError('transfer_listing_closed');
  return ownListingView(db, ctx.locale, table, userId, listingId, now);
}

/**
 * Withdraws what is left of a listing: allowed while some tickets are on sale and every ticket
 * taken from its stock belongs to an order that has claimed it (so no unpaid or just-paid order
 * holds one), with one guarded update that a checkout's guarded stock decrement cannot interleave
 * with. The unsold tickets are then free to use or list again; the sold ones stay sold.
 * Withdrawing a withdrawn listing answers with it unchanged.
 */
export async function withdrawTransferListing(scope: UserScope, listingId: number): Promise<TransferListingView> {
  const { db, ctx, currencies: table, userId, now } = scope;
  await ownListingRow(db, userId, listingId);
  // Unpaid orders past their deadline give their tickets back first, so they do not block a withdrawal.
  await expireOverdueOrders(db, now, { listingId });
  const { withdrawn } = await batch(db, {
    withdrawn: db
      .update(listings)
      .set({ status: 'withdrawn' })
      .where(
        and(
          eq(listings.id, listingId),
          eq(listings.sellerId, userId),
          eq(listings.status, 'active'),
          sql`${listings.quantityAvailable} > 0`,
          sql`${listings.quantityTotal} - ${listings.quantityAvailable} = (
          SELECT count(*) FROM ${listingTickets} WHERE ${listingTickets.listingId} = ${listings.id} AND ${listingTickets.buyerOrderId} IS NOT NULL)`,
        ),
      )
      .returning({ id: listings.id }),
    unlinked: db
      .update(listingTickets)
      .set({ active: false })
      .where(
        and(
          eq(listingTickets.listingId, listingId),
          isNull(listingTickets.buyerOrderId),
          sql`EXISTS (SELECT 1 FROM ${listings} WHERE ${listings.id} = ${listingId} AND ${listings.status} = 'withdrawn')`,
        ),
      ),
  });
  const view = await ownListingView(db, ctx.locale, table, userId, listingId, now);
  if (withdrawn.length !== 1 && view.status !== 'withdrawn') throw new DomainError('transfer_listing_not_withdrawable');
  return view;
}

/** What an attempt to reissue a paid transfer order did. */
export type TransferReissue =
  /** This call reissued the tickets: the order is pending receipt. */
  | 'ticketed'
  /**
   * The listing no longer has the tickets (the seller's own order was refunded, or its tickets
   * voided, while this order held them unpaid): this call closed the order as refunded, and its
   * payment is to be given back.
   */
  | 'unavailable'
  /** Nothing to do: not a transfer order, or no longer pending ticketing (another call got there first). */
  | 'unchanged';

/**
 * Reissues the tickets of a paid order bought from a transfer listing (see the module comment).
 * The order claims all of its tickets among the listing's unclaimed ones or none, and every other
 * write requires that claim, so the batch reissues everything or nothing. A listing short of
 * tickets never gets them back (migration 0006 takes voided tickets out for good), so the same
 * batch then closes the order as refunded and gives its hold back to the listing's stock; the
 * caller refunds the payment (services/payments/payments.ts). Every statement is guarded by the order's
 * state and the batch is atomic, so a repeat or a concurrent call changes nothing.
 */
export async function fulfilTransferOrder(db: Db, orderId: number, now: number): Promise<TransferReissue> {
  const [row] = await orderWithShowQuery(db)
    .innerJoin(listings, eq(listings.id, orders.listingId))
    .where(and(eq(orders.id, orderId), isNotNull(listings.sourceOrderId)));
  if (row?.order.status !== 'pending_ticketing') return 'unchanged';
  const { order, session } = row;
  const { from, to } = transitionOf('ticketed');
  const refunded = transitionOf('seller_failed').to;
  const numbers = ticketNumbers(order.orderNo, order.quantity);
  // Each reissued ticket has its own entry nonce, so the codes of the ticket it replaces admit no one.
  const entryNonces = numbers.map(() => newEntryNonce());
  const platformFee = platformFeeOf(order.ticketAmount);
  const statuses = from.map((status) => `'${status}'`).join(', ');
  const payable = `EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND status IN (${statuses}))`;
  const unclaimed = 'SELECT id FROM listing_tickets WHERE listing_id = ?2 AND active = 1 AND buyer_order_id IS NULL';
  const claimedAll = `(SELECT count(*) FROM listing_tickets WHERE buyer_order_id = ?1) = ${order.quantity}`;
  const shortOfTickets = `${payable} AND NOT EXISTS (SELECT 1 FROM listing_tickets WHERE buyer_order_id = ?1)
    AND (SELECT count(*) FROM (${unclaimed})) < ?3`;
  const d1 = db.$client;
  const { ticketed, refund } = await rawBatch(d1, {
    claim: d1
      .prepare(`
      UPDATE listing_tickets SET buyer_order_id = ?1
      WHERE id IN (${unclaimed} ORDER BY id LIMIT ?3)
        AND ${payable} AND NOT EXISTS (SELECT 1 FROM listing_tickets WHERE buyer_order_id = ?1)
        AND (SELECT count(*) FROM (${unclaimed})) >= ?3`)
      .bind(order.id, order.listingId, order.quantity),
    tickets: numbers.map((ticketNo, index) =>
      d1
        .prepare(`
      INSERT INTO tickets (order_id, ticket_no, entry_nonce, seat, status, updated_at)
      SELECT ?1, ?2, ?3,
        (SELECT t.seat FROM listing_tickets lt JOIN tickets t ON t.id = lt.ticket_id WHERE lt.buyer_order_id = ?1 ORDER BY lt.id LIMIT 1 OFFSET ?4),
        'valid', ?5
      WHERE ${payable} AND ${claimedAll}
      ON CONFLICT (ticket_no) DO NOTHING`)
        .bind(order.id, ticketNo, entryNonces[index], index, now),
    ),
    transferred: d1
      .prepare(`
      UPDATE tickets SET status = 'transferred', updated_at = ?2
      WHERE id IN (SELECT ticket_id FROM listing_tickets WHERE buyer_order_id = ?1) AND status = 'valid' AND ${payable}`)
      .bind(order.id, now),
    payout: d1
      .prepare(`
      INSERT INTO seller_payouts (seller_id, order_id, listing_id, amount, platform_fee, currency, payable_after, status, created_at)
      SELECT ?2, ?1, ?3, ?4, ?5, ?6, ?7, 'pending', ?8 WHERE ${payable} AND ${claimedAll}
      ON CONFLICT (order_id) DO NOTHING`)
      .bind(
        order.id,
        order.sellerId,
        order.listingId,
        order.ticketAmount - platformFee,
        platformFee,
        order.currency,
        session.startsAt,
        now,
      ),
    ticketed: d1
      .prepare(
        `UPDATE orders SET status = '${to}', ticketed_at = ?2, updated_at = ?2 WHERE id = ?1 AND status IN (${statuses}) AND ${claimedAll} RETURNING id`,
      )
      .bind(order.id, now),
    // Not claimed, and never claimable: the hold goes back first, while the order still shows it.
    giveBack: d1
      .prepare(`UPDATE listings SET quantity_available = quantity_available + ?3 WHERE id = ?2 AND ${shortOfTickets}`)
      .bind(order.id, order.listingId, order.quantity),
    refund: d1
      .prepare(`
      UPDATE orders SET status = '${refunded}', refund_amount = total, closed_at = ?4, updated_at = ?4
      WHERE id = ?1 AND ${shortOfTickets} RETURNING id`)
      .bind(order.id, order.listingId, order.quantity, now),
  });
  if (ticketed.results.length === 1) return 'ticketed';
  if (refund.results.length === 1) return 'unavailable';
  return 'unchanged';
}

/** Paid orders of transfer listings whose reissue has not happened yet, oldest first (the sweep retries them). */
export async function transferOrdersAwaitingReissue(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(listings, eq(listings.id, orders.listingId))
    .where(and(eq(orders.status, 'pending_ticketing'), isNotNull(listings.sourceOrderId)))
    .orderBy(orders.id);
  return rows.map((row) => row.id);
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
export async function myPayouts(scope: UserScope): Promise<PayoutView[]> {
  const { db, ctx, currencies: table, userId } = scope;
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
