/**
 * Whether an activity, a session, a tier or a listing can be bought (SPEC.md sections 3 and 4).
 * Stock is never stored twice: it is always derived from the listings' `quantity_available`.
 */
import { ACTIVITY_STATUS } from './activity.ts';

/** The detail page's sale states; priority booking sells like "on sale" but is labelled apart. */
export type SaleState = 'onSale' | 'priorityBooking' | 'notOnSale' | 'soldOut';

export interface Availability {
  state: SaleState;
  /** Tickets can be picked and bought now. */
  bookable: boolean;
  /** "Notify Me When Available" is offered: the tickets may still come (sold out, or not yet on sale). */
  notifyMe: boolean;
}

export interface SaleFacts {
  status: number;
  saleStartsAt: number;
  /** Start of the last session; once it has begun nothing more is sold. */
  lastSessionStartsAt: number;
  /** Tickets available over every listing of the sessions still to come. */
  available: number;
}

/** A listing row's status: `closed` when its show's session was cancelled. */
export type ListingStatus = 'active' | 'withdrawn' | 'sold_out' | 'closed';

export interface StockRow {
  status: ListingStatus;
  quantityAvailable: number;
}

/** A listing sells when it is active and has tickets left. */
export function listingOnSale(listing: StockRow): boolean {
  return listing.status === 'active' && listing.quantityAvailable > 0;
}

/** Tickets left over a set of listings (of a tier, a session or an activity). */
export function ticketsAvailable(listings: readonly StockRow[]): number {
  return listings.reduce((sum, listing) => sum + (listingOnSale(listing) ? listing.quantityAvailable : 0), 0);
}

/** A session can be picked until it starts. */
export function sessionOpen(startsAt: number, now: number): boolean {
  return startsAt > now;
}

/**
 * The sale state of an activity: drafts, ended activities and those whose every session has begun
 * are not on sale (nothing to wait for); status 6 or a sale start still ahead is "not on sale" with
 * notify-me; no tickets left is "sold out" with notify-me; else on sale or priority booking (status 4).
 */
export function availability(facts: SaleFacts, now: number): Availability {
  const selling = facts.status === ACTIVITY_STATUS.onSale || facts.status === ACTIVITY_STATUS.booking;
  const upcoming = facts.status === ACTIVITY_STATUS.notYetOnSale;
  if ((!selling && !upcoming) || !sessionOpen(facts.lastSessionStartsAt, now)) {
    return { state: 'notOnSale', bookable: false, notifyMe: false };
  }
  if (upcoming || facts.saleStartsAt > now) return { state: 'notOnSale', bookable: false, notifyMe: true };
  if (facts.available <= 0) return { state: 'soldOut', bookable: false, notifyMe: true };
  return { state: facts.status === ACTIVITY_STATUS.booking ? 'priorityBooking' : 'onSale', bookable: true, notifyMe: false };
}
