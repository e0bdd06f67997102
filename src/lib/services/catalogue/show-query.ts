/**
 * The one join from a ticket tier to the show it is for: its session, activity, venue, city and
 * country. Orders, listings and lotteries all name a tier, and every view of them shows the show.
 */
import { eq } from 'drizzle-orm';
import { DomainError } from '../../domain/errors.ts';
import type { SelectedFields } from 'drizzle-orm/sqlite-core';
import { prefixed, prefixedTable } from '../../data/batch-columns.ts';
import type { Db } from '../../data/client.ts';
import { activities, activitySessions, cities, countries, orders, ticketTiers, users, venues } from '../../db/schema.ts';

/**
 * A session's columns as every view of a show reads them: all but `highDemand` and
 * `accountTicketCap`, which checkout alone selects beside them (orders/checkout.ts). An order with
 * its show is already D1's limit of 100 columns in a result, and a view of an order has no use for
 * how its session was sold.
 */
const {
  highDemand: _readByCheckoutOnly,
  accountTicketCap: _capReadByCheckoutOnly,
  // How the console sells it: no view of a show needs it.
  onSaleAt: _onSaleAtOfConsole,
  offSaleAt: _offSaleAtOfConsole,
  ...sessionColumns
} = prefixedTable('session', activitySessions);
/** A tier's columns likewise: all but its `highDemand` (migration 0026), which checkout alone selects, and the console's quota. */
const { highDemand: _tierReadByCheckoutOnly, quota: _quotaOfConsole, ...tierColumns } = prefixedTable('tier', ticketTiers);
/**
 * An activity's columns but those of the console's editing (its sale state and publishing) and the
 * buying notes, which the activity page reads on its own: with them an order and its show pass D1's 100 columns.
 */
const {
  saleStatus: _saleStatusOfConsole,
  publishedAt: _publishedAtOfConsole,
  buyingNotesEn: _notesEn,
  buyingNotesZhHant: _notesZhHant,
  buyingNotesZhHans: _notesZhHans,
  ...activityColumns
} = prefixedTable('activity', activities);
/** A venue's columns but its map link, which the activity page reads on its own. */
const { mapUrl: _mapUrlOfActivityPage, ...venueColumns } = prefixedTable('venue', venues);

// Named uniquely, so that a show query can go into a D1 batch (data/batch-columns.ts).
const showColumns = {
  tier: tierColumns,
  session: sessionColumns,
  activity: activityColumns,
  venue: venueColumns,
  // A view of a show reads its city's names and clock only: the whole row would pass D1's 100 columns with an order beside it.
  city: prefixed('city', cities, ['id', 'nameEn', 'nameZhHant', 'nameZhHans', 'timeZone']),
  countryCode: prefixed('country', countries, ['code']).code,
};

/**
 * Tiers with their show, and the caller's own columns beside them: the caller joins the table
 * its rows come from (orders, listings, lotteries) on its `tier_id`, then adds its `where`.
 */
export function showQuery<Columns extends SelectedFields>(db: Db, columns: Columns) {
  return db
    .select({ ...showColumns, ...columns })
    .from(ticketTiers)
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .innerJoin(venues, eq(venues.id, activities.venueId))
    .innerJoin(cities, eq(cities.id, venues.cityId))
    .innerJoin(countries, eq(countries.id, cities.countryId));
}

/**
 * The select of orders joined to their show and their seller's name, which every view of an order
 * names (the buyer's orders, the seller's queue, the voucher, the gate); ready for a `where`.
 */
export function orderWithShowQuery(db: Db) {
  return showQuery(db, { order: prefixedTable('order', orders), sellerName: users.nickname })
    .innerJoin(orders, eq(orders.tierId, ticketTiers.id))
    .leftJoin(users, eq(users.id, orders.sellerId));
}

export type OrderWithShowRow = Awaited<ReturnType<ReturnType<typeof orderWithShowQuery>['where']>>[number];

/** One session's row; a missing one is `session_not_found`. */
export async function sessionRow(db: Db, sessionId: number): Promise<typeof activitySessions.$inferSelect> {
  const [row] = await db.select().from(activitySessions).where(eq(activitySessions.id, sessionId));
  if (!row) throw new DomainError('session_not_found');
  return row;
}
