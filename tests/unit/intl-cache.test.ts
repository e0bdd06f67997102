import { describe, expect, it } from 'vitest';
import { dateFormat, FormattedMemo, numberFormat } from '../../src/lib/domain/intl-cache.ts';

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

describe('formatted memo', () => {
  it('formats a key once and answers it again from memory', () => {
    const memo = new FormattedMemo<string>(10);
    let calls = 0;
    const format = (text: string) => () => {
      calls += 1;
      return text;
    };
    expect(memo.get('a', format('A'))).toBe('A');
    expect(memo.get('a', format('changed'))).toBe('A');
    expect(memo.get('b', format('B'))).toBe('B');
    expect(calls).toBe(2);
  });

  it('forgets everything once full, and formats afresh', () => {
    const memo = new FormattedMemo<string>(2);
    memo.get('a', () => 'A');
    memo.get('b', () => 'B');
    memo.get('c', () => 'C');
    expect(memo.get('a', () => 'A again')).toBe('A again');
    expect(memo.get('c', () => 'C again')).toBe('C');
  });
});
