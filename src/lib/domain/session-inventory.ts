/**
 * The rules of a high-demand session's inventory object (docs/hot-on-sale.md): what it may
 * still hand out, what became of a hold D1 was asked to write, and when it wakes next. Its stock is
 * never a second count kept beside D1's: it is D1's `quantity_available` as last read back, less the
 * holds it accepted and has not yet written. So a restart, a flush it did not see finish, or a
 * release written straight to D1 (expiry, a cancel) is absorbed by reading D1 again.
 */
import type { OrderLimitCode } from './order-limits.ts';

/** A listing as the object last read it from D1. */
export interface ListingStock {
  status: string;
  /** D1's `quantity_available`, which already counts every hold written to D1. */
  stock: number;
}

/** Tickets the object may still hand out: D1's stock less the holds accepted and not yet written. */
export function ticketsLeft(listing: ListingStock, unwrittenQuantity: number): number {
  return listing.status === 'active' ? Math.max(0, listing.stock - unwrittenQuantity) : 0;
}

export type HoldDecision = { accepted: true } | { accepted: false; available: number };

/** A hold is accepted whole when the tickets left cover it, else refused with what is left. */
export function decideHold(listing: ListingStock, unwrittenQuantity: number, quantity: number): HoldDecision {
  const available = ticketsLeft(listing, unwrittenQuantity);
  return quantity <= available ? { accepted: true } : { accepted: false, available };
}

/** What a hold became once its batch reached D1. */
export type WrittenHold = 'placed' | 'sold_out' | 'coupon_used' | OrderLimitCode;

/**
 * A hold whose order D1 has is placed (also one an earlier, unacknowledged flush already wrote). D1
 * refuses the rest with the same guard as any checkout: sold out when its stock no longer covers
 * the hold (tickets left the listing by a path that does not go through the object), a limit of the
 * account when its orders after the batch leave no room for it (`limitRefused`: an order written
 * since checkout read the account, domain/order-limits.ts), else the buyer's coupon was used by
 * another order meanwhile.
 */
export function writtenHold(
  orderInD1: boolean,
  listingAfter: ListingStock | undefined,
  quantity: number,
  limitRefused: OrderLimitCode | null,
): WrittenHold {
  if (orderInD1) return 'placed';
  if (!listingAfter || ticketsLeft(listingAfter, 0) < quantity) return 'sold_out';
  return limitRefused ?? 'coupon_used';
}

/** What became of each hold written alone after its batch failed: written, or refused by D1. */
export interface AloneOutcome<K> {
  key: K;
  written: boolean;
}

/**
 * The holds to set aside (a dead letter) after a batch failed and each was written alone: those D1
 * refused alone while it still took a write afterwards, since a hold it refuses on every try would
 * otherwise stop every hold behind it. Null when D1 took no write (down, not one hold's fault): the
 * batch is tried again later, whole.
 */
export function poisonHolds<K>(outcomes: readonly AloneOutcome<K>[], d1TakesWrites: boolean): K[] | null {
  if (!d1TakesWrites) return null;
  return outcomes.filter((outcome) => !outcome.written).map((outcome) => outcome.key);
}

export interface WakeFacts {
  /** Holds accepted and not yet written. */
  unwrittenHolds: number;
  /** The earliest payment deadline after `now` among the orders the object placed. */
  nextDeadline: number | null;
  now: number;
}

/**
 * When the object's alarm should fire: soon while holds wait to be written (after a failed flush, or
 * a restart that cut one short), else just after the next payment deadline of its orders, rounded
 * up to `step`, so an unpaid order's tickets come back even when no buyer asks; null when nothing is due.
 */
export function nextWakeAt(facts: WakeFacts, retryMs: number, step: number): number | null {
  if (facts.unwrittenHolds > 0) return facts.now + retryMs;
  if (facts.nextDeadline === null) return null;
  return Math.ceil(facts.nextDeadline / step) * step;
}
