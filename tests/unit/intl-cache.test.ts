import { describe, expect, it } from 'vitest';
import { dateFormat, numberFormat } from '../../src/lib/domain/intl-cache.ts';

describe('Intl formatter cache', () => {
  it('returns the same formatter for the same locale and options', () => {
    expect(numberFormat('en', { style: 'currency', currency: 'HKD' })).toBe(numberFormat('en', { style: 'currency', currency: 'HKD' }));
    expect(dateFormat('zh-HK', { timeZone: 'Asia/Hong_Kong' })).toBe(dateFormat('zh-HK', { timeZone: 'Asia/Hong_Kong' }));
  });

  it('keeps formatters of different locales or options apart', () => {
    expect(numberFormat('en', { style: 'currency', currency: 'HKD' })).not.toBe(numberFormat('en', { style: 'currency', currency: 'TWD' }));
    expect(dateFormat('en', { timeZone: 'UTC' }).format(0)).not.toBe(dateFormat('zh-CN', { timeZone: 'UTC' }).format(0));
  });
});
