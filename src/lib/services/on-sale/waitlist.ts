/**
 * The waitlist of sold-out tiers: joining, leaving and the buyer's entries, and the offer
 * pass that gives returned tickets to the first waiting group they fit. An offer holds its tickets in
 * the listing's stock, marks its entry and writes its message through the triggers of
 * migrations/0015_waitlist.sql; checkout claims it (orders/placing.ts).
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { WAITLIST_OFFER_HOLD_MS, WAITLIST_OFFERS_PER_BATCH } from '../../config/on-sale.ts';
import type { Db } from '../../data/client.ts';
import { prefixed } from '../../data/batch-columns.ts';
import { read, readOne, type Read } from '../../data/read-together.ts';
import { activitySessions, listings, ticketTiers, waitlistEntries, waitlistOffers } from '../../db/schema.ts';
import { ACTIVITY_STATUS } from '../../domain/activity.ts';
import { DomainError } from '../../domain/errors.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import { groupSizeAllowed, groupSizeBounds, joinRefusal, offerCheckoutPath, placeInLine, showSells } from '../../domain/waitlist.ts';
import { localizedName, localizedPath } from '../../i18n/locales.ts';
import { pathTo } from '../../routes.ts';
import type { UserScope } from '../platform/scope.ts';
import { showQuery } from '../catalogue/show-query.ts';
import { batch, rawBatch } from '../../data/batch.ts';

// ---------------------------------------------------------------------------------------------
// The offer pass

/** A listing of entry `w`'s tier that can take its whole group now: ?1 is now. */
const FITTING_LISTING = `
  FROM listings l
  JOIN ticket_tiers t ON t.id = l.tier_id
  JOIN activity_sessions s ON s.id = t.session_id
  JOIN activities a ON a.id = s.activity_id
  WHERE l.tier_id = w.tier_id AND l.status = 'active' AND l.seller_id <> w.user_id AND l.quantity_available >= w.quantity
    AND s.starts_at > ?1 AND s.status <> 'cancelled' AND a.status IN (?3, ?4) AND a.sale_starts_at <= ?1`;

/**
 * One offer: the earliest waiting entry whose whole group fits one listing gets it, from the cheapest
 * such listing. The insert's trigger takes the tickets, so the next statement no longer sees them.
 */
const OFFER_NEXT = `
  INSERT INTO waitlist_offers (entry_id, user_id, listing_id, quantity, status, expires_at, created_at)
  SELECT w.id, w.user_id, (SELECT l.id ${FITTING_LISTING} ORDER BY l.price, l.id LIMIT 1), w.quantity, 'open', ?2, ?1
  FROM waitlist_entries w
  WHERE w.status = 'waiting' AND EXISTS (SELECT 1 ${FITTING_LISTING})
  ORDER BY w.id LIMIT 1
  RETURNING id`;

/**
 * One offer pass: WAITLIST_OFFERS_PER_BATCH offer statements for one D1 batch. A batch is one
 * transaction whose statements run in order, so each offer sees the stock the one before took: a
 * group is never split and the same tickets are never offered twice, however many passes run at once.
 */
export function offerNextStatements(db: Db, now: number): D1PreparedStatement[] {
  const offer = db.$client.prepare(OFFER_NEXT).bind(now, now + WAITLIST_OFFER_HOLD_MS, ACTIVITY_STATUS.onSale, ACTIVITY_STATUS.booking);
  return Array.from({ length: WAITLIST_OFFERS_PER_BATCH }, () => offer);
}

/** The offers a pass's results made, and whether more may be left (its last statement still made one). */
export function offersMade(results: readonly D1Result[]): { made: number; more: boolean } {
  const counts = results.map((result) => result.results.length);
  return { made: counts.reduce((sum, count) => sum + count, 0), more: counts[counts.length - 1] > 0 };
}

/** Offers returned tickets to the waiting groups they fit, in queue order; answers how many offers it made. */
export async function offerReturnedTickets(db: Db, now: number): Promise<number> {
  let total = 0;
  for (;;) {
    const { made, more } = offersMade((await rawBatch(db.$client, { offers: offerNextStatements(db, now) })).offers);
    total += made;
    if (!more) return total;
  }
}

/** Open offers whose hold has run out lapse; their trigger gives the tickets back to the listing. */
export function lapseOverdueOffersStatement(db: Db, now: number): D1PreparedStatement {
  return db.$client.prepare(`UPDATE waitlist_offers SET status = 'lapsed' WHERE status = 'open' AND expires_at <= ?1`).bind(now);
}

export async function lapseOverdueOffers(db: Db, now: number): Promise<number> {
  return (await lapseOverdueOffersStatement(db, now).run()).meta.changes;
}

// ---------------------------------------------------------------------------------------------
// The buyer's entries

export interface WaitlistOfferView {
  id: number;
  quantity: number;
  expiresAt: number;
  /** The checkout that buys the held tickets, in the request's language. */
  checkoutPath: string;
}

export interface WaitlistEntryView {
  id: number;
  tierId: number;
  activity: { id: number; name: string };
  session: { id: number; startsAt: number; label: string };
  tier: string;
  quantity: number;
  /** 1 for the first waiting group of the tier; null once an offer is open. */
  place: number | null;
  status: 'waiting' | 'offered';
  offer: WaitlistOfferView | null;
}

const ACTIVE = ['waiting', 'offered'] as const;

/** The buyer's active entries (of one tier, or all) as views, with the queues they stand in. */
function entriesRead(scope: UserScope, tierId?: number): Read<WaitlistEntryView[]> {
  const { db, userId, ctx } = scope;
  const mine = [eq(waitlistEntries.userId, userId), inArray(waitlistEntries.status, [...ACTIVE])];
  if (tierId !== undefined) mine.push(eq(waitlistEntries.tierId, tierId));
  const myTiers = db
    .select({ tierId: waitlistEntries.tierId })
    .from(waitlistEntries)
    .where(and(...mine));
  const confirmPath = localizedPath(pathTo('orderConfirmPage'), ctx.locale);
  return read(
    {
      entries: showQuery(db, {
        entry: prefixed('entry', waitlistEntries, ['id', 'tierId', 'quantity', 'status']),
        offer: prefixed('offer', waitlistOffers, ['id', 'listingId', 'quantity', 'expiresAt']),
      })
        .innerJoin(waitlistEntries, eq(waitlistEntries.tierId, ticketTiers.id))
        .leftJoin(waitlistOffers, and(eq(waitlistOffers.entryId, waitlistEntries.id), eq(waitlistOffers.status, 'open')))
        .where(and(...mine))
        .orderBy(asc(waitlistEntries.id)),
      queue: db
        .select(prefixed('queue', waitlistEntries, ['id', 'tierId']))
        .from(waitlistEntries)
        .where(and(eq(waitlistEntries.status, 'waiting'), inArray(waitlistEntries.tierId, myTiers))),
    },
    ({ entries, queue }) =>
      entries.map(({ entry, offer, tier, session, activity, city }) => {
        const waitingIds = queue.filter((row) => row.tierId === entry.tierId).map((row) => row.id);
        return {
          id: entry.id,
          tierId: entry.tierId,
          activity: { id: activity.id, name: localizedName(activity, ctx.locale) },
          session: { id: session.id, startsAt: session.startsAt, label: formatSessionTime(session.startsAt, ctx.locale, city.timeZone) },
          tier: localizedName(tier, ctx.locale),
          quantity: entry.quantity,
          place: entry.status === 'waiting' ? placeInLine(entry.id, waitingIds) : null,
          status: entry.status === 'offered' ? 'offered' : 'waiting',
          // A left join's missing row reads as an object of nulls.
          offer: offer?.id
            ? { id: offer.id, quantity: offer.quantity, expiresAt: offer.expiresAt, checkoutPath: offerCheckoutPath(confirmPath, offer) }
            : null,
        };
      }),
  );
}

/** The buyer's entries still waiting or offered, in the order they joined. */
export async function myWaitlist(scope: UserScope): Promise<WaitlistEntryView[]> {
  return readOne(scope.db, entriesRead(scope));
}

// ---------------------------------------------------------------------------------------------
// Joining and leaving

export interface JoinInput {
  tierId: number;
  quantity: number;
}

/**
 * Joins a sold-out tier's waitlist for a group, or changes the group of the buyer's waiting entry
 * (which keeps its place). One entry per buyer and tier: the insert is guarded in the same batch.
 */
export async function joinWaitlist(scope: UserScope, input: JoinInput): Promise<WaitlistEntryView> {
  const { db, userId, now } = scope;
  const { tierRows, stock } = await batch(db, {
    tierRows: showQuery(db, {
      sessionHighDemand: prefixed('session', activitySessions, ['highDemand']).highDemand,
      tierHighDemand: prefixed('tier', ticketTiers, ['highDemand']).highDemand,
    }).where(eq(ticketTiers.id, input.tierId)),
    stock: db
      .select({ status: listings.status, quantityAvailable: listings.quantityAvailable, sellerId: listings.sellerId })
      .from(listings)
      .where(eq(listings.tierId, input.tierId)),
  });
  const [show] = tierRows;
  if (!show) throw new DomainError('ticket_category_not_found');
  const { activity } = show;
  if (!groupSizeAllowed(input.quantity, activity)) throw new DomainError('quantity_out_of_range', groupSizeBounds(activity), 'quantity');
  // Another seller's tickets only: a buyer's own listing is not something they could buy.
  const refusal = joinRefusal(
    {
      selling: showSells(show, now),
      inWaitingRoom: show.sessionHighDemand || show.tierHighDemand,
      listings: stock.filter((listing) => listing.sellerId !== userId),
    },
    input.quantity,
  );
  if (refusal) throw new DomainError(refusal);

  const d1 = db.$client;
  const { mine } = await rawBatch(d1, {
    regroup: d1
      .prepare(`UPDATE waitlist_entries SET quantity = ?3, updated_at = ?4 WHERE user_id = ?1 AND tier_id = ?2 AND status = 'waiting'`)
      .bind(userId, input.tierId, input.quantity, now),
    join: d1
      .prepare(`
      INSERT INTO waitlist_entries (tier_id, user_id, quantity, status, created_at, updated_at)
      SELECT ?2, ?1, ?3, 'waiting', ?4, ?4
      WHERE NOT EXISTS (SELECT 1 FROM waitlist_entries WHERE user_id = ?1 AND tier_id = ?2 AND status IN ('waiting', 'offered'))`)
      .bind(userId, input.tierId, input.quantity, now),
    mine: d1
      .prepare(`SELECT status FROM waitlist_entries WHERE user_id = ?1 AND tier_id = ?2 AND status IN ('waiting', 'offered')`)
      .bind(userId, input.tierId),
  });
  const offered = mine.results.some((entry) => entry.status === 'offered');
  if (offered) throw new DomainError('waitlist_offer_open');
  // Stock that came back between the check and the insert goes to the line, which may now be this entry.
  await offerReturnedTickets(db, now);
  const [entry] = await readOne(db, entriesRead(scope, input.tierId));
  return entry;
}

/**
 * Leaves the waitlist: a waiting entry is left; an open offer is withdrawn, which gives its tickets
 * back (trigger) for the next in line. Someone else's entry, or one already over, is not found.
 */
export async function leaveWaitlist(scope: UserScope, entryId: number): Promise<void> {
  const { db, userId, now } = scope;
  const { left, withdrawn } = await batch(db, {
    left: db
      .update(waitlistEntries)
      .set({ status: 'left', updatedAt: now })
      .where(and(eq(waitlistEntries.id, entryId), eq(waitlistEntries.userId, userId), eq(waitlistEntries.status, 'waiting')))
      .returning({ id: waitlistEntries.id }),
    withdrawn: db
      .update(waitlistOffers)
      .set({ status: 'withdrawn' })
      .where(and(eq(waitlistOffers.entryId, entryId), eq(waitlistOffers.userId, userId), eq(waitlistOffers.status, 'open')))
      .returning({ id: waitlistOffers.id }),
  });
  // The withdrawn offer's tickets pass on with the pass that follows every write (services/platform/after-write.ts).
  if (left.length === 0 && withdrawn.length === 0) throw new DomainError('waitlist_entry_not_found');
}
