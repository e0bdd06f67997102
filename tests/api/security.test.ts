/**
 * What a security review probes on every answer: the headers, the one cross-site check, and text
 * that is not well-formed Unicode (refused on its field) or not in NFC (stored normalised).
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { sellerClient, signedInClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';

beforeAll(async () => {
  await seed();
});

const LONE_SURROGATE = '\uD800';

describe('security headers', () => {
  it('go with every API answer, errors included; HSTS only from a deployed build', async () => {
    for (const path of ['/api/v1/currency', '/api/v1/no-such-route']) {
      const answer = await new TestClient().call(path);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers.has('strict-transport-security')).toBe(false);
    }
    const deployed = await new TestClient({ APP_ENV: 'production', PUBLIC_ORIGIN: 'https://tickets.example.com' }).call('/api/v1/currency');
    expect(deployed.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
  });
});

describe('the cross-site check', () => {
  const address = {
    name: 'Chan Tai Man',
    phoneCountryCode: '+852',
    phone: '91234567',
    countryCode: 'HK',
    district: 'WC',
    street: "1 Queen's Road East",
  };

  it("refuses a write from another origin or site with the envelope, in the caller's language", async () => {
    const client = await signedInClient('crosssite');
    const refused: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
    ];
    for (const headers of refused) {
      const answer = await client.call('/api/v1/addresses', { method: 'POST', body: address, headers: { ...headers, language: 'zh-HK' } });
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.headers.get('content-type')).toContain('application/json');
      expect(answer.body).toMatchObject({
        code: 403,
        data: null,
        errorCode: 'cross_site_request',
        message: expect.stringContaining('其他網站'),
      });
    }
    expect((await client.call('/api/v1/addresses')).body.data).toEqual([]);
  });

  it('refuses a form-shaped POST that says nowhere where it comes from (a forged form in an old browser)', async () => {
    const client = await signedInClient('crosssite');
    for (const contentType of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain']) {
      const forged = await client.call('/api/v1/addresses', { method: 'POST', headers: { 'content-type': contentType } });
      expect(forged.body.errorCode, contentType).toBe('cross_site_request');
    }
  });

  it('lets our own pages, and apps and scripts that send no Origin, through', async () => {
    const client = await signedInClient('crosssite');
    const own = await client.call<{ id: number }>('/api/v1/addresses', {
      method: 'POST',
      body: address,
      headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
    });
    expect(own.status).toBe(200);
    const script = await client.call<{ id: number }>('/api/v1/addresses', { method: 'POST', body: address });
    expect(script.status).toBe(200);
    // A body-less DELETE from a client with no Origin (Astro's own check refused it).
    expect((await client.call(`/api/v1/addresses/${script.body.data.id}`, { method: 'DELETE' })).status).toBe(200);
    // A deployed build knows its public origin: a page served there passes.
    const deployed = new TestClient({ APP_ENV: 'production', PUBLIC_ORIGIN: 'https://tickets.example.com' });
    deployed.cookies.clear();
    for (const [name, value] of client.cookies) deployed.cookies.set(name, value);
    expect(
      (await deployed.call('/api/v1/addresses', { method: 'POST', body: address, headers: { origin: 'https://tickets.example.com' } }))
        .status,
    ).toBe(200);
    // Reading is never refused: a cross-site GET changes nothing.
    expect(
      (await client.call('/api/v1/addresses', { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })).status,
    ).toBe(200);
  });

  it('leaves payment webhooks to their signature', async () => {
    const answer = await new TestClient().call('/api/v1/payments/webhooks/sandbox', {
      method: 'POST',
      body: 'x=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.body.errorCode).not.toBe('cross_site_request');
  });
});

describe('free text', () => {
  /** Every write that takes text a person typed, with the field the broken text goes into. */
  const writes: { method: string; path: string; body: Record<string, unknown>; field: string }[] = [
    { method: 'POST', path: '/api/v1/addresses', body: { name: LONE_SURROGATE, countryCode: 'HK' }, field: 'name' },
    { method: 'POST', path: '/api/v1/addresses', body: { name: 'Chan', street: `1 Queen's Road ${LONE_SURROGATE}` }, field: 'street' },
    { method: 'PUT', path: '/api/v1/addresses/1', body: { name: 'Chan', city: LONE_SURROGATE }, field: 'city' },
    {
      method: 'POST',
      path: '/api/v1/attendees',
      body: { name: `Chan${LONE_SURROGATE}`, idType: 'hk_id', idNumber: 'A1234563' },
      field: 'name',
    },
    { method: 'PUT', path: '/api/v1/user/profile', body: { nickname: `Tai Man${LONE_SURROGATE}` }, field: 'nickname' },
    { method: 'POST', path: '/api/v1/orders', body: { listingId: 1, takerName: LONE_SURROGATE }, field: 'takerName' },
    { method: 'POST', path: '/api/v1/seller/orders/1/fail', body: { reason: `Sold out${LONE_SURROGATE}` }, field: 'reason' },
    {
      method: 'POST',
      path: '/api/v1/seller/orders/1/fulfil',
      body: { method: 'on_site', pickupAddress: LONE_SURROGATE },
      field: 'pickupAddress',
    },
    {
      method: 'POST',
      path: '/api/v1/seller/orders/1/fulfil',
      body: { method: 'seat', seats: ['A1', `A2${LONE_SURROGATE}`] },
      field: 'seats.1',
    },
    { method: 'POST', path: '/api/v1/gate/sessions/1/admissions', body: { code: LONE_SURROGATE }, field: 'code' },
  ];

  it('refuses text that is not well-formed Unicode with a localized 400 on its field, on every write', async () => {
    const client = await signedInClient('unicode');
    const seller = await env.DB.prepare('SELECT seller_id AS id FROM listings LIMIT 1').first<{ id: number }>();
    const asSeller = await sellerClient(seller!.id);
    for (const write of writes) {
      const writer = write.path.startsWith('/api/v1/seller/') ? asSeller : client;
      const answer = await writer.call(write.path, {
        method: write.method,
        body: write.body,
        headers: { language: 'zh-CN', 'idempotency-key': crypto.randomUUID() },
      });
      expect(answer.status, `${write.method} ${write.path}`).toBe(400);
      expect(answer.body, `${write.method} ${write.path}`).toMatchObject({
        errorCode: 'text_malformed',
        field: write.field,
        message: expect.stringContaining('损坏'),
      });
    }
    // Nothing was stored.
    expect((await client.call('/api/v1/addresses')).body.data).toEqual([]);
  });

  it('refuses it in sign-in forms and search too', async () => {
    const login = await new TestClient().post('/api/v1/user/mail/login', {
      email: `a${LONE_SURROGATE}@example.com`,
      loginType: 'password',
      password: 'x',
    });
    expect(login.body).toMatchObject({ errorCode: 'text_malformed', field: 'email' });
    const suggest = await new TestClient().call(`/api/v1/activities/suggest?input=${encodeURIComponent('劉')}%ED%A0%80`);
    // A query string cannot carry a lone surrogate: the broken bytes decode to U+FFFD, which is well-formed.
    expect(suggest.status).toBe(200);
  });

  it('stores text NFC-normalised, so the same name typed two ways is one name', async () => {
    const client = await signedInClient('unicode');
    const decomposed = 'Cafe\u0301 Chan';
    const created = await client.post<{ id: number }>('/api/v1/addresses', {
      name: decomposed,
      phoneCountryCode: '+852',
      phone: '91234567',
      countryCode: 'HK',
      district: 'WC',
      street: 'Rue de l\u2019Église 1',
    });
    expect(created.status).toBe(200);
    const row = await env.DB.prepare('SELECT name FROM addresses WHERE id = ?').bind(created.body.data.id).first<{ name: string }>();
    expect(row?.name).toBe('Caf\u00e9 Chan');
    expect(row?.name).not.toBe(decomposed);
  });
});
