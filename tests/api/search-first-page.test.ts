import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_CANDIDATE_LIMIT, SUGGESTION_LIMIT } from '../../src/lib/config/browse.ts';
import { database } from '../../src/lib/data/client.ts';
import { ACTIVITY_STATUS } from '../../src/lib/domain/activity.ts';
import type { ListResponse } from '../../src/lib/services/catalogue/listing.ts';
import { hideEndedFromSearch } from '../../src/lib/services/search/hide-ended.ts';
import { matchAttempts } from '../../src/lib/services/search/search.ts';
import type { Suggestion } from '../../src/lib/services/search/suggestions.ts';
import { call, seed } from './helpers.ts';

const DAY = 24 * 3600 * 1000;
const TODAY = Math.floor(Date.now() / DAY) * DAY;

beforeAll(() => seed(TODAY));

const search = (keyword: string, query = '') =>
  call<ListResponse>(`/api/v1/list/s_${encodeURIComponent(keyword)}?sceneType=searchV2&ignoreCityId=true${query}`);

/**
 * The first page as a full ranking gives it: every upcoming listed match ranked by the index's
 * bm25 (ties by id), from the first match attempt that finds anything. The low 32 bits of the
 * index's rowid are the activity id whatever else the rowid carries.
 */
async function fullRanking(keyword: string, order: 'relevance' | 'time'): Promise<number[]> {
  const now = Date.now();
  for (const expression of matchAttempts(keyword)) {
    const { results } = await env.DB.prepare(
      `SELECT a.id AS id FROM activity_search s JOIN activities a ON a.id = (s.rowid & 4294967295)
       WHERE activity_search MATCH ? AND a.ends_at >= ? AND a.status IN (${Object.values(ACTIVITY_STATUS).join(', ')})
       ORDER BY ${order === 'relevance' ? 's.rank, a.id' : 'a.starts_at, a.id'} LIMIT 20`,
    )
      .bind(expression, now)
      .all<{ id: number }>();
    if (results.length > 0) return results.map((row) => row.id);
  }
  return [];
}

/** Names, artists and venues in English, Traditional and Simplified Chinese, and pinyin. */
const SPECIFIC_QUERIES = [
  'Kelvin Lau',
  'Kelvin',
  '劉嘉朗',
  '刘嘉朗',
  'liujialang',
  'liu jia lang',
  'Vivian Cheung',
  '張穎詩',
  '张颖诗',
  'zhang ying shi',
  'Coliseum',
  '紅館',
  '巨蛋',
  '体育馆',
  '午夜狂奔',
  '劉嘉朗演唱會',
];

describe('the first page of a specific search', () => {
  it('is the full ranking’s first page, by relevance and by time, in every script', async () => {
    for (const keyword of SPECIFIC_QUERIES) {
      for (const order of ['relevance', 'time'] as const) {
        const expected = await fullRanking(keyword, order);
        expect(expected.length, keyword).toBeGreaterThan(0);
        const { status, body } = await search(keyword, order === 'time' ? '&sort=time' : '');
        expect(status, keyword).toBe(200);
        expect(
          body.data.result.map((card) => card.id),
          `${keyword} (${order})`,
        ).toEqual(expected);
      }
    }
  });
});

/** Inserts `count` activities named "Quasar Tour n", an hour apart from tomorrow, with the given status pattern. */
async function insertQuasarTours(count: number, statusOf: (index: number) => number) {
  const tomorrow = Date.now() + DAY;
  const statements = Array.from({ length: count }, (_, index) =>
    env.DB.prepare(
      `INSERT INTO activities (id, category_id, city_id, venue_id, artist_id, name_en, name_zh_hant, name_zh_hans,
         description_en, description_zh_hant, description_zh_hans, poster, status, starts_at, ends_at, sale_starts_at)
       VALUES (?, 1, 341, 1, NULL, ?, ?, ?, '', '', '', '/p.svg', ?, ?, ?, ?)`,
    ).bind(
      980000 + index,
      `Quasar Tour ${index}`,
      `夸薩巡演 ${index}`,
      `夸萨巡演 ${index}`,
      statusOf(index),
      // Later ids start sooner, so index order is not id order.
      tomorrow + (count - index) * 3600 * 1000,
      tomorrow + (count - index) * 3600 * 1000,
      TODAY - DAY,
    ),
  );
  await env.DB.batch(statements);
}

describe('a broad search', () => {
  it('lists upcoming on-sale shows first, soonest first, and counts up to the limit', async () => {
    const count = SEARCH_CANDIDATE_LIMIT + 40;
    // Every third one is not yet on sale: those come after every show on sale.
    await insertQuasarTours(count, (index) => (index % 3 === 0 ? ACTIVITY_STATUS.notYetOnSale : ACTIVITY_STATUS.onSale));
    const { results } = await env.DB.prepare(
      `SELECT id FROM activities WHERE name_en LIKE 'Quasar Tour %' AND status = ? ORDER BY starts_at, id LIMIT 40`,
    )
      .bind(ACTIVITY_STATUS.onSale)
      .all<{ id: number }>();
    for (const keyword of ['quasar', '夸薩', '夸萨']) {
      const first = await search(keyword);
      expect(first.body.data, keyword).toMatchObject({ total: SEARCH_CANDIDATE_LIMIT, totalIsLowerBound: true });
      expect(
        first.body.data.result.map((card) => card.id),
        keyword,
      ).toEqual(results.slice(0, 20).map((row) => row.id));
      const second = await search(keyword, '&page=2');
      expect(second.body.data.result.map((card) => card.id)).toEqual(results.slice(20, 40).map((row) => row.id));
    }
    // Suggestions for a broad prefix: the soonest on-sale shows too, in any script.
    for (const typed of ['quas', '夸薩', '夸萨']) {
      const suggested = await call<Suggestion[]>(`/api/v1/activities/suggest?input=${encodeURIComponent(typed)}&ignoreCityId=true`);
      expect(
        suggested.body.data.map((suggestion) => suggestion.id),
        typed,
      ).toEqual(results.slice(0, SUGGESTION_LIMIT).map((row) => row.id));
    }
  });

  it('keys every status shown to buyers in a live tier, which is all a search reads', async () => {
    const statuses = Object.values(ACTIVITY_STATUS);
    await env.DB.batch(
      statuses.map((status, index) =>
        env.DB.prepare(
          `INSERT INTO activities (id, category_id, city_id, venue_id, artist_id, name_en, name_zh_hant, name_zh_hans,
             description_en, description_zh_hant, description_zh_hans, poster, status, starts_at, ends_at, sale_starts_at)
           VALUES (?, 1, 341, 1, NULL, 'Tierling', '', '', '', '', '', '/p.svg', ?, ?, ?, ?)`,
        ).bind(960000 + index, status, Date.now() + DAY, Date.now() + DAY, TODAY - DAY),
      ),
    );
    const { results } = await env.DB.prepare(
      `SELECT rowid >> 58 AS tier FROM activity_search WHERE activity_search MATCH '"tierling"'`,
    ).all<{ tier: number }>();
    expect(results.map((row) => row.tier < 2)).toEqual(statuses.map(() => true));
    const { body } = await search('tierling');
    expect(body.data.total).toBe(statuses.length);
  });

  it('never lists a show hidden from buyers, even among the first matches of a broad word', async () => {
    // 495 upcoming shows on sale and 10 drafts (a status not shown, the hidden tier), all in the future: broad, 495 listed.
    const drafts = 10;
    const statements = Array.from({ length: SEARCH_CANDIDATE_LIMIT - 5 + drafts }, (_, index) =>
      env.DB.prepare(
        `INSERT INTO activities (id, category_id, city_id, venue_id, artist_id, name_en, name_zh_hant, name_zh_hans,
           description_en, description_zh_hant, description_zh_hans, poster, status, starts_at, ends_at, sale_starts_at)
         VALUES (?, 1, 341, 1, NULL, ?, '', '', '', '', '', '/p.svg', ?, ?, ?, ?)`,
      ).bind(
        970000 + index,
        `Zephyrine Night ${index}`,
        index < drafts ? 99 : ACTIVITY_STATUS.onSale,
        Date.now() + DAY + index * 60_000,
        Date.now() + DAY + index * 60_000,
        TODAY - DAY,
      ),
    );
    await env.DB.batch(statements);
    const { body } = await search('zephyrine');
    expect(body.data).toMatchObject({ total: SEARCH_CANDIDATE_LIMIT - 5, totalIsLowerBound: false });
    expect(body.data.result.map((card) => card.id)).toEqual(Array.from({ length: 20 }, (_, index) => 970000 + drafts + index));
  });

  it('moves a show whose date changes, and leaves ended ones behind after the sweep', async () => {
    const soonest = async () => (await search('quasar')).body.data.result[0]?.id;
    const before = await soonest();
    // Started an hour ago and on for another hour: still listed (its row says so, not its key), and first.
    await env.DB.prepare('UPDATE activities SET starts_at = ?, ends_at = ? WHERE id = ?')
      .bind(Date.now() - 3600 * 1000, Date.now() + 3600 * 1000, 980001)
      .run();
    expect(await soonest()).toBe(980001);
    const ranked = await fullRanking('Quasar Tour 1', 'relevance');
    expect(ranked).toContain(980001);
    expect((await search('Quasar Tour 1')).body.data.result.map((card) => card.id)).toEqual(ranked);
    await env.DB.prepare('UPDATE activities SET starts_at = ?, ends_at = ? WHERE id = ?')
      .bind(TODAY - 3600 * 1000, TODAY - 3600 * 1000, 980001)
      .run();
    // Started and ended an hour ago: no longer listed, and the next soonest is first.
    expect(await soonest()).toBe(before);
    expect(await found('quasar')).not.toContain(980001);
    await env.DB.prepare('UPDATE activities SET starts_at = ?, ends_at = ? WHERE id = ?')
      .bind(Date.now() + 60_000, Date.now() + 60_000, 980001)
      .run();
    expect(await soonest()).toBe(980001);

    await env.DB.prepare('UPDATE activities SET starts_at = ?, ends_at = ? WHERE id = ?')
      .bind(TODAY - 3600 * 1000, TODAY - 3600 * 1000, 980001)
      .run();
    await hideEndedFromSearch(database(env.DB), Date.now());
    const hidden = await env.DB.prepare(
      'SELECT rowid >> 58 AS tier, (rowid & 4294967295) AS id FROM activity_search WHERE activity_search MATCH \'"quasar"\' AND (rowid & 4294967295) = 980001',
    ).first<{ tier: number; id: number }>();
    expect(hidden).toEqual({ tier: 2, id: 980001 });
    // Brought back to the future, it is found again: its hidden copy was replaced, not duplicated.
    await env.DB.prepare('UPDATE activities SET starts_at = ?, ends_at = ? WHERE id = ?')
      .bind(Date.now() + 60_000, Date.now() + 60_000, 980001)
      .run();
    expect(await soonest()).toBe(980001);
    const copies = await env.DB.prepare('SELECT count(*) AS n FROM activity_search WHERE (rowid & 4294967295) = 980001').first<{
      n: number;
    }>();
    expect(copies?.n).toBe(1);
  });
});

async function found(keyword: string): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const { body } = await search(keyword, `&page=${page}`);
    ids.push(...body.data.result.map((card) => card.id));
    if (page >= body.data.totalPage) return ids;
  }
}
