import { describe, expect, it } from 'vitest';
import { endOfLocalDay } from '../../src/lib/domain/local-day.ts';
import { currencyToSave } from '../../src/lib/domain/preferences.ts';

describe('currencyToSave', () => {
  it('saves nothing when a visitor with no stored currency keeps the one shown', () => {
    expect(currencyToSave('HKD', 'HKD', null)).toBeNull();
  });

  it('saves a newly picked currency', () => {
    expect(currencyToSave('TWD', 'HKD', null)).toBe('TWD');
  });

  it('always saves the selection once a currency is stored', () => {
    expect(currencyToSave('HKD', 'HKD', 'HKD')).toBe('HKD');
    expect(currencyToSave('USD', 'SGD', 'SGD')).toBe('USD');
  });
});

describe('endOfLocalDay', () => {
  it('is the last millisecond of the same local day', () => {
    const now = new Date(2026, 10, 21, 9, 30, 15);
    const end = endOfLocalDay(now);
    expect([end.getFullYear(), end.getMonth(), end.getDate()]).toEqual([2026, 10, 21]);
    expect([end.getHours(), end.getMinutes(), end.getSeconds(), end.getMilliseconds()]).toEqual([23, 59, 59, 999]);
    expect(new Date(end.getTime() + 1).getDate()).toBe(22);
  });

  it('is still today one millisecond before midnight', () => {
    const late = new Date(2026, 11, 31, 23, 59, 59, 999);
    expect(endOfLocalDay(late).getTime()).toBe(late.getTime());
  });
});
