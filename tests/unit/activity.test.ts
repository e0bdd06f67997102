import { describe, expect, it } from 'vitest';
import { cardTag, discountFold, discountPercent } from '../../src/lib/domain/activity.ts';

describe('cardTag', () => {
  it('prefers sold out over any status', () => {
    expect(cardTag(1, true)).toBe('soldOut');
    expect(cardTag(6, true)).toBe('soldOut');
  });

  it('maps the spec statuses and nothing else', () => {
    expect(cardTag(4, false)).toBe('booking');
    expect(cardTag(1, false)).toBe('onSale');
    expect(cardTag(6, false)).toBe('notYetOnSale');
    expect(cardTag(0, false)).toBeNull();
    expect(cardTag(7, false)).toBeNull();
  });
});

describe('discount', () => {
  it('is a fold only when the price is below face value', () => {
    expect(discountFold(30000, 40000)).toBe(7.5);
    expect(discountFold(40000, 40000)).toBeNull();
    expect(discountFold(50000, 40000)).toBeNull();
    expect(discountFold(100, 0)).toBeNull();
  });

  it('floors the fold to one decimal', () => {
    expect(discountFold(33333, 40000)).toBe(8.3);
  });

  it('labels floor((10 - rate) * 10) percent without float drift', () => {
    expect(discountPercent(8.5)).toBe(15);
    expect(discountPercent(7.5)).toBe(25);
    expect(discountPercent(8.54)).toBe(14);
    expect(discountPercent(9.9)).toBe(1);
  });
});
