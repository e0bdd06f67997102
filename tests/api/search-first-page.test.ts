import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_STATUS } from '../../src/lib/domain/activity.ts';
import type { ListResponse } from '../../src/lib/services/listing.ts';
import { matchAttempts } from '../../src/lib/services/search.ts';
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
