/**
 * The box office of a show put on sale from the console: the seller account that sells each tier's
 * quota at face value, as one listing a tier (no `source_order_id`: not a resale). The listings are
 * made when the activity is published, or when a published activity gains a tier or a quota, and
 * follow the tier's face value and quota afterwards; buyers then buy them as any other listing.
 */
import { and, asc, eq, gt, inArray, isNotNull, isNull, ne, notExists, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { activities, activitySessions, listings, ticketTiers, users } from '../../db/schema.ts';
import { UNPUBLISHED_STATUS } from '../../domain/catalogue-drafts.ts';
import { DomainError } from '../../domain/errors.ts';

/** How many seller accounts the form offers as box offices. */
const SELLER_CHOICES_LIMIT = 500;

/** The seller accounts an editor may name as a show's box office, by name. */
export async function sellerChoices(db: Db): Promise<{ id: number; name: string }[]> {
  return db
    .select({ id: users.id, name: users.nickname })
    .from(users)
    .where(eq(users.isSeller, true))
    .orderBy(asc(users.nickname), asc(users.id))
    .limit(SELLER_CHOICES_LIMIT);
}

export async function requireBoxOfficeSeller(db: Db, sellerId: number | null): Promise<void> {
  if (sellerId === null) return;
  const [seller] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, sellerId), eq(users.isSeller, true)));
  if (!seller) throw new DomainError('box_office_not_a_seller', {}, 'boxOfficeSellerId');
}

/** Whether the seller's box-office listings of the activity exist: then another seller cannot take them over. */
export async function hasBoxOfficeListings(db: Db, activityId: number, sellerId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: listings.id })
    .from(listings)
    .innerJoin(ticketTiers, eq(ticketTiers.id, listings.tierId))
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .where(and(eq(activitySessions.activityId, activityId), eq(listings.sellerId, sellerId), isNull(listings.sourceOrderId)))
    .limit(1);
  return row !== undefined;
}

/**
 * The statement that gives every tier matching `which` (of a published activity with a box office,
 * with a quota) its box-office listing if it has none: a no-op for a draft or a resale-only show, so
 * it can ride in any batch that may have made one due.
 */
function boxOfficeListingsWhere(db: Db, which: SQL, now: number) {
  // Every column of listings in its order, as an insert from a select takes them.
  const offered = db
    .select({
      id: sql<null>`NULL`.as('id'),
      tierId: ticketTiers.id,
      sellerId: activities.boxOfficeSellerId,
      price: ticketTiers.faceValue,
      currency: ticketTiers.currency,
      quantityTotal: ticketTiers.quota,
      quantityAvailable: ticketTiers.quota,
      seating: sql<'together'>`'together'`.as('seating'),
      deliveryTypes: sql<string>`'e_ticket'`.as('delivery_types'),
      status: sql<'active'>`'active'`.as('status'),
      sourceOrderId: sql<null>`NULL`.as('source_order_id'),
      createdAt: sql<number>`${now}`.as('created_at'),
    })
    .from(ticketTiers)
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .where(
      and(
        which,
        ne(activities.status, UNPUBLISHED_STATUS),
        isNotNull(activities.boxOfficeSellerId),
        gt(ticketTiers.quota, 0),
        notExists(
          db
            .select({ id: listings.id })
            .from(listings)
            .where(
              and(eq(listings.tierId, ticketTiers.id), eq(listings.sellerId, activities.boxOfficeSellerId), isNull(listings.sourceOrderId)),
            ),
        ),
      ),
    );
  return db.insert(listings).select(offered);
}

export function activityBoxOfficeListings(db: Db, activityId: number, now: number) {
  return boxOfficeListingsWhere(db, eq(activities.id, activityId), now);
}

export function tierBoxOfficeListing(db: Db, tierId: number, now: number) {
  return boxOfficeListingsWhere(db, eq(ticketTiers.id, tierId), now);
}

/**
 * A tier's box-office listing follows its new face value and quota: the quota's change moves the
 * listing's total and what is left alike, never below what buyers already hold (the tier's rules
 * keep the quota above what was ordered).
 */
export function followTier(db: Db, tierId: number, faceValue: number, quotaChange: number) {
  const boxOffice = db
    .select({ sellerId: activities.boxOfficeSellerId })
    .from(ticketTiers)
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .where(eq(ticketTiers.id, tierId));
  return db
    .update(listings)
    .set({
      price: faceValue,
      quantityTotal: sql`${listings.quantityTotal} + ${quotaChange}`,
      quantityAvailable: sql`${listings.quantityAvailable} + ${quotaChange}`,
      status: sql`CASE WHEN ${listings.status} = 'sold_out' AND ${listings.quantityAvailable} + ${quotaChange} > 0 THEN 'active' ELSE ${listings.status} END`,
    })
    .where(
      and(
        eq(listings.tierId, tierId),
        isNull(listings.sourceOrderId),
        inArray(listings.sellerId, boxOffice),
        sql`${listings.quantityAvailable} + ${quotaChange} >= 0`,
      ),
    );
}
