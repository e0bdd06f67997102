import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_ADDRESSES } from '../../src/lib/services/accounts/addresses.ts';
import { signedInClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';

const hongKong = {
  name: 'Chan Tai Man',
  phoneCountryCode: '+852',
  phone: '91234567',
  countryCode: 'HK',
  province: '',
  city: '',
  district: 'WC',
  street: "1 Queen's Road East",
  postcode: '',
};

const signedIn = () => signedInClient('addresses');

beforeAll(async () => {
  await seed();
});

describe('countries and regions', () => {
  it('lists every country named in the request language', async () => {
    const english = await new TestClient().call<{ code: string; name: string }[]>('/api/v1/countries');
    expect(english.body.data.length).toBeGreaterThanOrEqual(240);
    expect(english.body.data[0]).toEqual({ code: 'HK', name: expect.stringContaining('Hong Kong') });
    const chinese = await new TestClient().call<{ code: string; name: string }[]>('/api/api/v1/countries', {
      headers: { language: 'zh-CN' },
    });
    expect(chinese.body.data.find((country) => country.code === 'JP')?.name).toBe('日本');
  });

  it('offers the Hong Kong districts and null for free-text countries; a malformed code is bad input', async () => {
    const hk = await new TestClient().call<{ level: string; options: { code: string; name: string }[] }>('/api/v1/regions/HK', {
      headers: { language: 'zh-HK' },
    });
    expect(hk.body.data.level).toBe('district');
    expect(hk.body.data.options).toContainEqual({ code: 'WC', name: '灣仔區' });
    expect((await new TestClient().call('/api/v1/regions/JP')).body.data).toBeNull();
    expect((await new TestClient().call('/api/v1/regions/hongkong')).status).toBe(400);
  });
});

describe('addresses', () => {
  it('needs a session', async () => {
    const answer = await new TestClient().call('/api/v1/addresses');
    expect(answer.status).toBe(401);
  });

  it('creates, lists, edits and deletes an address', async () => {
    const client = await signedIn();
    const created = await client.post<{ id: number; area: string; countryName: string }>('/api/v1/addresses', hongKong);
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ ...hongKong, area: 'Wan Chai' });
    const { id } = created.body.data;

    const listed = await client.call<{ id: number }[]>('/api/v1/addresses');
    expect(listed.body.data.map((address) => address.id)).toEqual([id]);

    const edited = await client.call(`/api/v1/addresses/${id}`, {
      method: 'PUT',
      body: { ...hongKong, countryCode: 'JP', district: 'Shibuya', city: 'Tokyo' },
    });
    expect(edited.body.data).toMatchObject({ id, countryCode: 'JP', area: 'Tokyo Shibuya' });
    const read = await client.call(`/api/v1/addresses/${id}`, { headers: { language: 'zh-TW' } });
    expect(read.body.data).toMatchObject({ countryName: '日本', district: 'Shibuya' });

    expect((await client.call(`/api/v1/addresses/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await client.call<unknown[]>('/api/v1/addresses')).body.data).toEqual([]);
    const again = await client.call(`/api/v1/addresses/${id}`, { method: 'DELETE' });
    expect(again.body).toMatchObject({ code: 404, errorCode: 'address_not_found' });
  });

  it("answers every field problem with the spec's message and the field, and saves nothing", async () => {
    const client = await signedIn();
    const cases: [Partial<typeof hongKong>, string, string, string][] = [
      [{ name: '', phone: '', street: '' }, 'required_info_empty', 'name', 'Required info cannot be empty'],
      [{ name: '' }, 'name_required', 'name', 'Please fill in the name'],
      [{ phone: '12-34' }, 'phone_malformed', 'phone', 'Malformed phone number'],
      [{ phone: '' }, 'phone_required', 'phone', 'Phone cannot be empty'],
      [{ countryCode: '' }, 'country_required', 'countryCode', 'Please select a country or region'],
      [{ district: '' }, 'area_required', 'district', 'Please select a receiving area'],
      [{ street: ' ' }, 'street_required', 'street', 'Address can not be empty'],
      [{ postcode: '%%' }, 'postcode_invalid', 'postcode', 'Please enter a valid postcode'],
    ];
    for (const [change, errorCode, field, message] of cases) {
      const answer = await client.post('/api/v1/addresses', { ...hongKong, ...change });
      expect(answer.body).toMatchObject({ code: 400, errorCode, field, message });
    }
    const chinese = await client.call('/api/v1/addresses', {
      method: 'POST',
      body: { ...hongKong, district: '' },
      headers: { language: 'zh-CN' },
    });
    expect(chinese.body.message).toBe('请选择收货地区');
    const tooLong = await client.post('/api/v1/addresses', { ...hongKong, street: 'x'.repeat(201) });
    expect(tooLong.body).toMatchObject({ code: 400, errorCode: 'invalid_input', field: 'street' });
    expect((await client.call<unknown[]>('/api/v1/addresses')).body.data).toEqual([]);
  });

  it("answers 404 for another user's address and changes nothing", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const { body } = await owner.post<{ id: number }>('/api/v1/addresses', hongKong);
    const id = body.data.id;
    for (const init of [{}, { method: 'PUT', body: { ...hongKong, name: 'Thief' } }, { method: 'DELETE' }]) {
      const answer = await other.call(`/api/v1/addresses/${id}`, init);
      expect(answer.body).toMatchObject({ code: 404, errorCode: 'address_not_found' });
    }
    expect((await other.call<unknown[]>('/api/v1/addresses')).body.data).toEqual([]);
    expect((await owner.call(`/api/v1/addresses/${id}`)).body.data).toMatchObject({ name: 'Chan Tai Man' });
    expect((await owner.call('/api/v1/addresses/abc')).status).toBe(400);
  });

  it(`keeps at most ${MAX_ADDRESSES} addresses per user`, async () => {
    const client = await signedIn();
    for (let i = 0; i < MAX_ADDRESSES; i += 1) {
      expect((await client.post('/api/v1/addresses', { ...hongKong, street: `${i} Hennessy Road` })).status).toBe(200);
    }
    const refused = await client.post('/api/v1/addresses', hongKong);
    expect(refused.body).toMatchObject({
      code: 409,
      errorCode: 'address_limit_reached',
      message: `You can keep at most ${MAX_ADDRESSES} addresses. Delete one to add another.`,
    });
    expect((await client.call<unknown[]>('/api/v1/addresses')).body.data).toHaveLength(MAX_ADDRESSES);
  });

  it('holds the cap when many addresses are added at once', async () => {
    const client = await signedIn();
    const attempts = MAX_ADDRESSES + 10;
    const results = await Promise.all(
      Array.from({ length: attempts }, (_, i) => client.post('/api/v1/addresses', { ...hongKong, street: `${i} Queen's Road` })),
    );
    expect(results.filter((result) => result.status === 200).length).toBeLessThanOrEqual(MAX_ADDRESSES);
    expect(results.every((result) => result.status === 200 || result.body.errorCode === 'address_limit_reached')).toBe(true);
    const stored = (await client.call<unknown[]>('/api/v1/addresses')).body.data;
    expect(stored.length).toBe(results.filter((result) => result.status === 200).length);
    expect(stored.length).toBeLessThanOrEqual(MAX_ADDRESSES);
  });
});
