/**
 * When a plain session turns high demand by itself (docs/hot-on-sale.md). Checkout counts
 * the orders it writes for a session per minute of the clock (data/order-placement.ts); the
 * rate over the last sixty seconds is this minute's count plus the previous minute's, weighted by the
 * share of that minute still inside the window (two fixed counters standing for a sliding window), so
 * a burst split across the turn of a minute counts as one. Time is passed in.
 */

const MINUTE_MS = 60_000;

/** The minute of the clock an order placed at `at` is counted in. */
export function minuteOf(at: number): number {
  return Math.floor(at / MINUTE_MS);
}

/** A session's orders counted in the minute of an order, and in the minute before it. */
export interface MinuteCounts {
  current: number;
  previous: number;
}

/** The orders of the sixty seconds up to `at`, estimated from the two minutes' counts. */
export function ordersInLastMinute(counts: MinuteCounts, at: number): number {
  const elapsedShare = (at - minuteOf(at) * MINUTE_MS) / MINUTE_MS;
  return counts.current + counts.previous * (1 - elapsedShare);
}

/** Whether a session's orders up to `at` reached the rate at which it turns high demand. */
export function reachesHighDemand(counts: MinuteCounts, at: number, ordersPerMinute: number): boolean {
  return ordersInLastMinute(counts, at) >= ordersPerMinute;
}

/**
 * The threshold a deployment set (a positive whole number of orders a minute, as text from the
 * worker's env), or the default when it set none or something else.
 */
export function highDemandThreshold(configured: string | undefined, fallback: number): number {
  const value = Number(configured);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
