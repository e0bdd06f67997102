/**
 * An order with the show it is for: its activity, venue, city, session and tier, which every view
 * of an order names (the seller's queue, the voucher).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { activities, activitySessions, cities, orders, ticketTiers, venues } from '../db/schema.ts';

/** The select of orders joined to their show, ready for a `where`. */
export function orderWithShowQuery(db: Db) {
  return db
    .select({ order: orders, activity: activities, venue: venues, city: cities, session: activitySessions, tier: ticketTiers })
    .from(orders)
    .innerJoin(activities, eq(activities.id, orders.activityId))
    .innerJoin(venues, eq(venues.id, activities.venueId))
    .innerJoin(cities, eq(cities.id, venues.cityId))
    .innerJoin(activitySessions, eq(activitySessions.id, orders.sessionId))
    .innerJoin(ticketTiers, eq(ticketTiers.id, orders.tierId));
}

export type OrderWithShowRow = Awaited<ReturnType<ReturnType<typeof orderWithShowQuery>['where']>>[number];
