import { describe, expect, it } from 'vitest';
import { SERVICE_FEE_BASIS_POINTS, TRANSFER_PLATFORM_FEE_BASIS_POINTS, TRANSFER_PRICE_BAND } from '../../src/lib/config/orders.ts';
import {
  listableTickets,
  listingState,
  platformFeeOf,
  priceBand,
  priceBandIn,
  priceInBand,
  quantityRefusal,
  sourceRefusal,
  transferSplit,
  type TransferSource,
} from '../../src/lib/domain/transfer.ts';
import { convert, type CurrencyTable } from '../../src/lib/domain/money.ts';

const NOW = Date.UTC(2026, 10, 1);
const source = (overrides: Partial<TransferSource> = {}): TransferSource => ({
  status: 'pending_receipt',
  sessionStartsAt: NOW + 86_400_000,
  validTickets: 2,
  listedTickets: 0,
  ...overrides,
});

describe('who may list', () => {
  it('allows the holder of a ticketed or completed order before the event', () => {
    expect(sourceRefusal(source(), NOW)).toBeNull();
    expect(sourceRefusal(source({ status: 'completed' }), NOW)).toBeNull();
  });

  it('refuses orders whose tickets are not held', () => {
    for (const status of ['pending_payment', 'pending_ticketing', 'cancelled', 'refunded'] as const) {
      expect(sourceRefusal(source({ status }), NOW)).toBe('transfer_order_not_eligible');
    }
  });

  it('refuses once the event has started', () => {
    expect(sourceRefusal(source({ sessionStartsAt: NOW }), NOW)).toBe('transfer_event_started');
    expect(sourceRefusal(source({ sessionStartsAt: NOW - 1 }), NOW)).toBe('transfer_event_started');
  });

  it('refuses when every valid ticket is already listed or none is valid', () => {
    expect(sourceRefusal(source({ listedTickets: 2 }), NOW)).toBe('transfer_no_tickets');
    expect(sourceRefusal(source({ validTickets: 0 }), NOW)).toBe('transfer_no_tickets');
  });
});

describe('how many', () => {
  it('counts valid tickets not already listed', () => {
    expect(listableTickets({ validTickets: 3, listedTickets: 1 })).toBe(2);
    expect(listableTickets({ validTickets: 1, listedTickets: 2 })).toBe(0);
  });

  it('never lists more than held and unlisted', () => {
    expect(quantityRefusal(source({ validTickets: 3, listedTickets: 1 }), 2)).toBeNull();
    expect(quantityRefusal(source({ validTickets: 3, listedTickets: 1 }), 3)).toBe('transfer_quantity_exceeds_held');
  });
});

describe('price band', () => {
  it('follows the configured percentages of face value', () => {
    expect(priceBand(10_000)).toEqual({
      min: (10_000 * TRANSFER_PRICE_BAND.minPercent) / 100,
      max: (10_000 * TRANSFER_PRICE_BAND.maxPercent) / 100,
    });
  });

  it('accepts the edges and refuses beyond them', () => {
    const { min, max } = priceBand(10_000);
    expect(priceInBand(min, 10_000)).toBe(true);
    expect(priceInBand(max, 10_000)).toBe(true);
    expect(priceInBand(min - 1, 10_000)).toBe(false);
    expect(priceInBand(max + 1, 10_000)).toBe(false);
  });

  it('refuses zero, negative and fractional prices', () => {
    expect(priceInBand(0, 10_000)).toBe(false);
    expect(priceInBand(-5_000, 10_000)).toBe(false);
    expect(priceInBand(10_000.5, 10_000)).toBe(false);
  });

  it('rounds the band inwards for odd face values', () => {
    const { min, max } = priceBand(333);
    expect(min * 100).toBeGreaterThanOrEqual(333 * TRANSFER_PRICE_BAND.minPercent);
    expect(max * 100).toBeLessThanOrEqual(333 * TRANSFER_PRICE_BAND.maxPercent);
  });
});

describe('money split', () => {
  it('adds the service fee for the buyer and takes the platform fee from the seller', () => {
    const split = transferSplit(12_000, 2);
    expect(split.ticketAmount).toBe(24_000);
    expect(split.serviceFee).toBe((24_000 * SERVICE_FEE_BASIS_POINTS) / 10_000);
    expect(split.buyerPays).toBe(24_000 + split.serviceFee);
    expect(split.platformFee).toBe((24_000 * TRANSFER_PLATFORM_FEE_BASIS_POINTS) / 10_000);
    expect(split.sellerReceives).toBe(24_000 - split.platformFee);
  });

  it('rounds the platform fee half up to the minor unit', () => {
    const exact = (amount: number) => (amount * TRANSFER_PLATFORM_FEE_BASIS_POINTS) / 10_000;
    for (const amount of [1, 5, 15, 999, 12_345]) {
      expect(platformFeeOf(amount)).toBe(Math.floor(exact(amount) + 0.5));
    }
  });
});

describe('the price band in another currency', () => {
  const table: CurrencyTable = new Map([
    ['HKD', { code: 'HKD', minorDigits: 2, perHkdMicros: 1_000_000 }],
    ['TWD', { code: 'TWD', minorDigits: 0, perHkdMicros: 4_100_000 }],
    ['USD', { code: 'USD', minorDigits: 2, perHkdMicros: 128_500 }],
  ]);
  const face = { amount: 38_800, currency: 'HKD' };

  it('is the band itself in the face value currency', () => {
    expect(priceBandIn(face, 'HKD', table)).toEqual(priceBand(face.amount));
  });

  it('has ends that, converted back, lie within the band, and one unit further does not', () => {
    const band = priceBand(face.amount);
    for (const currency of ['TWD', 'USD']) {
      const { min, max } = priceBandIn(face, currency, table);
      const back = (amount: number) => convert({ amount, currency }, 'HKD', table).amount;
      expect(priceInBand(back(min), face.amount), `${currency} min`).toBe(true);
      expect(priceInBand(back(max), face.amount), `${currency} max`).toBe(true);
      expect(back(min - 1), `${currency} below min`).toBeLessThan(band.min);
      expect(back(max + 1), `${currency} above max`).toBeGreaterThan(band.max);
    }
  });
});

describe('how a listing reads to its seller', () => {
  const listing = (status: 'active' | 'withdrawn' | 'sold_out' = 'active') => ({ status, quantityTotal: 2 });
  const later = NOW + 3_600_000;

  it('is on sale while active, with tickets unsold, before the event', () => {
    expect(listingState(listing(), 0, later, NOW)).toBe('active');
    expect(listingState(listing(), 1, later, NOW)).toBe('active');
  });

  it('is sold once every ticket is bought, even after the event starts', () => {
    expect(listingState(listing(), 2, later, NOW)).toBe('sold_out');
    expect(listingState(listing(), 2, NOW, NOW)).toBe('sold_out');
  });

  it('is closed when the event starts with tickets unsold, and keeps a withdrawal as it was', () => {
    expect(listingState(listing(), 1, NOW, NOW)).toBe('closed');
    expect(listingState(listing('withdrawn'), 0, NOW, NOW)).toBe('withdrawn');
  });
});
