import { describe, expect, it } from 'vitest';
import { catalogues, translator } from '../../src/lib/i18n/index.ts';

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('catalogues', () => {
  const english = catalogues.en as Record<string, string>;

  for (const [name, catalogue] of Object.entries(catalogues) as [string, Record<string, string>][]) {
    it(`${name} has exactly the English keys, none empty`, () => {
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
      for (const [key, value] of Object.entries(catalogue)) expect(value.trim(), key).not.toBe('');
    });

    it(`${name} uses the same placeholders as English`, () => {
      for (const key of Object.keys(english)) expect(placeholders(catalogue[key]), key).toEqual(placeholders(english[key]));
    });
  }

  it('translates the Chinese catalogues in their own script', () => {
    expect(catalogues['zh-Hant']['title.accountSettingPage']).not.toBe(catalogues['zh-Hans']['title.accountSettingPage']);
  });
});

describe('translator', () => {
  it('serves each locale from its catalogue and interpolates', () => {
    expect(translator('en')('title.orderListPage')).toBe('My Orders');
    expect(translator('zh-HK')('title.orderListPage')).toBe('我的訂單');
    expect(translator('zh-TW')('title.orderListPage')).toBe('我的訂單');
    expect(translator('zh-CN')('title.orderListPage')).toBe('我的订单');
    expect(translator('en')('card.discount', { percent: 15 })).toBe('15% off');
  });
});
