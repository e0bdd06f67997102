import { describe, expect, it } from 'vitest';
import { currencyName, type CurrencyNamer } from '../../src/lib/i18n/currency-names.ts';
import { currencyNameIn } from '../../src/lib/i18n/index.ts';

describe('currencyName', () => {
  it("names a currency in the reader's language from the runtime's data", () => {
    expect(currencyName('TWD', 'en', 'fallback')).toBe('New Taiwan Dollar');
    expect(currencyName('TWD', 'zh-TW', 'fallback')).toBe('新台幣');
    expect(currencyName('TWD', 'zh-CN', 'fallback')).toBe('新台币');
    expect(currencyName('HKD', 'zh-HK', 'fallback')).toMatch(/^港[元幣]$/);
  });

  it('falls back when the runtime has no name, or answers with the code', () => {
    const none: CurrencyNamer = () => undefined;
    const codeOnly: CurrencyNamer = (code) => code;
    expect(currencyName('TWD', 'zh-TW', '新台幣', none)).toBe('新台幣');
    expect(currencyName('TWD', 'zh-TW', '新台幣', codeOnly)).toBe('新台幣');
  });
});

describe('currencyNameIn', () => {
  it('uses the runtime, then the catalogue, then the description', () => {
    expect(currencyNameIn('zh-CN', 'CNY', 'Chinese Yuan')).toBe('人民币');
    const none: CurrencyNamer = () => undefined;
    expect(currencyNameIn('zh-CN', 'CNY', 'Chinese Yuan', none)).toBe('人民币');
    expect(currencyNameIn('zh-TW', 'HKD', 'Hong Kong Dollar', none)).toBe('港幣');
    expect(currencyNameIn('en', 'HKD', 'Hong Kong Dollar', none)).toBe('Hong Kong Dollar');
    // A code no runtime names, nor the catalogues.
    expect(currencyNameIn('zh-HK', 'QQQ', 'Made-up dollar')).toBe('Made-up dollar');
  });
});
