/**
 * The ticket picker's rules (SPEC.md sections 3 and 5): which quantities a buyer may choose for a
 * listing, the order of the seller listings and the delivery types a listing offers.
 * Pure, so the server (API and page) and the picker island share them.
 */
import { DELIVERY_TYPES, type DeliveryType } from './delivery.ts';

/** The only way our marketplace sells: buy now from a listing (the spec's buyType=1, "DIRECT_BUY"). */
export const BUY_TYPE_DIRECT = 1;
export const DIRECT_BUY = 'DIRECT_BUY';

export type Seating = 'together' | 'not_adjacent';

export interface OrderLimits {
  /** Per-order minimum and maximum of the activity ("Limit {n} Ticket(s) per Order"). */
  numMin: number;
  numMax: number;
}

/** Quantities a buyer may pick, inclusive; empty when `max < min`. */
export interface QuantityRange {
  min: number;
  max: number;
}

/** The quantities allowed for a listing: the per-order limits, capped by the tickets left. */
export function quantityRange(limits: OrderLimits, available: number): QuantityRange {
  const min = Math.max(1, limits.numMin);
  return { min, max: Math.min(limits.numMax, Math.max(0, available)) };
}

/** Whether a range holds any quantity at all (a listing with fewer tickets than the minimum does not). */
export function rangeAllows(range: QuantityRange): boolean {
  return range.max >= range.min;
}

/** Every quantity of a range, smallest first. */
export function quantitiesOf(range: QuantityRange): number[] {
  return rangeAllows(range) ? Array.from({ length: range.max - range.min + 1 }, (_, i) => range.min + i) : [];
}

/** Keeps a requested quantity inside a range (a listing change can shrink it); the minimum when not a number. */
export function clampQuantity(requested: number, range: QuantityRange): number {
  if (!Number.isFinite(requested)) return range.min;
  return Math.min(Math.max(Math.trunc(requested), range.min), Math.max(range.max, range.min));
}

/** Cheapest first; equal prices by the oldest listing, so the order is stable. */
export function compareListings(a: { price: number; id: number }, b: { price: number; id: number }): number {
  return a.price - b.price || a.id - b.id;
}

/** The delivery types of a stored comma-separated list, known ones only, in their canonical order. */
export function parseDeliveryTypes(stored: string): DeliveryType[] {
  const listed = new Set(stored.split(',').map((type) => type.trim()));
  return DELIVERY_TYPES.filter((type) => listed.has(type));
}
