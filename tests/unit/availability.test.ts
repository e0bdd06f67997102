import { describe, expect, it } from 'vitest';
import { availability, listingOnSale, sessionOpen, ticketsAvailable, type SaleFacts } from '../../src/lib/domain/availability.ts';

const NOW = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;
const onSale: SaleFacts = { status: 1, saleStartsAt: NOW - DAY, lastSessionStartsAt: NOW + 10 * DAY, available: 12 };

describe('availability', () => {
  it('is on sale with tickets left and the sale started', () => {
    expect(availability(onSale, NOW)).toEqual({ state: 'onSale', bookable: true, notifyMe: false });
  });

  it('labels status 4 as priority booking, still bookable', () => {
    expect(availability({ ...onSale, status: 4 }, NOW)).toEqual({ state: 'priorityBooking', bookable: true, notifyMe: false });
  });

  it('is sold out with notify-me when no listing has tickets', () => {
    expect(availability({ ...onSale, available: 0 }, NOW)).toEqual({ state: 'soldOut', bookable: false, notifyMe: true });
    expect(availability({ ...onSale, status: 4, available: 0 }, NOW).state).toBe('soldOut');
  });

  it('is not on sale, with notify-me, before the sale starts or while status is 6', () => {
    expect(availability({ ...onSale, status: 6 }, NOW)).toEqual({ state: 'notOnSale', bookable: false, notifyMe: true });
    expect(availability({ ...onSale, saleStartsAt: NOW + 1 }, NOW)).toEqual({ state: 'notOnSale', bookable: false, notifyMe: true });
    // Not yet on sale wins over an empty stock: nobody could have bought yet.
    expect(availability({ ...onSale, status: 6, available: 0 }, NOW).state).toBe('notOnSale');
  });

  it('is not on sale, without notify-me, once the last session has begun or the status ends the sale', () => {
    const ended = { state: 'notOnSale', bookable: false, notifyMe: false };
    expect(availability({ ...onSale, lastSessionStartsAt: NOW }, NOW)).toEqual(ended);
    expect(availability({ ...onSale, lastSessionStartsAt: NOW - DAY, available: 0 }, NOW)).toEqual(ended);
    expect(availability({ ...onSale, status: 7 }, NOW)).toEqual(ended);
    expect(availability({ ...onSale, status: 0 }, NOW)).toEqual(ended);
  });
});

describe('stock from listings', () => {
  it('counts only active listings with tickets left', () => {
    const rows = [
      { status: 'active', quantityAvailable: 3 },
      { status: 'active', quantityAvailable: 0 },
      { status: 'withdrawn', quantityAvailable: 5 },
      { status: 'sold_out', quantityAvailable: 0 },
      { status: 'active', quantityAvailable: 2 },
    ] as const;
    expect(ticketsAvailable(rows)).toBe(5);
    expect(rows.map(listingOnSale)).toEqual([true, false, false, false, true]);
    expect(ticketsAvailable([])).toBe(0);
  });

  it('keeps a session open until it starts', () => {
    expect(sessionOpen(NOW + 1, NOW)).toBe(true);
    expect(sessionOpen(NOW, NOW)).toBe(false);
  });
});
