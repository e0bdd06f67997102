import { describe, expect, it } from 'vitest';
import {
  clampQuantity,
  compareListings,
  parseDeliveryTypes,
  quantitiesOf,
  quantityRange,
  rangeAllows,
} from '../../src/lib/domain/ticket-offer.ts';

describe('quantity range', () => {
  it('is the per-order limits capped by the tickets left', () => {
    expect(quantityRange({ numMin: 1, numMax: 6 }, 10)).toEqual({ min: 1, max: 6 });
    expect(quantityRange({ numMin: 1, numMax: 6 }, 3)).toEqual({ min: 1, max: 3 });
    expect(quantityRange({ numMin: 2, numMax: 4 }, 4)).toEqual({ min: 2, max: 4 });
  });

  it('never goes below one ticket, and is empty when fewer tickets are left than the minimum', () => {
    expect(quantityRange({ numMin: 0, numMax: 4 }, 4).min).toBe(1);
    const tooFew = quantityRange({ numMin: 2, numMax: 4 }, 1);
    expect(rangeAllows(tooFew)).toBe(false);
    expect(quantitiesOf(tooFew)).toEqual([]);
    expect(rangeAllows(quantityRange({ numMin: 1, numMax: 4 }, 0))).toBe(false);
    expect(quantityRange({ numMin: 1, numMax: 4 }, -3).max).toBe(0);
  });

  it('lists every allowed quantity', () => {
    expect(quantitiesOf({ min: 2, max: 5 })).toEqual([2, 3, 4, 5]);
    expect(quantitiesOf({ min: 1, max: 1 })).toEqual([1]);
  });

  it('clamps a requested quantity into the range', () => {
    const range = { min: 1, max: 4 };
    expect(clampQuantity(3, range)).toBe(3);
    expect(clampQuantity(9, range)).toBe(4);
    expect(clampQuantity(0, range)).toBe(1);
    expect(clampQuantity(2.7, range)).toBe(2);
    expect(clampQuantity(Number.NaN, range)).toBe(1);
  });
});

describe('listing order', () => {
  it('puts the cheapest first, then the oldest listing', () => {
    const listings = [
      { id: 3, price: 500 },
      { id: 1, price: 700 },
      { id: 2, price: 500 },
    ];
    expect([...listings].sort(compareListings).map((l) => l.id)).toEqual([2, 3, 1]);
  });
});

describe('delivery types', () => {
  it('keeps known types in their canonical order', () => {
    expect(parseDeliveryTypes('courier,e_ticket')).toEqual(['e_ticket', 'courier']);
    expect(parseDeliveryTypes('on_site, self_pickup,teleport')).toEqual(['on_site', 'self_pickup']);
    expect(parseDeliveryTypes('')).toEqual([]);
  });
});
