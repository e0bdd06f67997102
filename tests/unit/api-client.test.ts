import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClientError, apiUrl, messageOf, request } from '../../src/lib/api/client.ts';

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

describe('request', () => {
  it('sends the spec headers and unwraps the envelope', async () => {
    const fetchMock = vi.fn(async () => Response.json({ code: 200, data: { ok: true }, message: '' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(request('/api/v1/currency', { language: 'zh-HK', query: { ignoreCityId: true } })).resolves.toEqual({ ok: true });
    const [, init] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit];
    const headers = init.headers as Headers;
    expect(headers.get('language')).toBe('zh-HK');
    expect(headers.get('client-type')).toBe('12');
    expect(headers.get('city-id')).toBe('-1');
    expect(headers.get('currency')).toBe('HKD');
    expect(init.credentials).toBe('include');
  });

  it('rejects a body code above 200 even with HTTP 200', async () => {
    vi.stubGlobal('fetch', async () => Response.json({ code: 409, errorMsg: 'Sold out', data: null }));
    const error = await request('/api/v1/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ kind: 'http', status: 409, message: 'Sold out' });
  });

  it('reports a network failure by kind', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(request('/api/v1/x')).rejects.toMatchObject({ kind: 'network' });
  });
});
