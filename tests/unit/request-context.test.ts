import { describe, expect, it } from 'vitest';
import { readRequestContext, type ContextSources } from '../../src/lib/domain/request-context.ts';
import { visitorOf } from '../../src/lib/domain/visitor.ts';

function sources(headers: Record<string, string>, cookies: Record<string, string> = {}, ignoreCityId = false): ContextSources {
  const cookieHeader = Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  return {
    header: (name) => headers[name],
    visitor: visitorOf({
      url: new URL('https://tickets.example/api/v1/x'),
      cookieHeader,
      acceptLanguage: headers['accept-language'] ?? null,
    }),
    ignoreCityId,
    knownCurrencies: new Set(['HKD', 'TWD', 'USD']),
  };
}

describe('readRequestContext', () => {
  it('defaults to en, HKD, client 12 and Hong Kong', () => {
    expect(readRequestContext(sources({}))).toEqual({ locale: 'en', currency: 'HKD', clientType: 12, cityId: 341 });
  });

  it('prefers headers to cookies', () => {
    const ctx = readRequestContext(
      sources({ language: 'zh-TW', currency: 'twd', 'city-id': '12' }, { language: 'zh-CN', currencyCode: 'USD', cityId: '99' }),
    );
    expect(ctx).toMatchObject({ locale: 'zh-TW', currency: 'TWD', cityId: 12 });
  });

  it('falls back to cookies, then defaults, when headers are malformed', () => {
    const ctx = readRequestContext(
      sources({ language: 'xx', currency: 'ZZZ', 'city-id': '12abc', 'client-type': '-3' }, { currencyCode: 'USD', cityId: '0' }),
    );
    expect(ctx).toEqual({ locale: 'en', currency: 'USD', clientType: 12, cityId: 341 });
  });

  it('falls back to Accept-Language for the language', () => {
    expect(readRequestContext(sources({ 'accept-language': 'zh-TW' })).locale).toBe('zh-TW');
    expect(readRequestContext(sources({ 'accept-language': 'zh-TW' }, { language: 'zh-CN' })).locale).toBe('zh-CN');
  });

  it('sends city id -1 when the city is ignored', () => {
    expect(readRequestContext(sources({ 'city-id': '12' }, {}, true)).cityId).toBe(-1);
  });
});
