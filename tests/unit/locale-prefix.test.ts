import { describe, expect, it } from 'vitest';
import { resolveLocale } from '../../src/lib/i18n/locales.ts';
import { withoutLocalePrefix } from '../../src/lib/edge/locale-prefix.ts';

const ORIGIN = 'https://tickets.example';

/** The request Astro routes, for the locale the visitor's parse chose from the URL. */
function routed(request: Request): Request {
  return withoutLocalePrefix(request, resolveLocale(new URL(request.url).pathname, undefined, null));
}

describe('locale prefix taken off before Astro routes a page', () => {
  it('routes a prefixed path without its prefix', () => {
    for (const [asked, path] of [
      ['/zh-HK/concerts?page=2', '/concerts?page=2'],
      ['/en/', '/'],
      ['/en', '/'],
      ['/zh-CN/activity/12', '/activity/12'],
      ['/en/zh-TW/about', '/zh-TW/about'],
      ['/zh-TW/s_%E6%BC%94', '/s_%E6%BC%94'],
    ]) {
      expect(routed(new Request(`${ORIGIN}${asked}`)).url, asked).toBe(`${ORIGIN}${path}`);
    }
  });

  it('leaves an unprefixed path, a look-alike segment and broken percent-encoding as they are', () => {
    for (const path of ['/concerts', '/', '/EN/about', '/english', '/en-US/about', '/zh-HK/s_%E6']) {
      const original = new Request(`${ORIGIN}${path}`);
      expect(routed(original), path).toBe(original);
    }
  });

  it('keeps the method, the other headers and the body of a form post', async () => {
    const sent = new Request(`${ORIGIN}/zh-HK/login?redirect=%2Forders`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'language=en' },
      body: 'phone=1234',
    });
    const request = routed(sent);
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`${ORIGIN}/login?redirect=%2Forders`);
    expect(request.headers.get('cookie')).toBe('language=en');
    expect(await request.text()).toBe('phone=1234');
  });
});
