import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ListResponse } from '../../src/lib/services/catalogue/listing.ts';
import { call, seed } from './helpers.ts';

const DAY = 24 * 3600 * 1000;
// Seeded for today, so every seeded session lies ahead of the clock the service reads.
const TODAY = Math.floor(Date.now() / DAY) * DAY;
const LISTED = '(1, 4, 6)';

beforeAll(() => seed(TODAY));

async function ids(sql: string, ...binds: unknown[]): Promise<number[]> {
  const { results } = await env.DB.prepare(sql)
    .bind(...binds)
    .all<{ id: number }>();
  return results.map((row) => row.id);
}

async function allPages(path: string, init?: RequestInit): Promise<number[]> {
  const first = await call<ListResponse>(path, init);
  const found = first.body.data.result.map((card) => card.id);
  for (let page = 2; page <= first.body.data.totalPage; page++) {
    const next = await call<ListResponse>(`${path}${path.includes('?') ? '&' : '?'}page=${page}`, init);
    found.push(...next.body.data.result.map((card) => card.id));
  }
  return found;
}

describe('GET /api/v1/list/{category} (category list)', () => {
  it('answers the list response of SPEC.md section 3, soonest first, in the default city (Hong Kong) when the request names none', async () => {
    const { status, body } = await call<ListResponse>('/api/v1/list/concerts');
    expect(status).toBe(200);
    const list = body.data;
    const expected = await ids(
      `SELECT id FROM activities WHERE category_id = 1 AND city_id = 341 AND ends_at >= ? AND status IN ${LISTED} ORDER BY starts_at, id`,
      Date.now(),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(list).toMatchObject({
      pageIndex: 1,
      pageSize: 20,
      total: expected.length,
      totalPage: Math.ceil(expected.length / 20),
      keyword: '',
    });
    expect(list.result.map((card) => card.id)).toEqual(expected.slice(0, 20));
    expect(list.calendarUrl).toBe('/api/v1/calendar/hongkong-concerts/latest');
    expect(list.city).toEqual({ cityId: 341, cityName: 'Hong Kong' });
    for (const filters of [list.categoryFilters, list.hotCityFilters, list.timeFilters, list.sortFilters]) {
      expect(filters.filter((option) => option.selected)).toHaveLength(1);
    }
    expect(list.categoryFilters.find((option) => option.selected)).toMatchObject({ id: 'concerts', name: 'Concerts', url: '/concerts' });
    expect(list.hotCityFilters.find((option) => option.selected)).toMatchObject({ id: '341', url: '/concerts?city=341' });
    expect(list.hotCityFilters[0]).toMatchObject({ id: 'all', url: '/concerts?city=all', selected: false });
    expect(list.sortFilters.map((option) => option.id)).toEqual(['time', 'price', 'hot']);
    // The other filters keep following the current city: their URLs name none.
    expect(list.sortFilters.find((option) => option.id === 'price')?.url).toBe('/concerts?sort=price');
    expect(list.result[0]).toMatchObject({ categoryId: 1, currency: 'HKD', lowPriceView: expect.stringMatching(/^HK\$/) });
  });

  it('follows the current city of the request (city-id header, else cookie) when the URL names none', async () => {
    const taipei = await ids(`SELECT id FROM activities WHERE city_id = 343 AND ends_at >= ? AND status IN ${LISTED}`, Date.now());
    const byHeader = await call<ListResponse>('/api/v1/list/all', { headers: { 'city-id': '343' } });
    expect(byHeader.body.data).toMatchObject({ total: taipei.length, city: { cityId: 343, cityName: 'Taipei' } });
    expect(new Set(await allPages('/api/v1/list/all', { headers: { 'city-id': '343' } }))).toEqual(new Set(taipei));
    const byCookie = await call<ListResponse>('/api/v1/list/all', { headers: { cookie: 'cityId=343' } });
    expect(byCookie.body.data).toMatchObject({ total: taipei.length, city: { cityId: 343 } });
    // A current city that is no city lists the default one, as the header shows it.
    const unknown = await call<ListResponse>('/api/v1/list/all', { headers: { 'city-id': '99999' } });
    expect(unknown.status).toBe(200);
    expect(unknown.body.data.city).toMatchObject({ cityId: 341 });
  });

  it('lists every city for city=all, or for ignoreCityId=true without a city, and the URL city wins over the current one', async () => {
    const everywhere = await ids(`SELECT id FROM activities WHERE ends_at >= ? AND status IN ${LISTED}`, Date.now());
    const all = await call<ListResponse>('/api/v1/list/all?city=all', { headers: { 'city-id': '343' } });
    expect(all.body.data).toMatchObject({ total: everywhere.length, city: null });
    expect(all.body.data.hotCityFilters.find((option) => option.selected)).toMatchObject({ id: 'all' });
    expect(all.body.data.sortFilters.find((option) => option.id === 'price')?.url).toBe('/all?city=all&sort=price');
    const ignored = await call<ListResponse>('/api/v1/list/all?ignoreCityId=true', { headers: { 'city-id': '343' } });
    expect(ignored.body.data).toMatchObject({ total: everywhere.length, city: null });
    const named = await call<ListResponse>('/api/v1/list/all?city=350', { headers: { 'city-id': '343' } });
    expect(named.body.data.city).toMatchObject({ cityId: 350 });
  });

  it('pages through every upcoming activity once', async () => {
    const found = await allPages('/api/v1/list/all?city=all');
    const expected = await ids(`SELECT id FROM activities WHERE ends_at >= ? AND status IN ${LISTED}`, Date.now());
    expect(found).toHaveLength(expected.length);
    expect(new Set(found)).toEqual(new Set(expected));
  });

  it('filters by city and by a date range with a session inside it', async () => {
    const taipei = await allPages('/api/v1/list/all?city=343');
    expect(taipei.length).toBeGreaterThan(0);
    expect(new Set(taipei)).toEqual(
      new Set(await ids(`SELECT id FROM activities WHERE city_id = 343 AND ends_at >= ? AND status IN ${LISTED}`, Date.now())),
    );

    const from = new Date(TODAY + 20 * DAY).toISOString().slice(0, 10);
    const to = new Date(TODAY + 26 * DAY).toISOString().slice(0, 10);
    const week = await allPages(`/api/v1/list/all?city=all&from=${from}&to=${to}`);
    expect(week.length).toBeGreaterThan(0);
    // Dates are Hong Kong days (UTC+8) over every city.
    const start = Date.parse(`${from}T00:00:00+08:00`);
    const end = Date.parse(`${to}T00:00:00+08:00`) + DAY;
    const inRange = await ids(
      `SELECT DISTINCT a.id FROM activities a JOIN activity_sessions s ON s.activity_id = a.id
       WHERE s.starts_at >= ? AND s.starts_at < ? AND a.status IN ${LISTED}`,
      start,
      end,
    );
    expect(new Set(week)).toEqual(new Set(inRange));
  });

  it('sorts by the lowest price across currencies, sold-out last, and by hot', async () => {
    const cards = (await call<ListResponse>('/api/v1/list/all?city=all&sort=price', { headers: { currency: 'HKD' } })).body.data.result;
    const prices = cards.filter((card) => !card.soldOut).map((card) => card.lowPrice!);
    expect(prices.length).toBeGreaterThan(10);
    // Converted prices round to the cent and "from" prices up to the dollar, so neighbours may swap by a dollar.
    for (let i = 1; i < prices.length; i += 1) expect(prices[i]).toBeGreaterThanOrEqual(prices[i - 1] - 100);

    const hot = (await call<ListResponse>('/api/v1/list/all?city=all&sort=hot')).body.data.result.map((card) => card.id);
    const hotIds = new Set(await ids(`SELECT id FROM activities WHERE is_hot = 1 AND ends_at >= ? AND status IN ${LISTED}`, Date.now()));
    expect(hot.slice(0, Math.min(hotIds.size, 20)).every((id) => hotIds.has(id))).toBe(true);
  });

  it('speaks the request language in cards and filter names', async () => {
    const { body } = await call<ListResponse>('/api/v1/list/concerts', { headers: { language: 'zh-HK' } });
    expect(body.data.categoryFilters.find((option) => option.selected)?.name).toBe('演唱會');
    expect(body.data.sortFilters.map((option) => option.name)).toContain('日期最近');
    expect(body.data.result[0].activityCategoryName).toBe('演唱會');
  });

  it('answers a page past the end with an empty result, not an error', async () => {
    const { status, body } = await call<ListResponse>('/api/v1/list/concerts?page=999');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ pageIndex: 999, result: [] });
    expect(body.data.total).toBeGreaterThan(0);
  });

  it('is a 404 for an unknown category or a path that is no listing', async () => {
    const unknown = await call('/api/v1/list/no-such-category');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ errorCode: 'category_not_found', field: 'category' });
    expect((await call('/api/v1/list/a/b')).status).toBe(404);
  });

  it('names the unusable parameter with a 400, never a 500', async () => {
    const cases: [string, string][] = [
      ['from=2026-02-30', 'from'],
      ['from=2027-01-10&to=2027-01-01', 'to'],
      ['to=9999-12-31', 'to'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['sort=random', 'sort'],
      ['sort=relevance', 'sort'],
      ['city=99999', 'city'],
      ['city=-1', 'city'],
    ];
    for (const [query, field] of cases) {
      const { status, body } = await call(`/api/v1/list/all?${query}`);
      expect(status, query).toBe(400);
      expect(body, query).toMatchObject({ errorCode: 'invalid_input', field });
    }
    const scene = await call('/api/v1/list/concerts?sceneType=searchV2');
    expect(scene.body).toMatchObject({ code: 400, field: 'sceneType' });
  });

  it('is served under the /api/api alias', async () => {
    const alias = await call<ListResponse>('/api/api/v1/list/sports?sort=hot');
    expect(alias.status).toBe(200);
    expect(alias.body.data.sortFilters.find((option) => option.selected)?.id).toBe('hot');
  });
});

describe('the category list compiled once per shape (data/compiled-select.ts)', () => {
  it('answers lists of one shape with different values, each with its own category, city and page', async () => {
    const categories = (await env.DB.prepare('SELECT id, slug FROM categories ORDER BY id LIMIT 2').all<{ id: number; slug: string }>())
      .results;
    expect(categories).toHaveLength(2);
    const cases = [
      { category: categories[0], cityId: 341, page: 1 },
      { category: categories[1], cityId: 341, page: 1 },
      { category: categories[0], cityId: 343, page: 1 },
      { category: categories[0], cityId: 341, page: 2 },
    ];
    const seen = new Set<string>();
    for (const { category, cityId, page } of cases) {
      const expected = await ids(
        `SELECT id FROM activities WHERE category_id = ? AND city_id = ? AND ends_at >= ? AND status IN ${LISTED} ORDER BY starts_at, id`,
        category.id,
        cityId,
        Date.now(),
      );
      const { body } = await call<ListResponse>(`/api/v1/list/${category.slug}?city=${cityId}&page=${page}`);
      const shown = body.data.result.map((card) => card.id);
      expect(body.data.total).toBe(expected.length);
      expect(shown).toEqual(expected.slice((page - 1) * 20, page * 20));
      seen.add(shown.join());
    }
    // The values reached the statements: the lists differ from one another.
    expect(seen.size).toBe(cases.length);
  });
});
