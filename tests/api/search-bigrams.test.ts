import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_CANDIDATE_LIMIT } from '../../src/lib/config/browse.ts';
import { database } from '../../src/lib/data/client.ts';
import { ftsQuery } from '../../src/lib/domain/search-text.ts';
import { hideEndedFromSearch } from '../../src/lib/services/search/hide-ended.ts';
import { phraseMatches } from '../../src/lib/services/search/phrase-search.ts';
import { seed } from './helpers.ts';

const DAY = 24 * 3600 * 1000;
const TODAY = Math.floor(Date.now() / DAY) * DAY;

beforeAll(() => seed(TODAY));

/** Every document the main index matches for the keyword's phrase, in its bm25 order (ties by id). */
async function indexRanking(keyword: string): Promise<number[]> {
  const { results } = await env.DB.prepare(
    `SELECT rowid & 4294967295 AS id FROM activity_search WHERE activity_search MATCH ? ORDER BY rank, rowid & 4294967295`,
  )
    .bind(ftsQuery(keyword, 'phrase'))
    .all<{ id: number }>();
  return results.map((row) => row.id);
}

/** The bigram table's ranking of a phrase with few matches; null for a keyword it does not answer. */
async function ranked(keyword: string): Promise<number[] | null> {
  const matches = await phraseMatches(database(env.DB), keyword, sql`1`, SEARCH_CANDIDATE_LIMIT + 1);
  if (matches?.broad) throw new Error(`${keyword} is broad`);
  return matches?.ids ?? null;
}

/** Inserts an activity at the seed's first venue, starting tomorrow. */
async function insertActivity(id: number, names: [string, string, string], artistId: number | null = null) {
  await env.DB.prepare(
    `INSERT INTO activities (id, category_id, city_id, venue_id, artist_id, name_en, name_zh_hant, name_zh_hans,
       description_en, description_zh_hant, description_zh_hans, poster, status, starts_at, ends_at, sale_starts_at)
     VALUES (?, 1, 341, 1, ?, ?, ?, ?, '', '', '', '/p.svg', 1, ?, ?, ?)`,
  )
    .bind(id, artistId, ...names, TODAY + DAY, TODAY + DAY, TODAY - DAY)
    .run();
}

describe('a CJK phrase found through the bigram table', () => {
  it('is every match of the main index, in its bm25 order, for names, artists and venues in both scripts', async () => {
    for (const keyword of [
      '劉嘉朗',
      '刘嘉朗',
      '張穎詩',
      '张颖诗',
      '紅館',
      '巨蛋',
      '体育馆',
      '午夜狂奔',
      '演唱會',
      '香港',
      '劉嘉朗演唱會',
    ]) {
      const expected = await indexRanking(keyword);
      expect(await ranked(keyword), keyword).toEqual(expected);
    }
  });

  it('matches across the separators the index skips, counts overlapping occurrences, and breaks at a Latin word', async () => {
    await insertActivity(990001, ['Echoes', '夢想》·世界 哈哈哈', '梦想》·世界 哈哈哈']);
    await insertActivity(990002, ['Echoes', '夢想 Live 世界 哈哈', '梦想 Live 世界 哈哈']);
    for (const keyword of ['想世', '夢想世界', '哈哈', '哈哈哈', '想世界哈']) {
      const expected = await indexRanking(keyword);
      expect(expected.length, keyword).toBeGreaterThan(0);
      expect(await ranked(keyword), keyword).toEqual(expected);
    }
    expect(await ranked('想世')).toEqual([990001]);
  });

  it('follows renames of the activity and its artist, and deletion, in the same statement', async () => {
    const artist = await env.DB.prepare('SELECT id FROM artists ORDER BY id LIMIT 1').first<{ id: number }>();
    await insertActivity(990003, ['Quiet Hall', '靜謐樂廳', '静谧乐厅'], artist!.id);
    expect(await ranked('靜謐樂廳')).toEqual([990003]);
    await env.DB.prepare(`UPDATE activities SET name_zh_hant = '喧鬧樂廳' WHERE id = 990003`).run();
    expect(await ranked('靜謐樂廳')).toEqual([]);
    expect(await ranked('喧鬧樂廳')).toEqual([990003]);

    await env.DB.prepare(`UPDATE artists SET name_zh_hant = '龍鳳呈祥' WHERE id = ?`).bind(artist!.id).run();
    expect(await ranked('龍鳳呈祥')).toEqual(await indexRanking('龍鳳呈祥'));
    expect(await ranked('龍鳳呈祥')).toContain(990003);

    await env.DB.prepare('DELETE FROM activities WHERE id = 990003').run();
    expect(await ranked('喧鬧樂廳')).toEqual([]);
    expect(await ranked('龍鳳呈祥')).not.toContain(990003);
  });

  it('keeps each document at its activity’s key in the main index through status, date and the sweep', async () => {
    await insertActivity(990004, ['Harbour Lights', '港灣燈影', '港湾灯影']);
    /** The rowids holding 990004 in each table, as text (the priority bits exceed JavaScript's integers). */
    const keys = async () => {
      const main = await env.DB.prepare(
        `SELECT CAST(rowid AS TEXT) AS key FROM activity_search WHERE activity_search MATCH '"港 灣"' AND (rowid & 4294967295) = 990004`,
      ).all<{ key: string }>();
      const bigrams = await env.DB.prepare(
        `SELECT CAST(rowid AS TEXT) AS key FROM activity_search_bigrams WHERE activity_search_bigrams MATCH '"港灣"' AND (rowid & 4294967295) = 990004`,
      ).all<{ key: string }>();
      expect(bigrams.results, 'one bigram document, at the main index’s key').toEqual(main.results);
      expect(main.results).toHaveLength(1);
      return BigInt(main.results[0]!.key);
    };
    expect((await keys()) >> 58n).toBe(0n);
    await env.DB.prepare('UPDATE activities SET status = 6 WHERE id = 990004').run();
    expect((await keys()) >> 58n).toBe(1n);
    await env.DB.prepare('UPDATE activities SET status = 1, starts_at = ?, ends_at = ? WHERE id = 990004')
      .bind(TODAY - 3600 * 1000, TODAY - 3600 * 1000)
      .run();
    await hideEndedFromSearch(database(env.DB), Date.now());
    expect((await keys()) >> 58n).toBe(2n);
    await env.DB.prepare('UPDATE activities SET starts_at = ?, ends_at = ? WHERE id = 990004')
      .bind(TODAY + DAY, TODAY + DAY)
      .run();
    expect((await keys()) >> 58n).toBe(0n);
    expect(await ranked('港灣燈影')).toEqual([990004]);
    await env.DB.prepare('DELETE FROM activities WHERE id = 990004').run();
    expect(await ranked('港灣燈影')).toEqual([]);
  });

  it('reads a broad pair in index order, as the main index would, and ranks a pair whose candidates are mostly not matches', async () => {
    /** `count` activities from `firstId`, named with `name(index)`, starting `hoursFromNow(index)` hours from now. */
    const insertMany = async (firstId: number, count: number, name: (index: number) => string, status: (index: number) => number) => {
      const soon = Date.now() + DAY;
      await env.DB.batch(
        Array.from({ length: count }, (_, index) =>
          env.DB.prepare(
            `INSERT INTO activities (id, category_id, city_id, venue_id, artist_id, name_en, name_zh_hant, name_zh_hans,
               description_en, description_zh_hant, description_zh_hans, poster, status, starts_at, ends_at, sale_starts_at)
             VALUES (?, 1, 341, 1, NULL, 'Fin', ?, ?, '', '', '', '/p.svg', ?, ?, ?, ?)`,
          ).bind(firstId + index, name(index), name(index), status(index), soon + index * 60_000, soon + index * 60_000, TODAY - DAY),
        ),
      );
    };
    // A Latin letter the pair table skips lies between the characters: candidates, not matches. They start soonest.
    await insertMany(
      970000,
      300,
      (index) => `鯨é鰭 ${index}`,
      () => 1,
    );
    await insertMany(
      971000,
      250,
      (index) => `鯨鰭 ${index}`,
      (index) => (index % 10 === 0 ? 6 : 1),
    );
    expect(await ranked('鯨鰭')).toEqual(await indexRanking('鯨鰭'));
    expect(await ranked('鯨鰭')).toHaveLength(250);

    await insertMany(
      972000,
      300,
      (index) => `鯨鰭 ${index}`,
      (index) => (index % 10 === 0 ? 6 : 1),
    );
    /** The main index's first `limit` matches of the phrase whose activity passes `condition`, in its order. */
    const inIndexOrder = async (condition: string, limit: number) => {
      const { results } = await env.DB.prepare(
        `SELECT a.id AS id FROM activity_search JOIN activities a ON a.id = (activity_search.rowid & 4294967295)
         WHERE activity_search MATCH '"鯨 鰭"' AND ${condition} ORDER BY activity_search.rowid LIMIT ${limit}`,
      ).all<{ id: number }>();
      return results.map((row) => row.id);
    };
    const db = database(env.DB);
    const broad = await phraseMatches(db, '鯨鰭', sql`1`, SEARCH_CANDIDATE_LIMIT + 1);
    expect(broad).toEqual({ broad: true, ids: await inIndexOrder('1', SEARCH_CANDIDATE_LIMIT + 1) });
    // A condition that keeps few matches: the scan goes on past the first candidates, reading only those that pass.
    const notYetOnSale = await phraseMatches(db, '鯨鰭', sql`a.status = 6`, SEARCH_CANDIDATE_LIMIT + 1);
    expect(notYetOnSale).toEqual({ broad: true, ids: await inIndexOrder('a.status = 6', SEARCH_CANDIDATE_LIMIT + 1) });
    expect(notYetOnSale?.ids).toHaveLength(55);

    // A search's filter without narrowing reads no activity row for a show that has not started: the
    // same matches, an ongoing show kept and one that ended (not yet swept) left out by their rows.
    const hour = 3600 * 1000;
    await env.DB.prepare('UPDATE activities SET starts_at = ?, ends_at = ? WHERE id = ?')
      .bind(Date.now() - hour, Date.now() + hour, 971001)
      .run();
    await env.DB.prepare('UPDATE activities SET starts_at = ?, ends_at = ? WHERE id = ?')
      .bind(Date.now() - 2 * hour, Date.now() - hour, 971002)
      .run();
    const now = Date.now();
    const listed = await phraseMatches(db, '鯨鰭', { now, narrowing: null }, SEARCH_CANDIDATE_LIMIT + 1);
    const expected = await inIndexOrder(`a.ends_at >= ${now} AND a.status IN (1, 4, 6)`, SEARCH_CANDIDATE_LIMIT + 1);
    expect(expected[0]).toBe(971001);
    expect(expected).not.toContain(971002);
    expect(listed).toEqual({ broad: true, ids: expected });
  });

  it('counts a character as a pair separator only where the main index’s tokenizer separates tokens with it', async () => {
    await env.DB.prepare(`CREATE VIRTUAL TABLE separator_probe USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')`).run();
    await env.DB.prepare(
      `INSERT INTO separator_probe (rowid, text)
       WITH RECURSIVE code(u, high) AS (
         SELECT low, high FROM activity_search_pair_separators UNION ALL SELECT u + 1, high FROM code WHERE u < high)
       SELECT u, ' 俊 ' || char(u) || ' 強 ' FROM code`,
    ).run();
    // Tokens of the index (é, a full-width letter, 々, ー) as a check that the probe tells them apart.
    for (const token of ['é', 'Ａ', '々', 'ー']) {
      await env.DB.prepare(`INSERT INTO separator_probe (rowid, text) VALUES (?, ?)`)
        .bind(-(token.codePointAt(0) ?? 0), ` 俊 ${token} 強 `)
        .run();
    }
    const { results } = await env.DB.prepare(
      `SELECT rowid AS u FROM separator_probe EXCEPT SELECT rowid FROM separator_probe WHERE separator_probe MATCH '"俊 強"' ORDER BY u`,
    ).all<{ u: number }>();
    expect(results.map((row) => row.u)).toEqual(['Ａ', 'ー', '々', 'é'].map((token) => -(token.codePointAt(0) ?? 0)));
    await env.DB.prepare('DROP TABLE separator_probe').run();
  });

  it('takes a two-character phrase from the doclist but where its pair spans a token, kept by the triggers', async () => {
    /** The pairs of an activity that its bigram text holds only across a token (migration 0025). */
    const spanning = async (id: number) => {
      const { results } = await env.DB.prepare('SELECT pair FROM activity_search_spanning_pairs WHERE activity_id = ? ORDER BY pair')
        .bind(id)
        .all<{ pair: string }>();
      return results.map((row) => row.pair);
    };
    await insertActivity(990011, ['Jun', '俊é強', '俊é强']);
    await insertActivity(990012, ['Jun', '俊（強', '俊（强']);
    await insertActivity(990013, ['Jun', '俊強', '俊强']);
    await insertActivity(990014, ['Jun', '俊ＡＢ強 俊強', '俊ＡＢ强 俊强']);
    await insertActivity(990015, ['Jun', '佐々木 コンサート', '佐々木 コンサート']);
    expect(await spanning(990011)).toEqual(['俊強', '俊强']);
    expect(await spanning(990012)).toEqual([]);
    expect(await spanning(990013)).toEqual([]);
    expect(await spanning(990014), 'also side by side: a match anyway').toEqual([]);
    expect(await spanning(990015)).toEqual(['サト', '佐木']);
    for (const keyword of ['俊強', '俊强', '佐木', 'サト']) {
      expect(await ranked(keyword), keyword).toEqual(await indexRanking(keyword));
    }
    expect(await ranked('俊強')).toEqual(expect.arrayContaining([990012, 990013, 990014]));
    expect(await ranked('俊強')).not.toContain(990011);
    expect(await ranked('佐木')).toEqual([]);

    await env.DB.prepare(`UPDATE activities SET name_zh_hant = '俊強', name_zh_hans = '俊强' WHERE id = 990011`).run();
    expect(await spanning(990011)).toEqual([]);
    expect(await ranked('俊強')).toContain(990011);
    await env.DB.prepare(`UPDATE activities SET name_zh_hant = '俊é強', name_zh_hans = '俊é强' WHERE id = 990011`).run();
    expect(await spanning(990011)).toEqual(['俊強', '俊强']);
    await env.DB.prepare('UPDATE activities SET status = 6, starts_at = starts_at + 3600000 WHERE id = 990011').run();
    expect(await spanning(990011), 'keyed by activity: a new key keeps it').toEqual(['俊強', '俊强']);
    expect(await ranked('俊強')).toEqual(await indexRanking('俊強'));
    expect(await ranked('俊強')).not.toContain(990011);

    // Under a city filter the known matches in other cities are counted for bm25 without being read.
    const city = await env.DB.prepare('SELECT id FROM cities WHERE id <> 341 LIMIT 1').first<{ id: number }>();
    await env.DB.prepare('UPDATE activities SET city_id = ? WHERE id = 990013').bind(city!.id).run();
    const now = Date.now();
    const inHongKong = await phraseMatches(database(env.DB), '俊強', { now, narrowing: sql`a.city_id = 341` }, SEARCH_CANDIDATE_LIMIT + 1);
    const { results: passing } = await env.DB.prepare(
      `SELECT id FROM activities WHERE city_id = 341 AND status IN (1, 4, 6) AND ends_at >= ${now}`,
    ).all<{ id: number }>();
    const passingIds = new Set(passing.map((row) => row.id));
    expect(inHongKong).toEqual({ broad: false, ids: (await indexRanking('俊強')).filter((id) => passingIds.has(id)) });
    expect(inHongKong?.ids).toEqual(expect.arrayContaining([990012, 990014]));
    expect(inHongKong?.ids).not.toContain(990013);

    const venue = await env.DB.prepare('SELECT id, name_zh_hant FROM venues WHERE id = 1').first<{ id: number; name_zh_hant: string }>();
    await env.DB.prepare(`UPDATE venues SET name_zh_hant = '夏é日館' WHERE id = 1`).run();
    expect(await spanning(990013)).toContain('夏日');
    expect(await ranked('夏日')).toEqual(await indexRanking('夏日'));
    await env.DB.prepare('UPDATE venues SET name_zh_hant = ? WHERE id = 1').bind(venue!.name_zh_hant).run();
    expect(await spanning(990013)).toEqual([]);

    for (const id of [990011, 990012, 990013, 990014, 990015]) await env.DB.prepare('DELETE FROM activities WHERE id = ?').bind(id).run();
    expect(await spanning(990011)).toEqual([]);
    expect(await spanning(990015)).toEqual([]);
    expect(await ranked('俊強')).toEqual(await indexRanking('俊強'));
  });

  it('is left to the main index for other keywords', async () => {
    for (const keyword of ['Kelvin', '劉', '劉嘉朗 tour', 'liujialang', '夢想 世界']) {
      expect(await ranked(keyword), keyword).toBeNull();
    }
  });
});
