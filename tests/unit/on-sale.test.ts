import { describe, expect, it } from 'vitest';
import {
  inventoryObjectName,
  onSaleNeedingPass,
  onSaleOf,
  choicesQuery,
  onSaleOfPage,
  sameOnSale,
  waitingPageQuery,
  waitingRoomName,
} from '../../src/lib/domain/on-sale.ts';

const session = (highDemand: boolean) => ({ id: 7, highDemand });
const tier = (highDemand: boolean) => ({ id: 31, highDemand });

describe('the on-sale a purchase goes through', () => {
  it('is none when neither the session nor the tier is high demand', () => {
    expect(onSaleOf(session(false), tier(false))).toBeNull();
  });

  it('is the tier’s own when only the tier is high demand', () => {
    expect(onSaleOf(session(false), tier(true))).toEqual({ sessionId: 7, tierId: 31 });
  });

  it('is the session’s whenever the session is high demand: it covers all its tiers', () => {
    expect(onSaleOf(session(true), tier(false))).toEqual({ sessionId: 7, tierId: null });
    expect(onSaleOf(session(true), tier(true))).toEqual({ sessionId: 7, tierId: null });
  });

  it('is the same only for the same session and tier', () => {
    expect(sameOnSale({ sessionId: 7, tierId: 31 }, { sessionId: 7, tierId: 31 })).toBe(true);
    expect(sameOnSale({ sessionId: 7, tierId: 31 }, { sessionId: 7, tierId: null })).toBe(false);
    expect(sameOnSale({ sessionId: 7, tierId: 31 }, { sessionId: 7, tierId: 32 })).toBe(false);
    expect(sameOnSale({ sessionId: 7, tierId: null }, { sessionId: 8, tierId: null })).toBe(false);
    expect(sameOnSale(null, { sessionId: 7, tierId: null })).toBe(false);
  });
});

describe('the on-sale whose pass a purchase needs', () => {
  it('is the purchase’s on-sale, unless the buyer claims their own waitlist offer', () => {
    const onSale = { sessionId: 7, tierId: 31 };
    expect(onSaleNeedingPass(onSale, false)).toEqual(onSale);
    expect(onSaleNeedingPass(onSale, true)).toBeNull();
    expect(onSaleNeedingPass(null, false)).toBeNull();
  });
});

describe('the names of an on-sale’s objects', () => {
  it('keep a session’s room and inventory where they were, and give each tier its own', () => {
    expect(waitingRoomName({ sessionId: 42, tierId: null })).toBe('42');
    expect(inventoryObjectName({ sessionId: 42, tierId: null })).toBe('session:42');
    expect(waitingRoomName({ sessionId: 42, tierId: 42 })).toBe('tier:42');
    expect(inventoryObjectName({ sessionId: 42, tierId: 42 })).toBe('tier:42');
    expect(inventoryObjectName({ sessionId: 42, tierId: 43 })).not.toBe(inventoryObjectName({ sessionId: 42, tierId: 42 }));
  });
});

describe('the waiting page’s URL', () => {
  it('names the session’s room without a tier and a tier’s with one', () => {
    expect(onSaleOfPage(7, new URLSearchParams('listingId=3&quantity=2'))).toEqual({ sessionId: 7, tierId: null });
    expect(onSaleOfPage(7, new URLSearchParams('tier=31&listingId=3'))).toEqual({ sessionId: 7, tierId: 31 });
    for (const bad of ['tier=', 'tier=0', 'tier=x', 'tier=-1', 'tier=01']) expect(onSaleOfPage(7, new URLSearchParams(bad))).toBeNull();
  });

  it('carries the buyer’s choices there and names exactly the on-sale’s tier', () => {
    const choices = new URLSearchParams('listingId=3&quantity=2&tier=99');
    expect(waitingPageQuery({ sessionId: 7, tierId: 31 }, choices)).toBe('?listingId=3&quantity=2&tier=31');
    expect(waitingPageQuery({ sessionId: 7, tierId: null }, choices)).toBe('?listingId=3&quantity=2');
    expect(waitingPageQuery({ sessionId: 7, tierId: 31 }, new URLSearchParams())).toBe('?tier=31');
    expect(waitingPageQuery({ sessionId: 7, tierId: null }, new URLSearchParams())).toBe('');
  });

  it('sends the buyer back to the order confirmation with their choices and without the room’s tier', () => {
    expect(choicesQuery(new URLSearchParams('tier=31&listingId=3&quantity=2'))).toBe('?listingId=3&quantity=2');
    expect(choicesQuery(new URLSearchParams('listingId=3&quantity=2'))).toBe('?listingId=3&quantity=2');
    expect(choicesQuery(new URLSearchParams('tier=31'))).toBe('');
  });
});
