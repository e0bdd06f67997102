import { describe, expect, it } from 'vitest';
import { allInAmount, costBreakdown, fromPrice, postageOf, serviceFeeOf } from '../../src/lib/domain/pricing.ts';
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

  it('prices tickets all-in: the tickets plus their service fee (HK$4,640 is HK$5,011.20)', () => {
    expect(allInAmount(4640_00, 1)).toBe(5011_20);
    expect(allInAmount(388_00, 3)).toBe(1164_00 + 93_12);
    // The fee is per ticket, so the all-in total is always the quantity times the all-in price of one:
    // 0.07 → fee 0.01 → 0.08 each, 0.24 for three (a fee of the whole 0.21 would have been 0.02).
    expect(allInAmount(7, 3)).toBe(3 * 8);
    expect(allInAmount(4640_00, 0)).toBe(0);
  });

  it('is the quantity times the all-in price of one ticket, to the minor unit', () => {
    for (const unitPrice of [1, 7, 19, 423_91, 5800, 17_399, 4640_00]) {
      for (const quantity of [1, 2, 3, 4, 7]) {
        expect(allInAmount(unitPrice, quantity)).toBe(quantity * allInAmount(unitPrice, 1));
        const cost = costBreakdown({ unitPrice, quantity, currency: 'HKD', deliveryType: 'e_ticket', couponDiscount: 0, table });
        expect(cost.ticketAmount + cost.serviceFee).toBe(quantity * allInAmount(unitPrice, 1));
      }
    }
  });

  it('is what checkout charges for one ticket delivered without postage, in any currency', () => {
    for (const [unitPrice, currency] of [
      [4640_00, 'HKD'],
      [423_91, 'HKD'],
      [1, 'HKD'],
      [17_399, 'TWD'],
      [5800, 'TWD'],
    ] as const) {
      for (const deliveryType of ['e_ticket', 'on_site', 'self_pickup'] as const) {
        const cost = costBreakdown({ unitPrice, quantity: 1, currency, deliveryType, couponDiscount: 0, table });
        expect(cost.total).toBe(allInAmount(unitPrice, 1));
        expect(cost.ticketAmount + cost.serviceFee).toBe(allInAmount(unitPrice, 1));
      }
    }
  });

  it('rounds a "from" price up to whole units, never below what the buyer pays', () => {
    expect(fromPrice(423_91, 2)).toBe(424_00);
    expect(fromPrice(5011_20, 2)).toBe(5012_00);
    expect(fromPrice(5011_00, 2)).toBe(5011_00);
    expect(fromPrice(1, 2)).toBe(1_00);
    expect(fromPrice(0, 2)).toBe(0);
    // No minor digits (TWD, IDR): already whole.
    expect(fromPrice(17_399, 0)).toBe(17_399);
    for (let amount = 0; amount < 1_000; amount += 7) {
      const shown = fromPrice(amount, 2);
      expect(shown).toBeGreaterThanOrEqual(amount);
      expect(shown - amount).toBeLessThan(1_00);
      expect(shown % 1_00).toBe(0);
    }
  });
});
