import { describe, expect, it } from 'vitest';
import { costBreakdown, postageOf, serviceFeeOf } from '../../src/lib/domain/pricing.ts';
import type { CurrencyTable } from '../../src/lib/domain/money.ts';

const table: CurrencyTable = new Map([
  ['HKD', { code: 'HKD', minorDigits: 2, perHkdMicros: 1_000_000 }],
  ['TWD', { code: 'TWD', minorDigits: 0, perHkdMicros: 4_100_000 }],
]);

describe('pricing', () => {
  it('charges an 8% service fee, rounded half up to the minor unit', () => {
    expect(serviceFeeOf(100_00)).toBe(8_00);
    expect(serviceFeeOf(1)).toBe(0);
    expect(serviceFeeOf(7)).toBe(1);
  });

  it('charges postage with its fuel surcharge for courier delivery only, converted', () => {
    expect(postageOf('e_ticket', 'HKD', table)).toEqual({ postage: 0, fuelSurcharge: 0 });
    expect(postageOf('courier', 'HKD', table)).toEqual({ postage: 36_00, fuelSurcharge: 6_00 });
    expect(postageOf('courier', 'TWD', table)).toEqual({ postage: 148, fuelSurcharge: 25 });
  });

  it('adds the parts up and never lets a coupon take more than the tickets', () => {
    const cost = costBreakdown({ unitPrice: 500_00, quantity: 2, currency: 'HKD', deliveryType: 'courier', couponDiscount: 100_00, table });
    expect(cost).toEqual({
      currency: 'HKD',
      ticketAmount: 1000_00,
      serviceFee: 80_00,
      postage: 36_00,
      fuelSurcharge: 6_00,
      couponDiscount: 100_00,
      total: 1016_00,
    });
    const capped = costBreakdown({
      unitPrice: 50_00,
      quantity: 1,
      currency: 'HKD',
      deliveryType: 'e_ticket',
      couponDiscount: 999_00,
      table,
    });
    expect(capped.couponDiscount).toBe(50_00);
    expect(capped.total).toBe(4_00);
  });
});
