import { describe, expect, it } from 'vitest';
import { convert, formatMoney, parseMinorUnits, type CurrencyTable } from '../../src/lib/domain/money.ts';

const table: CurrencyTable = new Map([
  ['HKD', { code: 'HKD', minorDigits: 2, perHkdMicros: 1_000_000 }],
  ['TWD', { code: 'TWD', minorDigits: 0, perHkdMicros: 4_100_000 }],
  ['USD', { code: 'USD', minorDigits: 2, perHkdMicros: 128_500 }],
  ['IDR', { code: 'IDR', minorDigits: 0, perHkdMicros: 2_050_000_000 }],
]);

describe('convert', () => {
  it('keeps an amount in its own currency unchanged', () => {
    expect(convert({ amount: 38800, currency: 'HKD' }, 'HKD', table)).toEqual({ amount: 38800, currency: 'HKD' });
  });

  it('converts between currencies with different minor digits', () => {
    expect(convert({ amount: 38800, currency: 'HKD' }, 'TWD', table)).toEqual({ amount: 1591, currency: 'TWD' });
    expect(convert({ amount: 2800, currency: 'TWD' }, 'HKD', table)).toEqual({ amount: 68293, currency: 'HKD' });
  });

  it('rounds half away from zero', () => {
    // 1 HKD cent = 0.1285 US cents → 0; 4 cents = 0.514 → 1.
    expect(convert({ amount: 1, currency: 'HKD' }, 'USD', table).amount).toBe(0);
    expect(convert({ amount: 4, currency: 'HKD' }, 'USD', table).amount).toBe(1);
  });

  it('rounds up on request, so a converted minimum is always met when spent', () => {
    expect(convert({ amount: 1, currency: 'HKD' }, 'USD', table, 'up').amount).toBe(1);
    expect(convert({ amount: 50000, currency: 'HKD' }, 'TWD', table, 'up').amount).toBe(2050);
    // 388.01 HKD is 1590.841 TWD: shown as 1591, which converts back to at least 388.01 HKD.
    const minimum = convert({ amount: 38801, currency: 'HKD' }, 'TWD', table, 'up').amount;
    expect(minimum).toBe(1591);
    expect(convert({ amount: minimum, currency: 'TWD' }, 'HKD', table).amount).toBeGreaterThanOrEqual(38801);
  });

  it('stays exact for large-unit currencies', () => {
    expect(convert({ amount: 999_999_99, currency: 'HKD' }, 'IDR', table).amount).toBe(2_049_999_980);
  });

  it('refuses an unknown currency', () => {
    expect(() => convert({ amount: 1, currency: 'XXX' }, 'HKD', table)).toThrow(/Unknown currency/);
  });
});

describe('formatMoney', () => {
  it('drops zero decimals and keeps real ones', () => {
    expect(formatMoney({ amount: 38800, currency: 'HKD' }, 'en', 2)).toBe('HK$388');
    expect(formatMoney({ amount: 38850, currency: 'HKD' }, 'en', 2)).toBe('HK$388.50');
  });

  it('formats zero-digit currencies the same in every locale', () => {
    expect(formatMoney({ amount: 2800, currency: 'TWD' }, 'zh-TW', 0)).toBe('NT$2,800');
    expect(formatMoney({ amount: 2800, currency: 'TWD' }, 'en', 0)).toBe('NT$2,800');
  });
});

describe('parseMinorUnits', () => {
  it('reads whole and decimal amounts as minor units', () => {
    expect(parseMinorUnits('880', 2)).toBe(88000);
    expect(parseMinorUnits(' 880.5 ', 2)).toBe(88050);
    expect(parseMinorUnits('880.05', 2)).toBe(88005);
    expect(parseMinorUnits('1,280.00', 2)).toBe(128000);
    expect(parseMinorUnits('880.', 2)).toBe(88000);
    expect(parseMinorUnits('2800', 0)).toBe(2800);
  });

  it('refuses signs, letters, empty text and more decimals than the currency has', () => {
    for (const text of ['', '-5', '+5', '5e3', 'abc', '.5', '1.2.3', '880.555']) expect(parseMinorUnits(text, 2), text).toBeNull();
    expect(parseMinorUnits('2800.5', 0)).toBeNull();
  });

  it('refuses amounts too large to hold exactly', () => {
    expect(parseMinorUnits('99999999999999999', 2)).toBeNull();
  });
});
