import { describe, expect, it } from 'vitest';
import { parseConfirmQuery } from '../../src/lib/domain/confirm-query.ts';
import {
  groupSizeAllowed,
  groupSizeBounds,
  joinRefusal,
  offerCheckoutPath,
  offerClaimable,
  placeInLine,
  showSells,
} from '../../src/lib/domain/waitlist.ts';

describe('group sizes', () => {
  it('are what one order of the activity may buy', () => {
    expect(groupSizeBounds({ numMin: 1, numMax: 4 })).toEqual({ min: 1, max: 4 });
    expect(groupSizeBounds({ numMin: 0, numMax: 6 })).toEqual({ min: 1, max: 6 });
    expect(groupSizeBounds({ numMin: 2, numMax: 1 })).toEqual({ min: 2, max: 2 });
  });

  it('refuses sizes outside the limits and fractions', () => {
    const limits = { numMin: 2, numMax: 4 };
    expect([1, 2, 4, 5, 2.5].map((quantity) => groupSizeAllowed(quantity, limits))).toEqual([false, true, true, false, false]);
  });
});

describe('joining', () => {
  const listing = (quantityAvailable: number, status: 'active' | 'withdrawn' = 'active') => ({ status, quantityAvailable });

  it('is for a tier where no listing takes the whole group', () => {
    expect(joinRefusal({ selling: true, inWaitingRoom: false, listings: [] }, 1)).toBeNull();
    expect(joinRefusal({ selling: true, inWaitingRoom: false, listings: [listing(1), listing(2)] }, 3)).toBeNull();
    expect(joinRefusal({ selling: true, inWaitingRoom: false, listings: [listing(5, 'withdrawn')] }, 2)).toBeNull();
  });

  it('sends a group that one listing can take to buy instead', () => {
    expect(joinRefusal({ selling: true, inWaitingRoom: false, listings: [listing(1), listing(3)] }, 3)).toBe('waitlist_tickets_available');
  });

  it('sends a high-demand on-sale’s buyer to its waiting room, whose line takes the tickets that come back', () => {
    expect(joinRefusal({ selling: true, inWaitingRoom: true, listings: [] }, 1)).toBe('waitlist_waiting_room');
    expect(joinRefusal({ selling: true, inWaitingRoom: true, listings: [listing(3)] }, 3)).toBe('waitlist_waiting_room');
    expect(joinRefusal({ selling: false, inWaitingRoom: true, listings: [] }, 1)).toBe('waitlist_closed');
  });

  it('is closed when the show no longer sells', () => {
    expect(joinRefusal({ selling: false, inWaitingRoom: false, listings: [] }, 1)).toBe('waitlist_closed');
  });
});

describe('whether a show sells', () => {
  const show = { activity: { status: 1, saleStartsAt: 100 }, session: { startsAt: 1000, status: 'scheduled' } };

  it('is while its activity is on sale or in priority booking and its session is ahead', () => {
    expect(showSells(show, 500)).toBe(true);
    expect(showSells({ ...show, activity: { status: 4, saleStartsAt: 100 } }, 500)).toBe(true);
  });

  it('is not before the sale, once the session began, when it was cancelled or the activity stopped selling', () => {
    expect(showSells(show, 50)).toBe(false);
    expect(showSells(show, 1000)).toBe(false);
    expect(showSells({ ...show, session: { startsAt: 1000, status: 'cancelled' } }, 500)).toBe(false);
    expect(showSells({ ...show, activity: { status: 6, saleStartsAt: 100 } }, 500)).toBe(false);
  });
});

describe('the place in line', () => {
  it('counts the groups still waiting ahead', () => {
    expect(placeInLine(7, [])).toBe(1);
    expect(placeInLine(7, [3, 7, 9])).toBe(2);
    expect(placeInLine(7, [1, 2, 5, 7])).toBe(4);
  });
});

describe('an offer', () => {
  it('links to checkout with its listing, group and id, which the page reads back', () => {
    const path = offerCheckoutPath('/zh-HK/order/confirm', { id: 12, listingId: 34, quantity: 3 });
    expect(path).toBe('/zh-HK/order/confirm?listingId=34&quantity=3&offer=12');
    expect(parseConfirmQuery(new URL(path, 'https://x.example').searchParams)).toMatchObject({ listingId: 34, quantity: 3, offer: 12 });
  });

  it('is claimable while open and within its hold', () => {
    expect(offerClaimable({ status: 'open', expiresAt: 1000 }, 999)).toBe(true);
    expect(offerClaimable({ status: 'open', expiresAt: 1000 }, 1000)).toBe(false);
    expect(offerClaimable({ status: 'claimed', expiresAt: 1000 }, 1)).toBe(false);
    expect(offerClaimable({ status: 'lapsed', expiresAt: 1000 }, 1)).toBe(false);
  });
});
