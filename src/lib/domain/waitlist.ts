/**
 * The waitlist of a sold-out ticket tier: a buyer waits for a group of tickets, which is
 * offered whole or not at all; `id` order is the queue order. Pure rules; the offer pass itself is
 * SQL in services/on-sale/waitlist.ts, since only one statement at a time can see the stock it changes.
 */
import { ACTIVITY_STATUS } from './activity.ts';
import type { StockRow } from './availability.ts';
import { confirmSearch } from './confirm-query.ts';

/** An activity's per-order limits, which are also the bounds of a waiting group. */
export interface OrderLimits {
  numMin: number;
  numMax: number;
}

/** The group sizes a buyer may wait for: what one order of the activity may buy. */
export function groupSizeBounds(limits: OrderLimits): { min: number; max: number } {
  return { min: Math.max(1, limits.numMin), max: Math.max(1, limits.numMin, limits.numMax) };
}

export function groupSizeAllowed(quantity: number, limits: OrderLimits): boolean {
  const { min, max } = groupSizeBounds(limits);
  return Number.isInteger(quantity) && quantity >= min && quantity <= max;
}

/** What decides whether a tier's show still sells: its activity's sale and its session. */
export interface ShowSaleFacts {
  activity: { status: number; saleStartsAt: number };
  session: { startsAt: number; status: string };
}

/** A show sells while its activity is on sale (or in priority booking) and its session is ahead and not cancelled. */
export function showSells({ activity, session }: ShowSaleFacts, now: number): boolean {
  const selling = activity.status === ACTIVITY_STATUS.onSale || activity.status === ACTIVITY_STATUS.booking;
  return selling && activity.saleStartsAt <= now && session.startsAt > now && session.status !== 'cancelled';
}

/**
 * Why a buyer may not join a tier's waitlist now, or null when they may: a show no longer selling
 * has nothing to wait for; a high-demand on-sale's returned tickets go to its waiting room's line,
 * which is where one waits for them (docs/hot-on-sale.md "Returned tickets"); and a tier where one
 * listing can take the whole group is bought, not waited for.
 */
export function joinRefusal(
  facts: { selling: boolean; inWaitingRoom: boolean; listings: readonly StockRow[] },
  quantity: number,
): 'waitlist_closed' | 'waitlist_waiting_room' | 'waitlist_tickets_available' | null {
  if (!facts.selling) return 'waitlist_closed';
  if (facts.inWaitingRoom) return 'waitlist_waiting_room';
  const fits = facts.listings.some((listing) => listing.status === 'active' && listing.quantityAvailable >= quantity);
  return fits ? 'waitlist_tickets_available' : null;
}

/** A buyer's place in line: 1 + the entries still waiting ahead of theirs in the same tier. */
export function placeInLine(entryId: number, waitingIds: readonly number[]): number {
  return 1 + waitingIds.filter((id) => id < entryId).length;
}

export interface OfferLink {
  id: number;
  listingId: number;
  quantity: number;
}

/** The checkout that buys an offer's held tickets: the confirmation page with the offer in its query. */
export function offerCheckoutPath(confirmPath: string, offer: OfferLink): string {
  const query = {
    listingId: offer.listingId,
    quantity: offer.quantity,
    deliveryType: null,
    paymentMethod: null,
    coupon: 'best' as const,
    addressId: null,
    attendeeIds: [],
    offer: offer.id,
  };
  return `${confirmPath}?${confirmSearch(query)}`;
}

/** An offer can be claimed by its buyer while it is open and its hold has not run out. */
export function offerClaimable(offer: { status: string; expiresAt: number }, now: number): boolean {
  return offer.status === 'open' && offer.expiresAt > now;
}
