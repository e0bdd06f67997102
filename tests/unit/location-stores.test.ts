import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GEOLOCATION_OPTIONS } from '../../src/lib/config/browse.ts';
import {
  $locationCity,
  chooseCity,
  forgetLocationCity,
  LocationError,
  locateByNetwork,
  locateWithBrowser,
} from '../../src/lib/browser/city.ts';
import { hideForToday } from '../../src/lib/browser/hide-for-today.ts';
import { confirmPreferences } from '../../src/lib/browser/preferences.ts';

/** A Map-backed localStorage for Node. */
function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
    removeItem: (key: string) => void items.delete(key),
    items,
  };
}

type Answer = { code: number; data: unknown };
let calls: { url: URL; init: RequestInit }[];

function answer(byPath: Record<string, Answer>) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: URL, init: RequestInit) => {
      calls.push({ url, init });
      const found = byPath[url.pathname] ?? { code: 404, data: null };
      return Response.json({ ...found, message: found.code === 200 ? '' : 'failed' }, { status: found.code });
    }),
  );
}

function geolocation(outcome: { coords: { latitude: number; longitude: number } } | { code: number }) {
  const getCurrentPosition = vi.fn((ok: PositionCallback, fail: PositionErrorCallback, _options?: PositionOptions) => {
    if ('coords' in outcome) ok(outcome as unknown as GeolocationPosition);
    else fail(outcome as GeolocationPositionError);
  });
  vi.stubGlobal('navigator', { geolocation: { getCurrentPosition } });
  return getCurrentPosition;
}

let storage: ReturnType<typeof memoryStorage>;
beforeEach(() => {
  storage = memoryStorage();
  vi.stubGlobal('localStorage', storage);
  $locationCity.set(null);
});
afterEach(() => vi.unstubAllGlobals());

describe('city store', () => {
  it('saves a chosen city on the server and in local storage', async () => {
    answer({ '/api/api/v1/cities/user/save': { code: 200, data: { cityId: 342, cityName: 'Macao', cityCode: 'macao' } } });
    await expect(chooseCity(342)).resolves.toEqual({ cityId: 342, cityName: 'Macao' });
    expect(calls[0].init.method).toBe('POST');
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ cityId: 342 });
    expect(JSON.parse(storage.getItem('currentCity')!)).toEqual({ cityId: 342, cityName: 'Macao' });
  });

  it('keeps nothing when the server refuses the city', async () => {
    answer({});
    await expect(chooseCity(1)).rejects.toThrow();
    expect(storage.getItem('currentCity')).toBeNull();
  });

  it('locates with the browser (high accuracy, 5 s, no cache) and remembers the nearest city', async () => {
    const getCurrentPosition = geolocation({ coords: { latitude: 22.2, longitude: 113.55 } });
    answer({ '/api/api/v1/cities/currentPosition': { code: 200, data: { cityId: 342, cityName: 'Macao' } } });
    await expect(locateWithBrowser()).resolves.toEqual({ cityId: 342, cityName: 'Macao' });
    expect(getCurrentPosition.mock.calls[0][2]).toEqual(GEOLOCATION_OPTIONS);
    expect(GEOLOCATION_OPTIONS).toEqual({ enableHighAccuracy: true, timeout: 5000, maximumAge: 0 });
    expect(calls[0].url.searchParams.get('latitude')).toBe('22.2');
    expect(calls[0].url.searchParams.get('longitude')).toBe('113.55');
    expect(storage.getItem('authorizedPosition')).toBe('true');
    expect($locationCity.get()).toEqual({ cityId: 342, cityName: 'Macao' });
    expect(JSON.parse(storage.getItem('locationCity')!)).toEqual({ cityId: 342, cityName: 'Macao' });
  });

  it.each([
    [1, 'denied'],
    [2, 'unavailable'],
    [3, 'timeout'],
    [0, 'unknown'],
  ])('turns geolocation error %i into the %s failure', async (code, failure) => {
    storage.setItem('authorizedPosition', 'true');
    geolocation({ code });
    answer({});
    const error = await locateWithBrowser().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocationError);
    expect((error as LocationError).failure).toBe(failure);
    expect(calls).toHaveLength(0);
    // A refusal withdraws the stored authorisation; other failures leave it.
    expect(storage.getItem('authorizedPosition')).toBe(failure === 'denied' ? null : 'true');
  });

  it('reports "unable to get your location" without geolocation, or when no city is found', async () => {
    vi.stubGlobal('navigator', {});
    await expect(locateWithBrowser()).rejects.toMatchObject({ failure: 'unsupported' });
    geolocation({ coords: { latitude: 1, longitude: 2 } });
    answer({ '/api/api/v1/cities/currentPosition': { code: 500, data: null } });
    await expect(locateWithBrowser()).rejects.toMatchObject({ failure: 'unsupported' });
  });

  it('locates by network on the home page only without a stored city or an authorised position', async () => {
    answer({ '/api/api/v1/cities/currentPosition': { code: 200, data: { cityId: 343, cityName: 'Taipei' } } });
    await locateByNetwork();
    expect(calls).toHaveLength(1);
    expect(calls[0].url.search).toBe('');
    expect($locationCity.get()).toEqual({ cityId: 343, cityName: 'Taipei' });

    storage.setItem('currentCity', JSON.stringify({ cityId: 341, cityName: 'Hong Kong' }));
    await locateByNetwork();
    storage.removeItem('currentCity');
    storage.setItem('authorizedPosition', 'true');
    await locateByNetwork();
    expect(calls).toHaveLength(1);
  });

  it('ignores a failed network lookup', async () => {
    answer({});
    await expect(locateByNetwork()).resolves.toBeUndefined();
    expect(storage.getItem('locationCity')).toBeNull();
  });

  it('forgets the location city', () => {
    storage.setItem('locationCity', '{"cityId":342,"cityName":"Macao"}');
    $locationCity.set({ cityId: 342, cityName: 'Macao' });
    forgetLocationCity();
    expect(storage.getItem('locationCity')).toBeNull();
    expect($locationCity.get()).toBeNull();
  });
});

describe('preferences store', () => {
  const zhHK = { id: 2, code: 'zh-HK', name: '繁體中文' };
  const hkd = { code: 'HKD', desc: 'Hong Kong Dollar', currencyType: 1 };
  const twd = { code: 'TWD', desc: 'New Taiwan Dollar', currencyType: 3 };
  const saved = {
    '/api/api/v1/currency/save': { code: 200, data: {} },
    '/api/api/v1/user/language/save': { code: 200, data: {} },
  };

  it('forgets the location city, saves a newly picked currency, then the language', async () => {
    storage.setItem('locationCity', '{"cityId":342,"cityName":"Macao"}');
    answer(saved);
    await confirmPreferences(zhHK, twd, 'HKD');
    expect(storage.getItem('locationCity')).toBeNull();
    expect(calls.map((call) => call.url.pathname)).toEqual(['/api/api/v1/currency/save', '/api/api/v1/user/language/save']);
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ currencyType: 3 });
    expect(JSON.parse(String(calls[1].init.body))).toEqual({ languageId: 2 });
    expect(storage.getItem('currencyCode')).toBe('TWD');
    expect(storage.getItem('language')).toBe('zh-HK');
  });

  it('saves no currency when none is stored and the shown one is kept', async () => {
    answer(saved);
    await confirmPreferences(zhHK, hkd, 'HKD');
    expect(calls.map((call) => call.url.pathname)).toEqual(['/api/api/v1/user/language/save']);
    expect(storage.getItem('currencyCode')).toBeNull();
  });

  it('saves the currency whenever one is stored', async () => {
    storage.setItem('currencyCode', 'HKD');
    answer(saved);
    await confirmPreferences(zhHK, hkd, 'HKD');
    expect(calls.map((call) => call.url.pathname)).toEqual(['/api/api/v1/currency/save', '/api/api/v1/user/language/save']);
  });

  it('stops, changing nothing stored, when the currency cannot be saved', async () => {
    answer({ '/api/api/v1/user/language/save': { code: 200, data: {} } });
    await expect(confirmPreferences(zhHK, twd, 'HKD')).rejects.toThrow();
    expect(calls).toHaveLength(1);
    expect(storage.getItem('currencyCode')).toBeNull();
    expect(storage.getItem('language')).toBeNull();
  });

  it('hides something until the end of the local day with a cookie', () => {
    const jar = { cookie: '' };
    vi.stubGlobal('document', jar);
    hideForToday('hideAppInfo');
    expect(jar.cookie).toMatch(/^hideAppInfo=1; Path=\/; Expires=[^;]+; SameSite=Lax$/);
    const expires = new Date(/Expires=([^;]+)/.exec(jar.cookie)![1]);
    const now = new Date();
    expect(expires.getTime()).toBeGreaterThan(now.getTime());
    expect(expires.getTime() - now.getTime()).toBeLessThanOrEqual(24 * 3600 * 1000);
  });
});
