/** Rules for how an activity is shown on a card (SPEC.md sections 4 and 9). */

export const ACTIVITY_STATUS = { onSale: 1, booking: 4, notYetOnSale: 6 } as const;

export type CardTag = 'soldOut' | 'booking' | 'onSale' | 'notYetOnSale' | null;

/** The card tag: sold out wins; then status 4 booking, 1 on sale, 6 not yet on sale; else none. */
export function cardTag(status: number, soldOut: boolean): CardTag {
  if (soldOut) return 'soldOut';
  if (status === ACTIVITY_STATUS.booking) return 'booking';
  if (status === ACTIVITY_STATUS.onSale) return 'onSale';
  if (status === ACTIVITY_STATUS.notYetOnSale) return 'notYetOnSale';
  return null;
}

/**
 * The discount rate as a fold (price / face value × 10, one decimal, floored so that a price
 * just above a step never advertises more discount than it gives), or null when not a discount.
 */
export function discountFold(price: number, faceValue: number): number | null {
  if (faceValue <= 0 || price >= faceValue) return null;
  return Math.floor((price * 100) / faceValue) / 10;
}

/** The percent-off label of a fold: floor((10 - discountRate) * 10), computed without float drift. */
export function discountPercent(fold: number): number {
  // toFixed removes binary drift such as (10 - 8.5) * 10 = 14.999999999999998.
  return Math.floor(Number(((10 - fold) * 10).toFixed(6)));
}
