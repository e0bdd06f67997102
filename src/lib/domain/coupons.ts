/**
 * Coupon rules (SPEC.md sections 3 and 6): whether a coupon can pay part of an order and, if not,
 * why; how much it takes off; and which one is the best offer. A coupon discounts the tickets only.
 */
import { convert, type CurrencyTable } from './money.ts';

export interface CouponTerms {
  kind: 'rate' | 'amount';
  /** A fold times ten: 85 is 8.5 fold, 15% off. */
  foldTenths: number | null;
  amount: number | null;
  /** Currency of `amount` and `minSpend`; null for a rate coupon without a minimum. */
  currency: string | null;
  minSpend: number;
  newUserOnly: boolean;
  validFrom: number;
  validTo: number;
  categoryId: number | null;
}

export interface OrderForCoupon {
  ticketAmount: number;
  currency: string;
  categoryId: number;
  /** Whether the buyer has paid for any order before (new-user-only coupons need not). */
  hasPaidOrder: boolean;
  now: number;
}

export type CouponRefusal = 'not_started' | 'expired' | 'new_user_only' | 'min_spend' | 'wrong_category';

export type CouponVerdict = { usable: true; discount: number } | { usable: false; reason: CouponRefusal };

/** The percent off of a fold: 85 → 15. */
export function percentOff(foldTenths: number): number {
  return 100 - foldTenths;
}

/** The discount a coupon gives on a ticket amount, in the order's currency, never above the amount. */
export function couponDiscount(terms: CouponTerms, ticketAmount: number, currency: string, table: CurrencyTable): number {
  const raw =
    terms.kind === 'rate'
      ? Math.floor((ticketAmount * percentOff(terms.foldTenths ?? 100)) / 100)
      : convert({ amount: terms.amount ?? 0, currency: terms.currency ?? currency }, currency, table).amount;
  return Math.min(Math.max(0, raw), ticketAmount);
}

/** Whether a coupon applies to an order, checked in the order a buyer would want to hear the reasons. */
export function judgeCoupon(terms: CouponTerms, order: OrderForCoupon, table: CurrencyTable): CouponVerdict {
  if (order.now < terms.validFrom) return { usable: false, reason: 'not_started' };
  if (order.now > terms.validTo) return { usable: false, reason: 'expired' };
  if (terms.newUserOnly && order.hasPaidOrder) return { usable: false, reason: 'new_user_only' };
  if (terms.categoryId !== null && terms.categoryId !== order.categoryId) return { usable: false, reason: 'wrong_category' };
  if (terms.minSpend > 0) {
    const spend = convert({ amount: order.ticketAmount, currency: order.currency }, terms.currency ?? order.currency, table).amount;
    if (spend < terms.minSpend) return { usable: false, reason: 'min_spend' };
  }
  return { usable: true, discount: couponDiscount(terms, order.ticketAmount, order.currency, table) };
}

/**
 * The best offer among judged coupons: the largest discount; on a tie the one that expires first,
 * so a buyer keeps the longer-lived coupon. Null when none is usable.
 */
export function bestOffer<T extends { id: number; verdict: CouponVerdict; validTo: number }>(coupons: readonly T[]): T | null {
  let best: T | null = null;
  for (const coupon of coupons) {
    if (!coupon.verdict.usable || coupon.verdict.discount <= 0) continue;
    if (!best?.verdict.usable) {
      best = coupon;
      continue;
    }
    const gain = coupon.verdict.discount - best.verdict.discount;
    if (gain > 0 || (gain === 0 && (coupon.validTo < best.validTo || (coupon.validTo === best.validTo && coupon.id < best.id))))
      best = coupon;
  }
  return best;
}

/** Where a held coupon stands for its owner: the My Coupons page sorts coupons into tabs by it. */
export type CouponState = 'usable' | 'not_started' | 'locked' | 'used' | 'expired';
export const COUPON_TABS = ['usable', 'used', 'expired'] as const;
export type CouponTab = (typeof COUPON_TABS)[number];

/**
 * The state of one held coupon. Spent coupons stay "used" after their window closes; a coupon
 * locked to an unpaid order is not usable now (it comes back if the order closes unpaid).
 */
export function couponState(
  status: 'unused' | 'locked' | 'used',
  window: { validFrom: number; validTo: number },
  now: number,
): CouponState {
  if (status === 'used') return 'used';
  if (status === 'locked') return 'locked';
  if (now > window.validTo) return 'expired';
  return now < window.validFrom ? 'not_started' : 'usable';
}

/** The My Coupons tab of a state: coupons yet to start wait under "usable", locked ones under "used". */
export function couponTab(state: CouponState): CouponTab {
  if (state === 'usable' || state === 'not_started') return 'usable';
  return state === 'expired' ? 'expired' : 'used';
}

/** A tab named in a URL, or "usable" for anything else. */
export function parseCouponTab(value: string | null | undefined): CouponTab {
  return COUPON_TABS.find((tab) => tab === value) ?? 'usable';
}

/** The fold of a rate as people write it: 85 → "8.5", 90 → "9". */
export function foldText(foldTenths: number): string {
  return foldTenths % 10 === 0 ? String(foldTenths / 10) : (foldTenths / 10).toFixed(1);
}
