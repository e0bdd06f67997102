import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_CANDIDATE_LIMIT } from '../../src/lib/config/browse.ts';
import { database } from '../../src/lib/data/client.ts';
import { phraseMatches } from '../../src/lib/services/search/phrase-search.ts';
import { seed } from './helpers.ts';

const DAY = 24 * 3600 * 1000;
const TODAY = Math.floor(Date.now() / DAY) * DAY;
const ARTIST_ID = 980_000;

beforeAll(() => seed(TODAY));

/** The main index's first `limit` matches of the phrase whose activity passes `condition`, in its order. */
async function inIndexOrder(phrase: string, condition: string, limit: number): Promise<number[]> {
  const { results } = await env.DB.prepare(
    `SELECT a.id AS id FROM activity_search JOIN activities a ON a.id = (activity_search.rowid & 4294967295)
     WHERE activity_search MATCH ? AND ${condition} ORDER BY activity_search.rowid LIMIT ${limit}`,
  )
    .bind(phrase)
    .all<{ id: number }>();
  return results.map((row) => row.id);
}

describe('a broad CJK phrase found outside the activities’ own names', () => {
  it('reads the artist’s indexed text and gives the main index’s matches in its order', async () => {
    await env.DB.prepare(
      `INSERT INTO artists (id, name_en, name_zh_hant, name_zh_hans, pinyin) VALUES (?, 'Roc', '鯤鵬樂隊', '鲲鹏乐队', 'kun peng')`,
    )
      .bind(ARTIST_ID)
      .run();
    const soon = Date.now() + DAY;
    // Every activity holds the pair in its artist only; a tenth are not yet on sale; a few hold the
    // characters apart in their own name too (candidates of the pair table all the same).
    await env.DB.batch(
      Array.from({ length: SEARCH_CANDIDATE_LIMIT + 40 }, (_, index) =>
        env.DB.prepare(
          `INSERT INTO activities (id, category_id, city_id, venue_id, artist_id, name_en, name_zh_hant, name_zh_hans,
             description_en, description_zh_hant, description_zh_hans, poster, status, starts_at, ends_at, sale_starts_at)
           VALUES (?, 1, 341, 1, ?, 'Roc live', ?, ?, '', '', '', '/p.svg', ?, ?, ?, ?)`,
        ).bind(
          981_000 + index,
          ARTIST_ID,
          index % 7 === 0 ? '鯤 and 鵬' : '現場',
          index % 7 === 0 ? '鲲 and 鹏' : '现场',
          index % 10 === 0 ? 6 : 1,
          soon + index * 60_000,
          soon + index * 60_000,
          TODAY - DAY,
        ),
      ),
    );
    const db = database(env.DB);
    const everything = await phraseMatches(db, '鯤鵬', sql`1`, SEARCH_CANDIDATE_LIMIT + 1);
    expect(everything).toEqual({ broad: true, ids: await inIndexOrder('"鯤 鵬"', '1', SEARCH_CANDIDATE_LIMIT + 1) });
    const notYetOnSale = await phraseMatches(db, '鲲鹏', sql`a.status = 6`, SEARCH_CANDIDATE_LIMIT + 1);
    expect(notYetOnSale).toEqual({ broad: true, ids: await inIndexOrder('"鲲 鹏"', 'a.status = 6', SEARCH_CANDIDATE_LIMIT + 1) });
    expect(notYetOnSale?.ids).toHaveLength(54);
    // A search's filter without narrowing: the artist's indexed text read in the index's order, the same matches.
    const now = Date.now();
    const listed = await phraseMatches(db, '鯤鵬', { now, narrowing: null }, SEARCH_CANDIDATE_LIMIT + 1);
    expect(listed).toEqual({
      broad: true,
      ids: await inIndexOrder('"鯤 鵬"', `a.ends_at >= ${now} AND a.status IN (1, 4, 6)`, SEARCH_CANDIDATE_LIMIT + 1),
    });
  });
});

describe('a specific CJK phrase ranked for a search without narrowing', () => {
  it('keeps the same activities as the filter on their rows: started and ended, or not shown, are left out', async () => {
    const now = Date.now();
    const hour = 3600 * 1000;
    // [status, starts, ends]: upcoming on sale, started and running, started and ended (not swept yet), a draft, not yet on sale.
    const shows: [number, number, number][] = [
      [1, now + DAY, now + DAY + hour],
      [1, now - hour, now + hour],
      [1, now - 2 * hour, now - hour],
      [2, now + DAY, now + DAY + hour],
      [6, now + 2 * DAY, now + 2 * DAY + hour],
    ];
    await env.DB.batch(
      shows.map(([status, starts, ends], index) =>
        env.DB.prepare(
          `INSERT INTO activities (id, category_id, city_id, venue_id, name_en, name_zh_hant, name_zh_hans,
             description_en, description_zh_hant, description_zh_hans, poster, status, starts_at, ends_at, sale_starts_at)
           VALUES (?, 1, 341, 1, 'Qilin', ?, ?, '', '', '', '/p.svg', ?, ?, ?, ?)`,
        ).bind(
          982_000 + index,
          index % 2 === 0 ? '麒麟之夜' : '麒麟',
          index % 2 === 0 ? '麒麟之夜' : '麒麟',
          status,
          starts,
          ends,
          TODAY - DAY,
        ),
      ),
    );
    const db = database(env.DB);
    const byKey = await phraseMatches(db, '麒麟', { now, narrowing: null }, SEARCH_CANDIDATE_LIMIT + 1);
    const byRow = await phraseMatches(db, '麒麟', sql`a.ends_at >= ${now} AND a.status IN (1, 4, 6)`, SEARCH_CANDIDATE_LIMIT + 1);
    expect(byKey).toEqual(byRow);
    expect(byKey?.broad).toBe(false);
    expect([...(byKey?.ids ?? [])].sort()).toEqual([982_000, 982_001, 982_004]);
  });
});
