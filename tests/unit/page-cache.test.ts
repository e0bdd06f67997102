import { describe, expect, it } from 'vitest';
import { cachedPageState, isPersonalAnswer, sharedPageKeyOf, type PageRequest } from '../../src/lib/http/page-cache.ts';
import { visitorOf } from '../../src/lib/domain/visitor.ts';
import { ROUTES } from '../../src/lib/routes.ts';

const sharedPageKey = (request: PageRequest, catalogueVersion: number) => sharedPageKeyOf(request)?.(catalogueVersion) ?? null;

interface RequestOptions {
  method?: string;
  acceptLanguage?: string;
  /** The Cookie header as sent, instead of `cookies`. */
  cookieHeader?: string;
}

function request(path: string, cookies: Record<string, string> = {}, options: RequestOptions = {}): PageRequest {
  const url = new URL(path, 'https://tickets.example');
  const cookieHeader =
    options.cookieHeader ??
    Object.entries(cookies)
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
  return {
    method: options.method ?? 'GET',
    url,
    visitor: visitorOf({ url, cookieHeader, acceptLanguage: options.acceptLanguage ?? null }),
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
    // Session cookies the page cannot use still make the visitor's page their own.
    expect(sharedPageKey(request('/', {}, { cookieHeader: 'pner=x\\y; pnid=1\\' }), 1)).toBeNull();
    expect(sharedPageKey(request('/', {}, { cookieHeader: 'pnid=7; pnid=8' }), 1)).toBeNull();
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
    expect(sharedPageKey(request('/en/concerts', {}, { cookieHeader: 'cityId= 343 ' }), 1)).toBe(taipei);
  });

  it('keys a quoted, repeated or malformed choice as no choice, which is what the page renders', () => {
    const fallback = sharedPageKey(request('/en/'), 1);
    for (const cookieHeader of [
      'currencyCode="USD"',
      'currencyCode=%55SD',
      'currencyCode=XYZ1',
      'currencyCode=USD; currencyCode=SGD',
      'cityId=35\\; cityId=350',
      'cityId="350"',
      'cityId=350; cityId=350',
      'cityId=0',
    ]) {
      expect(sharedPageKey(request('/en/', {}, { cookieHeader }), 1), cookieHeader).toBe(fallback);
    }
    const english = sharedPageKey(request('/about'), 1);
    for (const cookieHeader of ['language="zh-CN"', 'language=xx; language=zh-CN', 'language=zh-CN; language=zh-CN', 'language=zh-cn']) {
      expect(sharedPageKey(request('/about', {}, { cookieHeader }), 1), cookieHeader).toBe(english);
    }
  });

  it('gives one key to requests that render alike', () => {
    const key = sharedPageKey(request('/concerts?sort=hot&page=2', { currencyCode: 'sgd', other: 'x' }), 4);
    expect(sharedPageKey(request('/concerts?page=2&sort=hot', { currencyCode: 'SGD' }), 4)).toBe(key);
    // A malformed currency or city renders the page's fallback, so it shares the fallback's key.
    expect(sharedPageKey(request('/', { currencyCode: '<script>', cityId: 'x1' }), 4)).toBe(sharedPageKey(request('/'), 4));
    expect(key).not.toContain('<');
  });
});

describe('personal answers', () => {
  it('are every answer of a route behind sign-in', () => {
    const signInRoutes = ROUTES.filter((route) => route.auth);
    expect(signInRoutes.length).toBeGreaterThan(10);
    for (const route of signInRoutes) {
      expect(isPersonalAnswer(route.auth, { sessionClaimed: true }, 'text/html; charset=utf-8'), route.pattern).toBe(true);
      // The way to sign in, too: a redirect with the cookies cleared.
      expect(isPersonalAnswer(route.auth, { sessionClaimed: false }, null), route.pattern).toBe(true);
    }
  });

  it('are any page rendered for a visitor who sent a session cookie, not a file nor an anonymous page', () => {
    expect(isPersonalAnswer(false, { sessionClaimed: true }, 'text/html; charset=utf-8')).toBe(true);
    expect(isPersonalAnswer(false, { sessionClaimed: true }, 'image/svg+xml')).toBe(false);
    expect(isPersonalAnswer(false, { sessionClaimed: false }, 'text/html; charset=utf-8')).toBe(false);
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
