import { describe, expect, it } from 'vitest';
import { formatSessionTime } from '../../src/lib/domain/session-time.ts';
import { venueMapUrl } from '../../src/lib/domain/venue.ts';

describe('venue map link', () => {
  it('opens Google Maps at the coordinates outside Mainland China', () => {
    const url = new URL(venueMapUrl({ name: 'Hong Kong Coliseum', longitude: 114.1823, latitude: 22.3018, inMainlandChina: false }));
    expect(url.origin + url.pathname).toBe('https://www.google.com/maps/search/');
    expect(url.searchParams.get('api')).toBe('1');
    expect(url.searchParams.get('query')).toBe('22.3018,114.1823');
  });

  it('opens Amap with WGS84 coordinates and the venue name in Mainland China', () => {
    const url = new URL(venueMapUrl({ name: '国家大剧院', longitude: 116.3893, latitude: 39.9036, inMainlandChina: true }));
    expect(url.origin + url.pathname).toBe('https://uri.amap.com/marker');
    expect(url.searchParams.get('position')).toBe('116.3893,39.9036');
    expect(url.searchParams.get('name')).toBe('国家大剧院');
    expect(url.searchParams.get('coordinate')).toBe('wgs84');
  });
});

describe('session time', () => {
  // 2026-12-05 19:30 in Hong Kong is 11:30 UTC.
  const start = Date.UTC(2026, 11, 5, 11, 30);

  it('shows date, weekday and 24-hour time in the venue time zone', () => {
    expect(formatSessionTime(start, 'en', 'Asia/Hong_Kong')).toBe('Sat, 12/05/2026, 19:30');
    expect(formatSessionTime(start, 'zh-CN', 'Asia/Hong_Kong')).toContain('2026/12/05');
    expect(formatSessionTime(start, 'zh-CN', 'Asia/Hong_Kong')).toContain('19:30');
  });

  it('moves with the venue time zone', () => {
    expect(formatSessionTime(start, 'en', 'Asia/Bangkok')).toContain('18:30');
  });
});
