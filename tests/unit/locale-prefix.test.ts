import { describe, expect, it } from 'vitest';
import { strippedLocalePrefix, withoutLocalePrefix } from '../../src/lib/pages/locale-prefix.ts';

const ORIGIN = 'https://tickets.example';

describe('locale prefix taken off before Astro routes a page', () => {
  it('routes a prefixed path without its prefix and names the prefix', () => {
    for (const [asked, routed, locale] of [
      ['/zh-HK/concerts?page=2', '/concerts?page=2', 'zh-HK'],
      ['/en/', '/', 'en'],
      ['/en', '/', 'en'],
      ['/zh-CN/activity/12', '/activity/12', 'zh-CN'],
      ['/en/zh-TW/about', '/zh-TW/about', 'en'],
      ['/zh-TW/s_%E6%BC%94', '/s_%E6%BC%94', 'zh-TW'],
    ]) {
      const request = withoutLocalePrefix(new Request(`${ORIGIN}${asked}`));
      expect(request.url, asked).toBe(`${ORIGIN}${routed}`);
      expect(strippedLocalePrefix(request), asked).toBe(locale);
    }
  });

  it('leaves an unprefixed path, a look-alike segment and broken percent-encoding as they are', () => {
    for (const path of ['/concerts', '/', '/EN/about', '/english', '/en-US/about', '/zh-HK/s_%E6']) {
      const original = new Request(`${ORIGIN}${path}`);
      const request = withoutLocalePrefix(original);
      expect(request, path).toBe(original);
      expect(strippedLocalePrefix(request), path).toBeNull();
    }
  });

  it('drops a prefix header the request arrived with, so that a visitor cannot choose the locale a shared page renders in', () => {
    const sent = new Request(`${ORIGIN}/about`, { headers: { 'X-Locale-Prefix': 'zh-CN' } });
    const request = withoutLocalePrefix(sent);
    expect(request.url).toBe(`${ORIGIN}/about`);
    expect(strippedLocalePrefix(request)).toBeNull();
    const prefixed = withoutLocalePrefix(new Request(`${ORIGIN}/en/about`, { headers: { 'X-Locale-Prefix': 'zh-CN' } }));
    expect(strippedLocalePrefix(prefixed)).toBe('en');
  });

  it('keeps the method, the other headers and the body of a form post', async () => {
    const sent = new Request(`${ORIGIN}/zh-HK/login?redirect=%2Forders`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'language=en' },
      body: 'phone=1234',
    });
    const request = withoutLocalePrefix(sent);
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`${ORIGIN}/login?redirect=%2Forders`);
    expect(request.headers.get('cookie')).toBe('language=en');
    expect(await request.text()).toBe('phone=1234');
  });
});
