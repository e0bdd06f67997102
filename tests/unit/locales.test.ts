import { describe, expect, it } from 'vitest';
import { catalogueOf, localizedAddress, localizedPath, matchAcceptLanguage, resolveLocale } from '../../src/lib/i18n/locales.ts';

describe('resolveLocale', () => {
  it('takes the URL prefix first and strips it', () => {
    expect(resolveLocale('/zh-HK/about', 'en', 'en')).toEqual({ locale: 'zh-HK', fromPrefix: true, path: '/about' });
    expect(resolveLocale('/zh-CN', undefined, null)).toEqual({ locale: 'zh-CN', fromPrefix: true, path: '/' });
  });

  it('then the language cookie, then Accept-Language, then English', () => {
    expect(resolveLocale('/about', 'zh-TW', 'zh-CN')).toMatchObject({ locale: 'zh-TW', fromPrefix: false, path: '/about' });
    expect(resolveLocale('/about', 'klingon', 'zh-CN,zh;q=0.9')).toMatchObject({ locale: 'zh-CN' });
    expect(resolveLocale('/about', undefined, 'fr-FR,fr;q=0.9')).toMatchObject({ locale: 'en' });
  });

  it('treats an unknown or differently cased prefix as an ordinary path', () => {
    expect(resolveLocale('/fr/about', undefined, null)).toEqual({ locale: 'en', fromPrefix: false, path: '/fr/about' });
    expect(resolveLocale('/ZH-hk/about', undefined, null)).toMatchObject({ fromPrefix: false, path: '/ZH-hk/about' });
  });

  it('takes no prefix off a path that does not decode, which keeps the language of the cookie', () => {
    expect(resolveLocale('/zh-HK/s_%E6', 'en', null)).toEqual({ locale: 'en', fromPrefix: false, path: '/zh-HK/s_%E6' });
  });
});

describe('matchAcceptLanguage', () => {
  it('orders by quality and maps Chinese by script and region', () => {
    expect(matchAcceptLanguage('fr;q=0.9, zh-Hant-HK;q=0.8')).toBe('zh-HK');
    expect(matchAcceptLanguage('zh-TW')).toBe('zh-TW');
    expect(matchAcceptLanguage('zh-MO')).toBe('zh-HK');
    expect(matchAcceptLanguage('zh-Hans-SG')).toBe('zh-CN');
    expect(matchAcceptLanguage('en-GB;q=0.5, zh-CN;q=0.7')).toBe('zh-CN');
  });

  it('ignores garbage and zero quality', () => {
    expect(matchAcceptLanguage(';;;, q=')).toBeNull();
    expect(matchAcceptLanguage('zh-CN;q=0')).toBeNull();
    expect(matchAcceptLanguage('')).toBeNull();
  });
});

describe('catalogues and paths', () => {
  it('shares the Traditional catalogue between zh-HK and zh-TW', () => {
    expect(catalogueOf('zh-HK')).toBe('zh-Hant');
    expect(catalogueOf('zh-TW')).toBe('zh-Hant');
    expect(catalogueOf('zh-CN')).toBe('zh-Hans');
    expect(catalogueOf('en')).toBe('en');
  });

  it('prefixes paths', () => {
    expect(localizedPath('/', 'zh-HK')).toBe('/zh-HK/');
    expect(localizedPath('/orders/3', 'en')).toBe('/en/orders/3');
  });

  it('picks an address in English, or the one Chinese text for both scripts', () => {
    const venue = { addressEn: '1 Harbour Road, Wan Chai', addressZh: '灣仔港灣道1號' };
    expect(localizedAddress(venue, 'en')).toBe('1 Harbour Road, Wan Chai');
    expect(localizedAddress(venue, 'zh-HK')).toBe('灣仔港灣道1號');
    expect(localizedAddress(venue, 'zh-CN')).toBe('灣仔港灣道1號');
  });
});
