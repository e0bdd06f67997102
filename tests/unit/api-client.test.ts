import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiClientError, apiUrl, callOptions, messageOf, unwrap } from '../../src/lib/browser/api-client.ts';

afterEach(() => vi.unstubAllGlobals());

describe('apiUrl', () => {
  it('keeps /api paths and puts bare paths under /api/api', () => {
    expect(apiUrl('/api/v1/currency/list').pathname).toBe('/api/v1/currency/list');
    expect(apiUrl('v1/cities/hotCity').pathname).toBe('/api/api/v1/cities/hotCity');
    expect(apiUrl('v1/x', { ignoreCityId: true, skip: undefined }).search).toBe('?ignoreCityId=true');
  });
});

describe('messageOf', () => {
  it('reads message, errorMsg, errorHint, else the body', () => {
    expect(messageOf({ message: 'a', errorMsg: 'b' })).toBe('a');
    expect(messageOf({ message: '', errorMsg: 'b' })).toBe('b');
    expect(messageOf({ errorHint: 'c' })).toBe('c');
    expect(messageOf({ other: 1 })).toBe('{"other":1}');
  });
});

describe('the typed client', () => {
  it('sends the spec headers and unwraps the envelope', async () => {
    const fetchMock = vi.fn(async () => Response.json({ code: 200, data: { ok: true }, message: '' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(
      unwrap(api.v1.activities.suggest.$get({ query: { input: 'x', ignoreCityId: 'true' } }, callOptions({ language: 'zh-HK' }))),
    ).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit];
    expect(url.pathname).toBe('/api/api/v1/activities/suggest');
    const headers = init.headers as Headers;
    expect(headers.get('language')).toBe('zh-HK');
    expect(headers.get('client-type')).toBe('12');
    expect(headers.get('city-id')).toBe('-1');
    expect(headers.get('currency')).toBe('HKD');
    expect(init.credentials).toBe('include');
  });

  it('rejects a body code above 200 even with HTTP 200', async () => {
    vi.stubGlobal('fetch', async () => Response.json({ code: 409, errorMsg: 'Sold out', data: null }));
    const error = await unwrap(api.v1.currency.$get()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ kind: 'http', status: 409, message: 'Sold out' });
  });

  it('reports a network failure by kind', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(unwrap(api.v1.currency.$get())).rejects.toMatchObject({ kind: 'network' });
  });
});
