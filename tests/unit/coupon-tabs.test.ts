import { describe, expect, it } from 'vitest';
import { COUPON_TABS, couponState, couponTab, foldText, parseCouponTab, percentOff } from '../../src/lib/domain/coupons.ts';

const window = { validFrom: 1_000, validTo: 2_000 };

describe('couponState', () => {
  it('is usable inside the validity window, inclusive at both ends', () => {
    expect(couponState('unused', window, 1_000)).toBe('usable');
    expect(couponState('unused', window, 1_500)).toBe('usable');
    expect(couponState('unused', window, 2_000)).toBe('usable');
  });

  it('waits before the window and expires after it', () => {
    expect(couponState('unused', window, 999)).toBe('not_started');
    expect(couponState('unused', window, 2_001)).toBe('expired');
  });

  it('keeps a spent coupon "used" and a coupon held by an unpaid order "locked", whatever the date', () => {
    expect(couponState('used', window, 5_000)).toBe('used');
    expect(couponState('used', window, 1_500)).toBe('used');
    expect(couponState('locked', window, 1_500)).toBe('locked');
    expect(couponState('locked', window, 5_000)).toBe('locked');
  });
});

describe('couponTab', () => {
  it('files every state under one of the three tabs', () => {
    expect(couponTab('usable')).toBe('usable');
    expect(couponTab('not_started')).toBe('usable');
    expect(couponTab('locked')).toBe('used');
    expect(couponTab('used')).toBe('used');
    expect(couponTab('expired')).toBe('expired');
  });

  it('reads a tab from the URL and falls back to usable', () => {
    for (const tab of COUPON_TABS) expect(parseCouponTab(tab)).toBe(tab);
    expect(parseCouponTab(null)).toBe('usable');
    expect(parseCouponTab('USED')).toBe('usable');
    expect(parseCouponTab('all')).toBe('usable');
  });
});

describe('discount labels', () => {
  it('writes a fold as people do and gives its percent off', () => {
    expect(foldText(85)).toBe('8.5');
    expect(percentOff(85)).toBe(15);
    expect(foldText(90)).toBe('9');
    expect(percentOff(90)).toBe(10);
    expect(foldText(75)).toBe('7.5');
    expect(foldText(5)).toBe('0.5');
  });
});
