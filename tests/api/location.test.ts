import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import { users } from '../../src/lib/db/schema.ts';
import { createSession } from '../../src/lib/services/accounts/sessions.ts';
import type { CityView } from '../../src/lib/services/catalogue/catalogue.ts';
import { call, seed } from './helpers.ts';

beforeAll(() => seed());

const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** The cookies a response sets, by name. */
function setCookies(headers: Headers): Record<string, string> {
  return Object.fromEntries(
    headers.getSetCookie().map((line) => {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      return [pair.slice(0, at), line];
    }),
  );
}

const cookieValue = (line: string) => line.split(';')[0].split('=')[1];

async function history(): Promise<{ user_id: number | null; device_id: string | null; city_id: number }[]> {
  const { results } = await env.DB.prepare('SELECT user_id, device_id, city_id FROM location_history ORDER BY id').all();
  return results as never;
}

describe('GET /api/api/v1/cities/autocompletion', () => {
  it('matches city names case-insensitively, own-name prefixes first', async () => {
    const { status, body } = await call<CityView[]>('/api/api/v1/cities/autocompletion?keyword=MAC');
    expect(status).toBe(200);
    expect(body.data[0]).toMatchObject({ cityId: 342, cityEnName: 'Macao', cityName: 'Macao' });
  });

  it('lists the cities of a country, and matches Chinese names in the request language', async () => {
    const taiwan = await call<CityView[]>('/api/api/v1/cities/autocompletion?keyword=taiwan');
    expect(taiwan.body.data.map((c) => c.cityEnName).sort()).toEqual(['Kaohsiung', 'Taichung', 'Taipei']);
    const chinese = await call<CityView[]>(`/api/api/v1/cities/autocompletion?keyword=${encodeURIComponent('台')}`, {
      headers: { language: 'zh-HK' },
    });
    expect(chinese.body.data.map((c) => c.cityName)).toEqual(expect.arrayContaining(['台北', '台中']));
  });

  it('answers an empty list for no match, with LIKE wildcards taken literally', async () => {
    for (const keyword of ['Atlantis', '%', '_', '\\']) {
      const { status, body } = await call<CityView[]>(`/api/api/v1/cities/autocompletion?keyword=${encodeURIComponent(keyword)}`);
      expect(status, keyword).toBe(200);
      expect(body.data, keyword).toEqual([]);
    }
  });

  it('rejects a missing, blank or overlong keyword', async () => {
    for (const query of ['', '?keyword=', '?keyword=%20%20', `?keyword=${'x'.repeat(51)}`]) {
      const { status, body } = await call(`/api/api/v1/cities/autocompletion${query}`);
      expect(status, query).toBe(400);
      expect(body).toMatchObject({ errorCode: 'invalid_input', field: 'keyword' });
    }
  });
});

describe('GET /api/v1/cities/currentPosition', () => {
  it('answers the city nearest to a position', async () => {
    const macao = await call<{ cityId: number; cityName: string }>('/api/v1/cities/currentPosition?latitude=22.19&longitude=113.54');
    expect(macao.body.data).toEqual({ cityId: 342, cityName: 'Macao' });
    const taipei = await call<{ cityId: number; cityName: string }>('/api/api/v1/cities/currentPosition?latitude=25.1&longitude=121.4', {
      headers: { language: 'zh-CN' },
    });
    expect(taipei.body.data).toEqual({ cityId: 343, cityName: '台北' });
    const sea = await call<{ cityId: number }>('/api/v1/cities/currentPosition?latitude=-6.5&longitude=106.9');
    expect(sea.body.data.cityId).toBe(354);
  });

  it('falls back to the network location without coordinates, and answers null without either', async () => {
    const located = await call<{ cityId: number }>('/api/v1/cities/currentPosition', {
      cf: { latitude: '1.29', longitude: '103.85' },
    } as RequestInit);
    expect(located.body.data.cityId).toBe(350);
    const unknown = await call('/api/v1/cities/currentPosition');
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toBeNull();
  });

  it('rejects half a position or one off the globe, naming the field', async () => {
    const cases: [string, string][] = [
      ['latitude=22.3', 'longitude'],
      ['longitude=114', 'latitude'],
      ['latitude=91&longitude=114', 'latitude'],
      ['latitude=22&longitude=-181', 'longitude'],
      ['latitude=abc&longitude=114', 'latitude'],
    ];
    for (const [query, field] of cases) {
      const { status, body } = await call(`/api/v1/cities/currentPosition?${query}`);
      expect(status, query).toBe(400);
      expect(body.field, query).toBe(field);
    }
  });
});

describe('saving the chosen city', () => {
  it('sets the city cookie and a device id, and records the location history', async () => {
    const before = (await history()).length;
    const { status, body, headers } = await call<CityView>('/api/api/v1/cities/user/save', post({ cityId: 343 }, { language: 'zh-HK' }));
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ cityId: 343, cityName: '台北' });
    const cookies = setCookies(headers);
    expect(cookieValue(cookies.cityId)).toBe('343');
    expect(cookies.cityId).toMatch(/Path=\//);
    expect(cookies.cityId).not.toMatch(/HttpOnly/);
    expect(cookies.dvid).toMatch(/HttpOnly/);
    const device = cookieValue(cookies.dvid);
    const rows = await history();
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)).toEqual({ user_id: null, device_id: device, city_id: 343 });

    // The same device keeps its id; its city is the last one it chose.
    const again = await call<CityView>('/api/api/v1/cities/user/save', post({ cityId: 350 }, { cookie: `dvid=${device}` }));
    expect(setCookies(again.headers).dvid).toBeUndefined();
    expect((await history()).at(-1)).toEqual({ user_id: null, device_id: device, city_id: 350 });
    const mine = await call<CityView>('/api/api/v1/cities/userCity', { headers: { cookie: `dvid=${device}; cityId=341` } });
    expect(mine.body.data.cityId).toBe(350);
  });

  it('records a signed-in user on the history and the account', async () => {
    const db = database(env.DB);
    const [user] = await db.select().from(users).where(eq(users.id, 1));
    const session = await createSession(db, user, Date.now());
    const cookie = `pner=${session.token}; pnid=${user.id}`;
    const { status } = await call('/api/v1/cities/user/save', post({ cityId: 352 }, { cookie }));
    expect(status).toBe(200);
    expect((await history()).at(-1)).toMatchObject({ user_id: 1, city_id: 352 });
    const [account] = await db.select({ cityId: users.cityId }).from(users).where(eq(users.id, 1));
    expect(account.cityId).toBe(352);
    const mine = await call<CityView>('/api/api/v1/cities/userCity', { headers: { cookie } });
    expect(mine.body.data.cityId).toBe(352);
  });

  it('answers the request city when nothing was chosen', async () => {
    expect((await call<CityView>('/api/api/v1/cities/userCity')).body.data.cityId).toBe(341);
    expect((await call<CityView>('/api/api/v1/cities/userCity', { headers: { 'city-id': '342' } })).body.data.cityId).toBe(342);
  });

  it('refuses an unknown city or a bad body, recording nothing', async () => {
    const before = (await history()).length;
    const unknown = await call('/api/api/v1/cities/user/save', post({ cityId: 999_999 }, { language: 'zh-HK' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ errorCode: 'city_not_found', field: 'cityId', message: '此城市暫不提供' });
    for (const body of [{}, { cityId: 'x' }, { cityId: -3 }, { cityId: 1.5 }, 'not json']) {
      const { status, body: envelope } = await call('/api/api/v1/cities/user/save', post(body));
      expect(status, JSON.stringify(body)).toBe(400);
      expect(envelope.errorCode).toBe('invalid_input');
    }
    expect((await history()).length).toBe(before);
  });
});

describe('GET /v1/setDvid', () => {
  it('sets a device id cookie once', async () => {
    const first = await call<{ created: boolean }>('/api/v1/setDvid');
    expect(first.body.data.created).toBe(true);
    const line = setCookies(first.headers).dvid;
    expect(line).toMatch(/^dvid=[0-9a-f-]{36};/);
    expect(line).toMatch(/Max-Age=31536000/);
    const second = await call<{ created: boolean }>('/api/api/v1/setDvid', { headers: { cookie: line.split(';')[0] } });
    expect(second.body.data.created).toBe(false);
    expect(setCookies(second.headers).dvid).toBeUndefined();
    const forged = await call<{ created: boolean }>('/api/v1/setDvid', { headers: { cookie: 'dvid=not-a-uuid' } });
    expect(forged.body.data.created).toBe(true);
  });
});
