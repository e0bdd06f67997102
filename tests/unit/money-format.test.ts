import { describe, expect, it } from 'vitest';
import { CURRENCY_SYMBOLS, formatMoney } from '../../src/lib/domain/money.ts';
import { LOCALES } from '../../src/lib/i18n/locales.ts';

/** The currencies the marketplace sells in (migrations/0036_reference_data.sql), with their minor digits. */
const CURRENCIES: Record<string, number> = {
  HKD: 2,
  MOP: 2,
  TWD: 0,
  CNY: 2,
  SGD: 2,
  MYR: 2,
  THB: 2,
  PHP: 2,
  IDR: 0,
  VND: 0,
  USD: 2,
};

/** Symbols that name no single currency among several: what a buyer could not read alone. */
const AMBIGUOUS = new Set(['$', '¥', '￥', '元', '圓', 'kr', '£', '₩', 'R', 'Rs']);

/** The currency text of a formatted amount: everything that is not digits, separators, signs or spaces. */
function currencyText(text: string): string {
  return text.replace(/[\d.,\s\u00a0\u202f+\-−]/g, '');
}

describe('formatMoney in every locale and currency', () => {
  const cases = LOCALES.flatMap((locale) => Object.keys(CURRENCIES).map((currency) => ({ locale, currency })));

  it.each(cases)('writes $currency in $locale with an unambiguous currency', ({ locale, currency }) => {
    const digits = CURRENCIES[currency];
    for (const amount of [123_456, 100 * 10 ** digits, -5 * 10 ** digits]) {
      const text = formatMoney({ amount, currency }, locale, digits);
      const written = currencyText(text);
      expect(AMBIGUOUS.has(written), `${text} names no single currency`).toBe(false);
      expect(written).toBe(CURRENCY_SYMBOLS[currency] ?? currency);
      expect(text).not.toMatch(/(^|[^A-Z])\$/);
    }
  });

  it('writes each currency with a text no other currency shares, the same in every locale', () => {
    for (const locale of LOCALES) {
      const texts = Object.entries(CURRENCIES).map(([currency, digits]) =>
        currencyText(formatMoney({ amount: 100, currency }, locale, digits)),
      );
      expect(new Set(texts).size).toBe(texts.length);
      expect(texts).toEqual(
        Object.entries(CURRENCIES).map(([currency, digits]) => currencyText(formatMoney({ amount: 100, currency }, 'en', digits))),
      );
    }
  });

  it('puts a symbol against its number and a code a space apart', () => {
    expect(formatMoney({ amount: 58320, currency: 'HKD' }, 'zh-HK', 2)).toBe('HK$583.20');
    expect(formatMoney({ amount: 2391, currency: 'TWD' }, 'zh-TW', 0)).toBe('NT$2,391');
    expect(formatMoney({ amount: 9300, currency: 'CNY' }, 'zh-CN', 2)).toBe('CN¥93');
    expect(formatMoney({ amount: 123_450, currency: 'THB' }, 'en', 2)).toBe('THB\u00a01,234.50');
    expect(formatMoney({ amount: -5000, currency: 'MOP' }, 'en', 2)).toBe('-MOP$50');
  });

  it('writes a currency outside the glossary by its ISO code', () => {
    expect(formatMoney({ amount: 1000, currency: 'EUR' }, 'zh-TW', 2)).toMatch(/^EUR\s10$/);
  });

  it('keeps zero decimals only when asked', () => {
    expect(formatMoney({ amount: 50_000, currency: 'HKD' }, 'en', 2, { keepZeroDecimals: true })).toBe('HK$500.00');
    expect(formatMoney({ amount: 50_000, currency: 'HKD' }, 'en', 2)).toBe('HK$500');
  });
});
