import { describe, expect, it } from 'vitest';
import { bestOffer, couponDiscount, judgeCoupon, percentOff, type CouponTerms } from '../../src/lib/domain/coupons.ts';
import type { CurrencyTable } from '../../src/lib/domain/money.ts';

const table: CurrencyTable = new Map([
  ['HKD', { code: 'HKD', minorDigits: 2, perHkdMicros: 1_000_000 }],
  ['USD', { code: 'USD', minorDigits: 2, perHkdMicros: 128_000 }],
]);
const now = Date.UTC(2026, 10, 21);
const day = 86_400_000;
const amountOff: CouponTerms = {
  kind: 'amount',
  foldTenths: null,
  amount: 100_00,
  currency: 'HKD',
  minSpend: 500_00,
  newUserOnly: true,
  validFrom: now - day,
  validTo: now + day,
  categoryId: null,
};
const fold85: CouponTerms = { ...amountOff, kind: 'rate', foldTenths: 85, amount: null, currency: null, minSpend: 0, newUserOnly: false };
const order = { ticketAmount: 800_00, currency: 'HKD', categoryId: 1, hasPaidOrder: false, now };

describe('coupon rules', () => {
  it('reads a fold as percent off', () => {
    expect(percentOff(85)).toBe(15);
    expect(couponDiscount(fold85, 800_00, 'HKD', table)).toBe(120_00);
  });

  it('converts an amount coupon into the order currency and caps it at the tickets', () => {
    expect(couponDiscount(amountOff, 800_00, 'USD', table)).toBe(12_80);
    expect(couponDiscount(amountOff, 50_00, 'HKD', table)).toBe(50_00);
  });

  it('gives the reason a coupon cannot be used', () => {
    expect(judgeCoupon(amountOff, order, table)).toEqual({ usable: true, discount: 100_00 });
    expect(judgeCoupon({ ...amountOff, validFrom: now + 1 }, order, table)).toEqual({ usable: false, reason: 'not_started' });
    expect(judgeCoupon({ ...amountOff, validTo: now - 1 }, order, table)).toEqual({ usable: false, reason: 'expired' });
    expect(judgeCoupon(amountOff, { ...order, hasPaidOrder: true }, table)).toEqual({ usable: false, reason: 'new_user_only' });
    expect(judgeCoupon(amountOff, { ...order, ticketAmount: 499_99 }, table)).toEqual({ usable: false, reason: 'min_spend' });
    expect(judgeCoupon({ ...fold85, categoryId: 2 }, order, table)).toEqual({ usable: false, reason: 'wrong_category' });
  });

  it('checks the minimum spend in the coupon currency', () => {
    const inUsd = { ...order, currency: 'USD', ticketAmount: 64_00 };
    expect(judgeCoupon(amountOff, inUsd, table)).toEqual({ usable: true, discount: 12_80 });
    expect(judgeCoupon(amountOff, { ...inUsd, ticketAmount: 63_00 }, table)).toEqual({ usable: false, reason: 'min_spend' });
  });

  it('picks the largest discount as the best offer, the sooner-expiring one on a tie, none when nothing applies', () => {
    const judged = [
      { id: 1, validTo: now + 5 * day, verdict: { usable: true as const, discount: 100_00 } },
      { id: 2, validTo: now + 9 * day, verdict: { usable: true as const, discount: 120_00 } },
      { id: 3, validTo: now + 2 * day, verdict: { usable: true as const, discount: 120_00 } },
      { id: 4, validTo: now + day, verdict: { usable: false as const, reason: 'expired' as const } },
    ];
    expect(bestOffer(judged)?.id).toBe(3);
    expect(bestOffer(judged.slice(3))).toBeNull();
  });
});
