import { describe, expect, it } from 'vitest';
import { lotteryOrder } from '../../src/lib/domain/waiting-room.ts';
import { kendallTau } from '../../src/lib/domain/rank-correlation.ts';

/** A seeded generator in [0, 1) (mulberry32), so the lottery below is the same every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('kendallTau', () => {
  it('is 1 for the same order and -1 for the reverse', () => {
    expect(kendallTau([1, 2, 3, 4, 5])).toBe(1);
    expect(kendallTau([50, 40, 30, 20, 10])).toBe(-1);
  });

  it('counts each swapped pair against the pairs kept', () => {
    // One adjacent swap among four: 5 pairs kept, 1 reversed, of 6.
    expect(kendallTau([1, 3, 2, 4])).toBeCloseTo(4 / 6);
    expect(kendallTau([2, 1])).toBe(-1);
  });

  it('is near 0 for a fair lottery of many entrants', () => {
    const drawn = lotteryOrder(
      Array.from({ length: 400 }, (_, i) => i),
      seeded(20),
    );
    const rankOf = new Map(drawn.map((entrant, rank) => [entrant, rank]));
    const tau = kendallTau(Array.from({ length: 400 }, (_, i) => rankOf.get(i)!))!;
    expect(Math.abs(tau)).toBeLessThan(0.1);
  });

  it('has no figure for fewer than two, and refuses ties', () => {
    expect(kendallTau([])).toBeNull();
    expect(kendallTau([7])).toBeNull();
    expect(() => kendallTau([1, 1])).toThrow(RangeError);
  });
});
