import { describe, expect, it } from 'vitest';
import { cachedPageState, sharedPageKeyOf, type PageRequest } from '../../src/lib/domain/page-cache.ts';

const sharedPageKey = (request: PageRequest, catalogueVersion: number) => sharedPageKeyOf(request)?.(catalogueVersion) ?? null;

function request(path: string, cookies: Record<string, string> = {}, extra: Partial<PageRequest> = {}): PageRequest {
  return {
    method: 'GET',
    url: new URL(path, 'https://tickets.example'),
    cookie: (name) => cookies[name],
    acceptLanguage: null,
    ...extra,
  };
}

describe('shared page key', () => {
  it('shares the browse and info pages of anonymous visitors', () => {
    for (const path of ['/', '/activity/12', '/concerts', '/s_jay', '/zh-HK/about', '/privacy', '/userAgreement']) {
      expect(sharedPageKey(request(path), 1), path).not.toBeNull();
    }
  });

  it('never shares a signed-in answer, a personal page, a file, a channel visit or a write', () => {
    expect(sharedPageKey(request('/', { pner: 'token' }), 1)).toBeNull();
    expect(sharedPageKey(request('/', { pnid: '7' }), 1)).toBeNull();
    for (const path of ['/orders', '/login', '/order/confirm', '/voucher', '/couponList', '/posters/activity/1.svg', '/appInfo.html']) {
      expect(sharedPageKey(request(path), 1), path).toBeNull();
    }
    expect(sharedPageKey(request('/?channel=partner'), 1)).toBeNull();
    expect(sharedPageKey(request('/', {}, { method: 'POST' }), 1)).toBeNull();
  });

  it('shares robots.txt and the sitemaps under their path alone, whatever the visitor or the catalogue version', () => {
    for (const path of ['/robots.txt', '/sitemap.xml', '/sitemaps/zh-HK-2.xml']) {
      const key = sharedPageKey(request(path), 4);
      expect(key, path).toBe(`https://page-cache.invalid/crawler${path}`);
      expect(sharedPageKey(request(path, { language: 'zh-CN', currencyCode: 'SGD' }), 5), path).toBe(key);
    }
    expect(sharedPageKey(request('/sitemap.xml?x=1'), 4)).toBeNull();
    expect(sharedPageKey(request('/sitemap.xml', { pner: 'token' }), 4)).toBeNull();
    expect(sharedPageKey(request('/sitemaps/fr-1.xml'), 4)).toBeNull();
  });

  it('keys by language, currency, city, the hide choices, the URL and the catalogue version', () => {
    const base = sharedPageKey(request('/concerts?page=2&sort=hot'), 1);
    const variants = [
      sharedPageKey(request('/zh-HK/concerts?page=2&sort=hot'), 1),
      sharedPageKey(request('/concerts?page=2&sort=hot', { language: 'zh-CN' }), 1),
      sharedPageKey(request('/concerts?page=2&sort=hot', {}, { acceptLanguage: 'zh-TW,zh;q=0.9' }), 1),
      sharedPageKey(request('/concerts?page=2&sort=hot', { currencyCode: 'SGD' }), 1),
      sharedPageKey(request('/concerts?page=2&sort=hot', { cityId: '3' }), 1),
      sharedPageKey(request('/concerts?page=2&sort=hot', { hidePopBox: '1' }), 1),
      sharedPageKey(request('/concerts?page=2&sort=hot', { hideAppInfo: '1' }), 1),
      sharedPageKey(request('/concerts?page=3&sort=hot'), 1),
      sharedPageKey(request('/concerts?page=2&sort=hot'), 2),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
  });

  it('never shares a list of the current city (the cityId cookie) with a visitor of another city', () => {
    const taipei = sharedPageKey(request('/en/concerts', { cityId: '343' }), 1);
    const hongKong = sharedPageKey(request('/en/concerts', { cityId: '341' }), 1);
    const noCity = sharedPageKey(request('/en/concerts'), 1);
    expect(new Set([taipei, hongKong, noCity]).size).toBe(3);
    expect(sharedPageKey(request('/en/concerts', { cityId: ' 343 ' }), 1)).toBe(taipei);
  });

  it('gives one key to requests that render alike', () => {
    const key = sharedPageKey(request('/concerts?sort=hot&page=2', { currencyCode: 'sgd', other: 'x' }), 4);
    expect(sharedPageKey(request('/concerts?page=2&sort=hot', { currencyCode: 'SGD' }), 4)).toBe(key);
    // A malformed currency or city renders the page's fallback, so it shares the fallback's key.
    expect(sharedPageKey(request('/', { currencyCode: '<script>', cityId: 'x1' }), 4)).toBe(sharedPageKey(request('/'), 4));
    expect(key).not.toContain('<');
  });
});

describe('cached page state', () => {
  it('is fresh, then stale, then expired', () => {
    expect(cachedPageState(1_000, 1_000, 30_000, 60_000)).toBe('fresh');
    expect(cachedPageState(1_000, 30_999, 30_000, 60_000)).toBe('fresh');
    expect(cachedPageState(1_000, 31_000, 30_000, 60_000)).toBe('stale');
    expect(cachedPageState(1_000, 90_999, 30_000, 60_000)).toBe('stale');
    expect(cachedPageState(1_000, 91_000, 30_000, 60_000)).toBe('expired');
  });

  it('treats a copy without a readable time, or from the future, as expired', () => {
    expect(cachedPageState(Number.NaN, 1_000, 30_000, 60_000)).toBe('expired');
    expect(cachedPageState(5_000, 1_000, 30_000, 60_000)).toBe('expired');
  });
});
