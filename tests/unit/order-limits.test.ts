import { describe, expect, it } from 'vitest';
import {
  accountTicketCap,
  addStandings,
  listingUnpaidLimit,
  NO_STANDING,
  orderLimitRefusal,
  type OrderLimits,
} from '../../src/lib/domain/order-limits.ts';

const limits: OrderLimits = { accountTicketCap: 8, unpaidTicketLimit: 8, listingUnpaidLimit: 6 };

describe('an account’s ticket cap', () => {
  it('is the session’s own when it has one, else the default', () => {
    expect(accountTicketCap(4, 8)).toBe(4);
    expect(accountTicketCap(null, 8)).toBe(8);
  });

  it('counts paid and unpaid tickets of the session with the order', () => {
    expect(orderLimitRefusal({ ...NO_STANDING, sessionTickets: 6 }, 2, limits)).toBeNull();
    expect(orderLimitRefusal({ ...NO_STANDING, sessionTickets: 6 }, 3, limits)).toEqual({ code: 'account_ticket_cap', params: { cap: 8 } });
  });
});

describe('the unpaid hold limits', () => {
  it('hold an account to its unpaid tickets across every listing', () => {
    expect(orderLimitRefusal({ ...NO_STANDING, unpaidTickets: 7 }, 1, { ...limits, accountTicketCap: 20 })).toBeNull();
    expect(orderLimitRefusal({ ...NO_STANDING, unpaidTickets: 7 }, 2, { ...limits, accountTicketCap: 20 })).toEqual({
      code: 'unpaid_ticket_limit',
      params: { limit: 8 },
    });
  });

  it('hold an account to its share of one listing, named before the limit across listings', () => {
    expect(orderLimitRefusal({ ...NO_STANDING, unpaidOnListing: 6, unpaidTickets: 8 }, 1, limits)).toEqual({
      code: 'listing_hold_limit',
      params: { limit: 6 },
    });
  });

  it('allow a share of a listing, rounded down, but never fewer than the least', () => {
    expect(listingUnpaidLimit(12, 0.5, 2)).toBe(6);
    expect(listingUnpaidLimit(13, 0.5, 2)).toBe(6);
    expect(listingUnpaidLimit(3, 0.5, 2)).toBe(2);
    expect(listingUnpaidLimit(1, 0.5, 2)).toBe(2);
  });
});

describe('a waiting-room pass', () => {
  it('buys one order: a spent pass is refused before any other limit', () => {
    const spent = { ...NO_STANDING, passUsed: true, sessionTickets: 8 };
    expect(orderLimitRefusal(spent, 1, limits)).toEqual({ code: 'waiting_room_pass_used', params: {} });
  });
});

describe('standings added together', () => {
  it('add D1’s to an inventory object’s unwritten holds', () => {
    const d1 = { sessionTickets: 2, unpaidTickets: 1, unpaidOnListing: 1, passUsed: false };
    const unwritten = { sessionTickets: 3, unpaidTickets: 3, unpaidOnListing: 0, passUsed: true };
    expect(addStandings(d1, unwritten)).toEqual({ sessionTickets: 5, unpaidTickets: 4, unpaidOnListing: 1, passUsed: true });
  });
});
