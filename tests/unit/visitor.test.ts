import { describe, expect, it } from 'vitest';
import { visitorOf } from '../../src/lib/domain/visitor.ts';

const visitor = (path: string, cookieHeader: string | null = null, acceptLanguage: string | null = null) =>
  visitorOf({ url: new URL(path, 'https://tickets.example'), cookieHeader, acceptLanguage });

describe('the visitor of a page request', () => {
  it('reads the choices the header and the pickers set', () => {
    expect(visitor('/concerts', 'language=zh-HK; currencyCode=sgd; cityId=350; hidePopBox=1; hideAppInfo=1')).toEqual({
      locale: { locale: 'zh-HK', fromPrefix: false, path: '/concerts' },
      currency: 'SGD',
      cityId: 350,
      hidePopBox: true,
      hideAppInfo: true,
      session: null,
      sessionClaimed: false,
      channel: null,
    });
  });

  it('makes no choice without cookies: the page falls back', () => {
    expect(visitor('/', null)).toEqual({
      locale: { locale: 'en', fromPrefix: false, path: '/' },
      currency: null,
      cityId: null,
      hidePopBox: false,
      hideAppInfo: false,
      session: null,
      sessionClaimed: false,
      channel: null,
    });
  });

  it('takes the language from the URL prefix, then the cookie, then Accept-Language', () => {
    expect(visitor('/zh-CN/about', 'language=en', 'zh-TW').locale).toEqual({ locale: 'zh-CN', fromPrefix: true, path: '/about' });
    expect(visitor('/about', 'language=en', 'zh-TW').locale.locale).toBe('en');
    expect(visitor('/about', null, 'zh-TW').locale.locale).toBe('zh-TW');
  });

  it('trims spaces and tabs around names and values, as browsers send them', () => {
    expect(visitor('/', ' currencyCode =\tUSD ;cityId=343 ')).toMatchObject({ currency: 'USD', cityId: 343 });
  });

  it('ignores a quoted, percent-encoded or otherwise malformed choice', () => {
    for (const cookieHeader of [
      'currencyCode="USD"',
      'currencyCode=%55SD',
      'currencyCode=US',
      'currencyCode=',
      'cityId="350"',
      'cityId=35\\',
      'cityId=0',
      'cityId=-3',
      'cityId=1234567890',
      'cityId=3.5',
      'language="zh-CN"',
      'language=zh-cn',
      'language=zh%2DCN',
    ]) {
      const parsed = visitor('/about', cookieHeader);
      expect([parsed.currency, parsed.cityId, parsed.locale.locale], cookieHeader).toEqual([null, null, 'en']);
    }
  });

  it('ignores a choice sent more than once, whichever value comes first', () => {
    for (const cookieHeader of [
      'cityId=35\0; cityId=350',
      'cityId=35\\; cityId=350',
      'cityId=350; cityId=35\\',
      'cityId=350; cityId=350',
      'currencyCode=USD; currencyCode=SGD',
      'language=xx; language=zh-CN',
      'language=zh-CN; language=zh-CN',
    ]) {
      const parsed = visitor('/about', cookieHeader);
      expect([parsed.currency, parsed.cityId, parsed.locale.locale], cookieHeader).toEqual([null, null, 'en']);
    }
  });

  it('claims a session only with both cookies, each sent once in its shape', () => {
    expect(visitor('/', 'pner=abc_DEF-123; pnid=42').session).toEqual({ token: 'abc_DEF-123', userId: '42' });
    for (const cookieHeader of [
      'pner=abc',
      'pnid=42',
      'pner=x\\y; pnid=1\\',
      'pner="abc"; pnid=42',
      'pner=abc; pnid=042',
      'pner=abc; pner=abd; pnid=42',
    ]) {
      expect(visitor('/', cookieHeader).session, cookieHeader).toBeNull();
      expect(visitor('/', cookieHeader).sessionClaimed, cookieHeader).toBe(true);
    }
    expect(visitor('/', `pner=${'a'.repeat(129)}; pnid=42`).session).toBeNull();
    expect(visitor('/', 'pnerx=abc; xpnid=42').sessionClaimed).toBe(false);
  });

  it('hides the home page boxes for a hide cookie, whatever its value', () => {
    expect(visitor('/', 'hidePopBox=""; hideAppInfo=1; hideAppInfo=2')).toMatchObject({ hidePopBox: true, hideAppInfo: true });
  });

  it('records a well-formed channel of the URL only', () => {
    expect(visitor('/?channel=partner.one').channel).toBe('partner.one');
    expect(visitor('/?channel=').channel).toBeNull();
    expect(visitor('/?channel=%3Cscript%3E').channel).toBeNull();
  });
});
