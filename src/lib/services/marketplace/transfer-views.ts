/** How a seller sees their ticket-transfer listings: each with its prices, its split and what was sold of it. */
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { listings, listingTickets, orders, ticketTiers } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { formattedMoney, type CurrencyTable, type FormattedMoney } from '../../domain/money.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import { listingState, priceBandIn, transferSplit, type ListingState } from '../../domain/transfer.ts';
import { localizedName, type Locale } from '../../i18n/locales.ts';
import { expireOverdueOrders } from '../../data/order-expiry.ts';
import { showQuery } from '../catalogue/show-query.ts';
import type { UserScope } from '../platform/scope.ts';

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
export async function ownListingRow(db: Db, userId: number, listingId: number): Promise<ListingRow> {
  const [row] = await listingQuery(db).where(
    and(eq(listings.id, listingId), eq(listings.sellerId, userId), isNotNull(listings.sourceOrderId)),
  );
  if (!row) throw new DomainError('transfer_listing_not_found');
  return row;
}

export async function ownListingView(
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
