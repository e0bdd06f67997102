import { describe, expect, it } from 'vitest';
import { HIGH_DEMAND_ORDERS_PER_MINUTE } from '../../src/lib/config/on-sale.ts';
import { highDemandThreshold, minuteOf, ordersInLastMinute, reachesHighDemand } from '../../src/lib/domain/order-rate.ts';

const MINUTE = 60_000;
const TEN_PAST = Date.UTC(2026, 11, 1, 2, 10);

describe('the minute an order counts in', () => {
  it('is the minute of the clock, the same from its first to its last millisecond', () => {
    expect(minuteOf(TEN_PAST)).toBe(TEN_PAST / MINUTE);
    expect(minuteOf(TEN_PAST + MINUTE - 1)).toBe(minuteOf(TEN_PAST));
    expect(minuteOf(TEN_PAST + MINUTE)).toBe(minuteOf(TEN_PAST) + 1);
    expect(minuteOf(TEN_PAST - 1)).toBe(minuteOf(TEN_PAST) - 1);
  });
});

describe('a session’s orders over the last minute', () => {
  it('are this minute’s alone at its start, plus the share of the previous minute still in the window', () => {
    expect(ordersInLastMinute({ current: 7, previous: 100 }, TEN_PAST + MINUTE - 1)).toBeCloseTo(7, 1);
    expect(ordersInLastMinute({ current: 7, previous: 100 }, TEN_PAST)).toBe(107);
    expect(ordersInLastMinute({ current: 7, previous: 100 }, TEN_PAST + 15_000)).toBe(82);
    expect(ordersInLastMinute({ current: 7, previous: 0 }, TEN_PAST + 45_000)).toBe(7);
  });
});

describe('a session reaching high demand', () => {
  it('stays plain below the threshold and turns at it', () => {
    expect(reachesHighDemand({ current: 2, previous: 0 }, TEN_PAST + 30_000, 3)).toBe(false);
    expect(reachesHighDemand({ current: 3, previous: 0 }, TEN_PAST + 30_000, 3)).toBe(true);
    expect(reachesHighDemand({ current: 4, previous: 0 }, TEN_PAST + 30_000, 3)).toBe(true);
  });

  it('counts a burst split across the turn of a minute as one', () => {
    // 60 orders in the 30 seconds around 02:11, at a threshold of 50: 30 in each minute.
    const justAfter = TEN_PAST + MINUTE + 15_000;
    expect(reachesHighDemand({ current: 30, previous: 30 }, justAfter, 50)).toBe(true);
    expect(reachesHighDemand({ current: 30, previous: 0 }, justAfter, 50)).toBe(false);
  });

  it('does not turn on orders a whole minute ago, however many', () => {
    expect(reachesHighDemand({ current: 1, previous: 10_000 }, TEN_PAST + MINUTE - 1, 50)).toBe(false);
  });
});

describe('the threshold', () => {
  it('is the deployment’s when it set a positive whole number, else the default', () => {
    expect(highDemandThreshold('3', HIGH_DEMAND_ORDERS_PER_MINUTE)).toBe(3);
    expect(highDemandThreshold(undefined, HIGH_DEMAND_ORDERS_PER_MINUTE)).toBe(HIGH_DEMAND_ORDERS_PER_MINUTE);
    for (const wrong of ['', '0', '-5', '2.5', 'many']) expect(highDemandThreshold(wrong, 6000), wrong).toBe(6000);
  });
});
