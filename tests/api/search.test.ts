import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ListResponse } from '../../src/lib/services/catalogue/listing.ts';
import type { Suggestion } from '../../src/lib/services/search/suggestions.ts';
import { call, seed } from './helpers.ts';

const DAY = 24 * 3600 * 1000;
const TODAY = Math.floor(Date.now() / DAY) * DAY;

beforeAll(() => seed(TODAY));

const search = (keyword: string, query = '', init?: RequestInit) =>
  call<ListResponse>(`/api/v1/list/s_${encodeURIComponent(keyword)}?sceneType=searchV2&ignoreCityId=true${query}`, init);

async function found(keyword: string): Promise<number[]> {
  const { status, body } = await search(keyword);
  expect(status, keyword).toBe(200);
  return body.data.result.map((card) => card.id).sort((a, b) => a - b);
}

async function activitiesOf(artistEn: string): Promise<number[]> {
  const { results } = await env.DB.prepare(
    'SELECT a.id FROM activities a JOIN artists ar ON ar.id = a.artist_id WHERE ar.name_en = ? ORDER BY a.id',
  )
    .bind(artistEn)
    .all<{ id: number }>();
  return results.map((row) => row.id);
}

describe('search (GET /api/v1/list/s_{keyword}?sceneType=searchV2)', () => {
  it('finds the same shows by English, Traditional, Simplified and pinyin spellings of an artist', async () => {
    const kelvin = await activitiesOf('Kelvin Lau');
    expect(kelvin.length).toBeGreaterThan(1);
    for (const spelling of ['Kelvin Lau', '劉嘉朗', '刘嘉朗', 'liu jia lang', 'liujialang', 'LIUJIA']) {
      expect(await found(spelling), spelling).toEqual(kelvin);
    }
    const vivian = await activitiesOf('Vivian Cheung');
    expect(await found('張穎詩')).toEqual(vivian);
    expect(await found('张颖诗')).toEqual(vivian);
  });

  it('matches two Chinese characters inside longer names', async () => {
    expect(await found('嘉朗')).toEqual(await activitiesOf('Kelvin Lau'));
    const { body } = await search('巨蛋');
    expect(body.data.total).toBeGreaterThan(0);
    for (const card of body.data.result) expect(card.venueName).toMatch(/Dome|Arena/);
  });

  it('finds venues and show titles, and a run of artist plus show words', async () => {
    const coliseum = (await search('Coliseum')).body.data.result;
    expect(coliseum.length).toBeGreaterThan(0);
    for (const card of coliseum) expect(card.venueName).toMatch(/Coliseum/);
    expect((await search('午夜狂奔')).body.data.total).toBeGreaterThan(0);
    // No title holds these characters in a row; each one is still found, so the tour is.
    expect(await found('劉嘉朗演唱會')).toEqual(await activitiesOf('Kelvin Lau'));
  });

  it('ranks artist matches first and pages like a category list', async () => {
    const { body } = await search('Kelvin');
    const kelvin = await activitiesOf('Kelvin Lau');
    expect(
      body.data.result
        .slice(0, kelvin.length)
        .map((card) => card.id)
        .sort((a, b) => a - b),
    ).toEqual(kelvin);
    expect(body.data).toMatchObject({ keyword: 'Kelvin', pageIndex: 1, pageSize: 20 });
    expect(body.data.sortFilters.find((option) => option.selected)?.id).toBe('relevance');

    const broad = await search('tour');
    expect(broad.body.data.totalPage).toBeGreaterThan(1);
    const second = await search('tour', '&page=2');
    const overlap = second.body.data.result.filter((card) => broad.body.data.result.some((first) => first.id === card.id));
    expect(overlap).toEqual([]);
  });

  it('ignores the city header but honours the city filter', async () => {
    const everywhere = await search('Kelvin Lau', '', { headers: { 'city-id': '350' } });
    expect(everywhere.body.data.total).toBe((await activitiesOf('Kelvin Lau')).length);
    const inHongKong = await search('Kelvin Lau', '&city=341');
    expect(inHongKong.body.data.total).toBeLessThan(everywhere.body.data.total);
  });

  it('answers text that looks like FTS5 or SQL syntax with results or an empty list, never an error', async () => {
    for (const hostile of [
      '"',
      '""',
      'a" OR "b',
      'NEAR(a b)',
      'name:kelvin',
      '*',
      '-lau',
      'kelvin*',
      '(',
      ')',
      '^',
      'AND',
      "'; DROP TABLE activities; --",
      '%',
      '%25',
      '<script>alert(1)</script>',
      '　',
      '🎤',
    ]) {
      const { status, body } = await search(hostile);
      expect(status, hostile).toBe(200);
      expect(Array.isArray(body.data.result), hostile).toBe(true);
    }
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM activities').first<{ n: number }>();
    expect(count?.n).toBeGreaterThan(300);
    expect((await search('nothing-matches-this-zzzz')).body.data).toMatchObject({ total: 0, totalPage: 0, result: [] });
  });

  it('flags a garbled keyword as bad input', async () => {
    const { status, body } = await call('/api/v1/list/s_%E0%A4%A?sceneType=searchV2');
    expect(status).toBe(400);
    expect(body).toMatchObject({ field: 'keyword' });
  });

  it('keeps the index in step with inserts, renames and deletes', async () => {
    await env.DB.prepare(
      `INSERT INTO activities (id, category_id, city_id, venue_id, artist_id, name_en, name_zh_hant, name_zh_hans,
         description_en, description_zh_hant, description_zh_hans, poster, status, starts_at, ends_at, sale_starts_at)
       VALUES (990001, 1, 341, 1, NULL, 'Zephyrine Gala', '澤菲琳晚會', '泽菲琳晚会', '', '', '', '/p.svg', 1, ?, ?, ?)`,
    )
      .bind(TODAY + 5 * DAY, TODAY + 5 * DAY, TODAY - DAY)
      .run();
    expect(await found('zephyrine')).toEqual([990001]);
    expect(await found('菲琳')).toEqual([990001]);
    await env.DB.prepare("UPDATE activities SET name_en = 'Quillon Gala' WHERE id = 990001").run();
    expect(await found('zephyrine')).toEqual([]);
    expect(await found('quillon')).toEqual([990001]);
    await env.DB.prepare("UPDATE venues SET name_en = 'Xanthic Hall' WHERE id = 1").run();
    expect(await found('xanthic')).toContain(990001);
    await env.DB.prepare('DELETE FROM activities WHERE id = 990001').run();
    expect(await found('quillon')).toEqual([]);
    await env.DB.prepare("UPDATE venues SET name_en = 'Hong Kong Coliseum' WHERE id = 1").run();
  });
});

describe('GET /api/v1/activities/suggest', () => {
  it('suggests upcoming activities for a prefix, saying which name matched', async () => {
    const { status, body } = await call<Suggestion[]>('/api/v1/activities/suggest?input=kel&ignoreCityId=true');
    expect(status).toBe(200);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.length).toBeLessThanOrEqual(8);
    expect(body.data[0]).toEqual({ id: expect.any(Number), name: expect.stringContaining('Kelvin Lau'), match: 'Kelvin Lau' });
  });

  it('answers in the request language, for a query in another script', async () => {
    const { body } = await call<Suggestion[]>('/api/v1/activities/suggest?input=liujialang', { headers: { language: 'zh-HK' } });
    expect(body.data[0]).toMatchObject({ match: '劉嘉朗', name: expect.stringContaining('劉嘉朗') });
    const venue = await call<Suggestion[]>('/api/v1/activities/suggest?input=%E4%BD%93%E8%82%B2%E9%A6%86', {
      headers: { language: 'zh-CN' },
    });
    expect(venue.body.data[0].match).toMatch(/体育馆/);
  });

  it('suggests nothing for blank or punctuation-only input and rejects an overlong one', async () => {
    expect((await call<Suggestion[]>('/api/v1/activities/suggest')).body.data).toEqual([]);
    expect((await call<Suggestion[]>('/api/v1/activities/suggest?input=%20%22*')).body.data).toEqual([]);
    const long = await call(`/api/v1/activities/suggest?input=${'a'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ errorCode: 'invalid_input', field: 'input' });
  });
});
