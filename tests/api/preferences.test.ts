import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import { users } from '../../src/lib/db/schema.ts';
import { createSession } from '../../src/lib/services/accounts/sessions.ts';
import type { HomeConfig } from '../../src/lib/services/catalogue/catalogue.ts';
import type { HotKeywordView } from '../../src/lib/services/search/hot-keywords.ts';
import type { PopBoxView } from '../../src/lib/services/catalogue/popups.ts';
import { call, seed } from './helpers.ts';

const DAY = 86_400_000;
/** Seeded relative to today: pop-up boxes are valid for a window around the seed day. */
const TODAY = Math.floor(Date.now() / DAY) * DAY;

beforeAll(() => seed(TODAY));

const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const cookieLine = (headers: Headers, name: string) => headers.getSetCookie().find((line) => line.startsWith(`${name}=`));

describe('POST /api/v1/user/language/save', () => {
  it('sets the language cookie pages render with', async () => {
    const { status, body, headers } = await call<{ id: number; code: string }>('/api/v1/user/language/save', post({ languageId: 4 }));
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ id: 4, code: 'zh-CN' });
    expect(cookieLine(headers, 'language')).toMatch(/^language=zh-CN; Max-Age=31536000; Path=\//);
  });

  it('records the language on the account of a signed-in user', async () => {
    const db = database(env.DB);
    const [user] = await db.select().from(users).where(eq(users.id, 2));
    const { token } = await createSession(db, user, Date.now());
    await call('/api/v1/user/language/save', post({ languageId: 2 }, { cookie: `pner=${token}; pnid=2` }));
    const [account] = await db.select({ languageCode: users.languageCode }).from(users).where(eq(users.id, 2));
    expect(account.languageCode).toBe('zh-HK');
  });

  it('refuses an unknown language in the request language, and bad input', async () => {
    const unknown = await call('/api/v1/user/language/save', post({ languageId: 99 }, { language: 'zh-CN' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ errorCode: 'language_not_found', field: 'languageId', message: '此语言暂不提供' });
    expect(cookieLine(unknown.headers, 'language')).toBeUndefined();
    for (const body of [{}, { languageId: 'en' }, { languageId: 0 }]) {
      const { status, body: envelope } = await call('/api/v1/user/language/save', post(body));
      expect(status).toBe(400);
      expect(envelope.field).toBe('languageId');
    }
  });
});

describe('POST /api/v1/currency/save', () => {
  it('sets the currency cookie, and the home config prices in it', async () => {
    const { status, body, headers } = await call<{ code: string; currencyType: number }>(
      '/api/v1/currency/save',
      post({ currencyType: 3 }),
    );
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ code: 'TWD', currencyType: 3 });
    const line = cookieLine(headers, 'currencyCode')!;
    expect(line).toMatch(/^currencyCode=TWD;/);
    const home = await call<HomeConfig>('/api/', { headers: { cookie: line.split(';')[0] } });
    const card = [...home.body.data.rareActivities, ...home.body.data.discountActivities].find((c) => c.lowPriceView)!;
    expect(card.currency).toBe('TWD');
    expect(card.lowPriceView).toMatch(/^NT\$[\d,]+\+$/);
  });

  it('records the currency on the account of a signed-in user', async () => {
    const db = database(env.DB);
    const [user] = await db.select().from(users).where(eq(users.id, 3));
    const { token } = await createSession(db, user, Date.now());
    await call('/api/api/v1/currency/save', post({ currencyType: 11 }, { cookie: `pner=${token}; pnid=3` }));
    const [account] = await db.select({ currencyCode: users.currencyCode }).from(users).where(eq(users.id, 3));
    expect(account.currencyCode).toBe('USD');
  });

  it('refuses an unknown currency type', async () => {
    const { status, body } = await call('/api/v1/currency/save', post({ currencyType: 404 }));
    expect(status).toBe(404);
    expect(body).toMatchObject({ errorCode: 'currency_not_found', field: 'currencyType', message: 'This currency is not available' });
    expect((await call('/api/v1/currency/save', post({ currencyType: 'HKD' }))).status).toBe(400);
  });
});

describe('GET /api/v1/keyWord/hotKeyWord', () => {
  it('lists the hot keywords of the request language with the spec fields', async () => {
    const { status, body } = await call<HotKeywordView[]>('/api/v1/keyWord/hotKeyWord?ignoreCityId=true');
    expect(status).toBe(200);
    expect(body.data.length).toBeGreaterThanOrEqual(5);
    for (const keyword of body.data) {
      expect(Object.keys(keyword).sort()).toEqual(['content', 'id', 'keyword', 'landingPageParams', 'landingPageType']);
      expect(keyword.keyword).not.toBe('');
    }
    const chinese = await call<HotKeywordView[]>('/api/v1/keyWord/hotKeyWord?ignoreCityId=true', { headers: { language: 'zh-HK' } });
    expect(chinese.body.data.map((k) => k.keyword)).not.toEqual(body.data.map((k) => k.keyword));
    expect(chinese.body.data[0].content).toMatch(/[\u4e00-\u9fff]/);
  });
});

describe('POST /api/v1/popBox/list', () => {
  it('answers the valid boxes of the scene, content as a JSON string with its currency', async () => {
    const { status, body } = await call<PopBoxView[]>('/api/v1/popBox/list', post({ sceneTypeList: ['HOME'] }));
    expect(status).toBe(200);
    expect(body.data.length).toBeGreaterThan(0);
    for (const box of body.data) {
      expect(box.sceneType).toBe('HOME');
      expect(typeof box.content).toBe('string');
      expect(JSON.parse(box.content)).toHaveProperty('title');
      expect(box.currencyVO).toEqual({ code: 'HKD', desc: 'Hong Kong Dollar', currencyType: 1 });
    }
  });

  it('leaves out boxes outside their validity and other scenes', async () => {
    const { body: before } = await call<PopBoxView[]>('/api/v1/popBox/list', post({ sceneTypeList: ['HOME'] }));
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO pop_up_boxes (scene_type, content, currency, valid_from, valid_to) VALUES ('HOME', '{}', 'HKD', ?, ?)",
      ).bind(now - 2 * DAY, now - DAY),
      env.DB.prepare(
        "INSERT INTO pop_up_boxes (scene_type, content, currency, valid_from, valid_to) VALUES ('HOME', '{}', 'HKD', ?, ?)",
      ).bind(now + DAY, now + 2 * DAY),
      env.DB.prepare(
        "INSERT INTO pop_up_boxes (scene_type, content, currency, valid_from, valid_to) VALUES ('ORDER', '{}', 'TWD', ?, ?)",
      ).bind(now - DAY, now + DAY),
    ]);
    const { body: after } = await call<PopBoxView[]>('/api/v1/popBox/list', post({ sceneTypeList: ['HOME'] }));
    expect(after.data.map((box) => box.id)).toEqual(before.data.map((box) => box.id));
    const both = await call<PopBoxView[]>('/api/api/v1/popBox/list', post({ sceneTypeList: ['HOME', 'ORDER'] }));
    expect(both.body.data).toHaveLength(before.data.length + 1);
    expect(both.body.data.at(-1)?.currencyVO.code).toBe('TWD');
    expect((await call<PopBoxView[]>('/api/v1/popBox/list', post({ sceneTypeList: ['NOWHERE'] }))).body.data).toEqual([]);
  });

  it('rejects a missing, empty or malformed scene list', async () => {
    for (const body of [
      {},
      { sceneTypeList: [] },
      { sceneTypeList: 'HOME' },
      { sceneTypeList: ['home'] },
      { sceneTypeList: ["HOME'--"] },
    ]) {
      const { status, body: envelope } = await call('/api/v1/popBox/list', post(body));
      expect(status, JSON.stringify(body)).toBe(400);
      expect(envelope.field).toMatch(/^sceneTypeList/);
    }
  });
});
