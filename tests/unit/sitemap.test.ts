import { describe, expect, it } from 'vitest';
import {
  disallowedPaths,
  escapeXml,
  parseSitemapFilePath,
  partWindow,
  robotsTxt,
  sitemapFilePath,
  sitemapIndexXml,
  SITEMAP_URLS_PER_FILE,
  sitemapPartCount,
  urlsetXml,
  w3cDatetime,
} from '../../src/lib/domain/sitemap.ts';
import { ROUTES } from '../../src/lib/routes.ts';

const ORIGIN = 'https://tickets.example.com';

describe('sitemap XML', () => {
  it('escapes the five XML specials', () => {
    expect(escapeXml(`a&b<c>"d'`)).toBe('a&amp;b&lt;c&gt;&quot;d&apos;');
  });

  it('writes lastmod as a W3C datetime in UTC, to the second', () => {
    expect(w3cDatetime(Date.UTC(2026, 10, 25, 18, 30, 5, 123))).toBe('2026-11-25T18:30:05Z');
  });

  it('lists each URL in its locale with an alternate in every locale, itself included', () => {
    const xml = urlsetXml(ORIGIN, 'zh-HK', [
      { path: '/activity/1000', lastModified: Date.UTC(2026, 0, 2) },
      { path: '/', lastModified: null },
    ]);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">');
    expect(xml).toContain('<url><loc>https://tickets.example.com/zh-HK/activity/1000</loc><lastmod>2026-01-02T00:00:00Z</lastmod>');
    for (const code of ['en', 'zh-HK', 'zh-TW', 'zh-CN']) {
      expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="${code}" href="https://tickets.example.com/${code}/activity/1000"/>`);
    }
    expect(xml).toContain('<url><loc>https://tickets.example.com/zh-HK/</loc><xhtml:link');
  });

  it('escapes a path that carries XML specials', () => {
    expect(urlsetXml(ORIGIN, 'en', [{ path: "/a&b'", lastModified: null }])).toContain(
      '<loc>https://tickets.example.com/en/a&amp;b&apos;</loc>',
    );
  });

  it('indexes every file with the catalogue change as lastmod', () => {
    const xml = sitemapIndexXml(
      ORIGIN,
      [
        { locale: 'en', part: 1 },
        { locale: 'zh-CN', part: 2 },
      ],
      Date.UTC(2026, 5, 1),
    );
    expect(xml).toContain(
      '<sitemap><loc>https://tickets.example.com/sitemaps/en-1.xml</loc><lastmod>2026-06-01T00:00:00Z</lastmod></sitemap>',
    );
    expect(xml).toContain('<loc>https://tickets.example.com/sitemaps/zh-CN-2.xml</loc>');
  });
});

describe('sitemap files', () => {
  it('names and parses a locale part', () => {
    expect(sitemapFilePath({ locale: 'zh-TW', part: 3 })).toBe('/sitemaps/zh-TW-3.xml');
    expect(parseSitemapFilePath('/sitemaps/zh-TW-3.xml')).toEqual({ locale: 'zh-TW', part: 3 });
    expect(parseSitemapFilePath('/sitemaps/fr-1.xml')).toBeNull();
    expect(parseSitemapFilePath('/sitemaps/en-0.xml')).toBeNull();
    expect(parseSitemapFilePath('/sitemaps/en-1.xml.gz')).toBeNull();
  });

  it('splits at the protocol limit of 50,000 URLs', () => {
    expect(sitemapPartCount(0)).toBe(1);
    expect(sitemapPartCount(SITEMAP_URLS_PER_FILE)).toBe(1);
    expect(sitemapPartCount(SITEMAP_URLS_PER_FILE + 1)).toBe(2);
    expect(sitemapPartCount(100_020)).toBe(21);
    // The protocol's limit per file.
    expect(SITEMAP_URLS_PER_FILE).toBeLessThanOrEqual(50_000);
    expect(sitemapPartCount(50_001, 50_000)).toBe(2);
  });

  it('puts the fixed pages first, then the activities, without overlap or gap', () => {
    expect(partWindow(1, 20, 100)).toEqual({ fixed: { offset: 0, count: 20 }, activities: { offset: 0, count: 80 } });
    expect(partWindow(2, 20, 100)).toEqual({ fixed: { offset: 20, count: 0 }, activities: { offset: 80, count: 100 } });
    expect(partWindow(1, 150, 100)).toEqual({ fixed: { offset: 0, count: 100 }, activities: { offset: 0, count: 0 } });
    expect(partWindow(2, 150, 100)).toEqual({ fixed: { offset: 100, count: 50 }, activities: { offset: 0, count: 50 } });
  });
});

describe('robots.txt', () => {
  const disallowed = disallowedPaths(ROUTES, ['/voucher', '/sandbox/']);

  it('keeps crawlers from the API, signed-in and checkout routes and private links, in every locale', () => {
    for (const path of [
      '/api/',
      '/orders',
      '/order/',
      '/paySuccess',
      '/invitation',
      '/en/orders',
      '/zh-CN/order/',
      '/voucher',
      '/zh-HK/voucher',
      '/sandbox/',
    ]) {
      expect(disallowed).toContain(path);
    }
  });

  it('names each prefix once, without one another already covers', () => {
    expect(disallowed).not.toContain('/orders/');
    expect(disallowed).not.toContain('/order/confirm');
    expect(new Set(disallowed).size).toBe(disallowed.length);
  });

  it('leaves the public pages open: home, activities, listings, login (invitation links), lottery shares', () => {
    const blocked = (path: string) => disallowed.some((prefix) => path.startsWith(prefix));
    for (const path of [
      '/en/',
      '/en/activity/1000',
      '/en/concerts',
      '/en/login?inviteCode=AB12',
      '/en/overload-ticket/abc/share',
      '/en/about',
    ]) {
      expect(blocked(path), path).toBe(false);
    }
  });

  it('names the sitemap index on the configured origin, and none without one', () => {
    expect(robotsTxt(['/api/'], ORIGIN)).toBe(
      'User-agent: *\nDisallow: /api/\nAllow: /\n\nSitemap: https://tickets.example.com/sitemap.xml\n',
    );
    expect(robotsTxt(['/api/'], null)).not.toContain('Sitemap');
  });
});
