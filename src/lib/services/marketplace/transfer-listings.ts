/**
 * Ticket-transfer listings: a holder resells tickets of an order they bought, as an ordinary
 * listing of the tier (so it sells through the normal checkout) whose `source_order_id` names the
 * order and whose `listing_tickets` rows name the exact tickets. A ticket is in at most one active
 * listing (a partial unique index), and a listing is withdrawn only while none of its tickets is
 * held or sold, with one guarded update, so a purchase racing a withdrawal has exactly one winner.
 * A sold ticket reaches its buyer through transfer-reissue.ts.
 */
import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { listings, listingTickets, orders, tickets } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { convert, formattedMoney, type CurrencyTable, type FormattedMoney } from '../../domain/money.ts';
import type { RequestContext } from '../../domain/request-context.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import {
  listableTickets,
  priceBandIn,
  quantityRefusal,
  sourceRefusal,
  type TransferRefusal,
  type TransferSource,
} from '../../domain/transfer.ts';
import { localizedName, type Locale } from '../../i18n/locales.ts';
import { expireOverdueOrders } from '../../data/order-expiry.ts';
import { orderWithShowQuery, type OrderWithShowRow } from '../catalogue/show-query.ts';
import type { UserScope } from '../platform/scope.ts';
import { ownListingRow, ownListingView, type TransferListingView } from './transfer-views.ts';
import { batch, rawBatch } from '../../data/batch.ts';

/** Transfers are reissued electronically, whatever the original delivery was. */
const TRANSFER_DELIVERY_TYPES = 'e_ticket';

export interface TransferListingInput {
  quantity: number;
  price: number;
  currency: string;
  acceptAgreement: boolean;
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
