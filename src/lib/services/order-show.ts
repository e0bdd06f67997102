/**
 * An order with the show it is for: its activity, venue, city (and country), session and tier, and
 * its seller's name, which every view of an order names (the buyer's orders, the seller's queue, the voucher).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { activities, activitySessions, cities, countries, orders, ticketTiers, users, venues } from '../db/schema.ts';

/** The select of orders joined to their show, ready for a `where`. */
export function orderWithShowQuery(db: Db) {
  return db
    .select({
      order: orders, activity: activities, venue: venues, city: cities, session: activitySessions, tier: ticketTiers,
      countryCode: countries.code, sellerName: users.nickname,
    })
    .from(orders)
    .innerJoin(activities, eq(activities.id, orders.activityId))
    .innerJoin(venues, eq(venues.id, activities.venueId))
    .innerJoin(cities, eq(cities.id, venues.cityId))
    .innerJoin(countries, eq(countries.id, cities.countryId))
    .innerJoin(activitySessions, eq(activitySessions.id, orders.sessionId))
    .innerJoin(ticketTiers, eq(ticketTiers.id, orders.tierId))
    .leftJoin(users, eq(users.id, orders.sellerId));
}

export type OrderWithShowRow = Awaited<ReturnType<ReturnType<typeof orderWithShowQuery>['where']>>[number];
