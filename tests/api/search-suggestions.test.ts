import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUGGESTION_LIMIT, SUGGESTION_PREFIX_DEPTH } from '../../src/lib/config/browse.ts';
import { database } from '../../src/lib/data/client.ts';
import { ACTIVITY_STATUS } from '../../src/lib/domain/activity.ts';
import { hideEndedFromSearch } from '../../src/lib/services/search/hide-ended.ts';
import { matchAttempts } from '../../src/lib/services/search/search.ts';
import type { Suggestion } from '../../src/lib/services/search/suggestions.ts';
import { call, seed } from './helpers.ts';

const DAY = 24 * 3600 * 1000;
const TODAY = Math.floor(Date.now() / DAY) * DAY;

beforeAll(() => seed(TODAY));

async function suggested(typed: string, language = 'en'): Promise<Suggestion[]> {
  const { status, body } = await call<Suggestion[]>(`/api/v1/activities/suggest?input=${encodeURIComponent(typed)}&ignoreCityId=true`, {
    headers: { language },
  });
  expect(status, typed).toBe(200);
  return body.data;
}

const suggestedIds = async (typed: string) => (await suggested(typed)).map((suggestion) => suggestion.id);

/**
 * What today's matching rules give for what was typed, read from the main index itself: the
 * first SUGGESTION_LIMIT upcoming listed matches in the index's order (buyable, soonest first), from
 * the first match attempt that finds any.
 */
async function fromMainIndex(typed: string): Promise<number[]> {
  for (const expression of matchAttempts(typed)) {
    const { results } = await env.DB.prepare(
      `SELECT a.id AS id FROM activity_search s JOIN activities a ON a.id = (s.rowid & 4294967295)
       WHERE activity_search MATCH ? AND a.ends_at >= ? AND a.status IN (${Object.values(ACTIVITY_STATUS).join(', ')})
       ORDER BY s.rowid LIMIT ${SUGGESTION_LIMIT}`,
    )
      .bind(expression, Date.now())
      .all<{ id: number }>();
    if (results.length > 0) return results.map((row) => row.id);
  }
  return [];
}

/** Every prefix of a name, as the search box sends them while it is typed. */
const prefixes = (name: string) => [...name].map((_, length) => [...name].slice(0, length + 1).join(''));

/** The prefix table's rows for a term against the main index's first SUGGESTION_PREFIX_DEPTH live matches of it. */
async function tableAndIndex(term: string): Promise<[string[], string[]]> {
  const stored = await env.DB.prepare('SELECT CAST(key AS TEXT) AS key FROM activity_suggestions WHERE term = ? ORDER BY key')
    .bind(term)
    .all<{ key: string }>();
  const indexed = await env.DB.prepare(
    `SELECT CAST(rowid AS TEXT) AS key FROM activity_search WHERE activity_search MATCH ? AND rowid < (2 << 58) ORDER BY rowid LIMIT ${SUGGESTION_PREFIX_DEPTH}`,
  )
    .bind(term)
    .all<{ key: string }>();
  return [stored.results.map((row) => row.key), indexed.results.map((row) => row.key)];
}

async function kelvinLauActivities(): Promise<number[]> {
  const { results } = await env.DB.prepare(
    `SELECT a.id AS id FROM activities a JOIN artists ar ON ar.id = a.artist_id
     WHERE ar.name_en = 'Kelvin Lau' AND a.ends_at >= ? AND a.status IN (1, 4, 6) ORDER BY a.id`,
  )
    .bind(Date.now())
    .all<{ id: number }>();
  return results.map((row) => row.id);
}

describe('suggestions from the prefix table', () => {
  it('suggests the same shows for English, Traditional, Simplified and pinyin, spaced or joined', async () => {
    const kelvin = await kelvinLauActivities();
    expect(kelvin.length).toBeGreaterThan(1);
    expect(kelvin.length).toBeLessThanOrEqual(SUGGESTION_LIMIT);
    for (const typed of ['Kelvin Lau', 'kelvin', '劉嘉朗', '刘嘉朗', 'liu jia lang', 'liujialang', 'LIUJIA', '劉嘉', 'liujial']) {
      expect(
        (await suggestedIds(typed)).sort((a, b) => a - b),
        typed,
      ).toEqual(kelvin);
    }
    expect((await suggested('liujialang', 'zh-HK'))[0]).toMatchObject({ match: '劉嘉朗' });
    expect((await suggested('liu jia lang', 'zh-CN'))[0]).toMatchObject({ match: '刘嘉朗' });
  });

  it('gives every keystroke what the main index matches, in its order', async () => {
    const typed = [
      ...prefixes('Kelvin Lau'),
      ...prefixes('liu jia lang'),
      ...prefixes('liujialang'),
      ...prefixes('Hong Kong Coliseum'),
      ...prefixes('Vivian Cheung'),
      ...prefixes('zhang ying shi'),
      '劉',
      '刘',
      '紅',
      '館',
      'kelvin 劉',
      'tour 紅館',
      'world tour',
      'k',
      'a',
      'zzzz',
    ];
    for (const keyword of typed) expect(await suggestedIds(keyword), keyword).toEqual(await fromMainIndex(keyword));
  });
});

/** Inserts activities named "Nebula Night n", on sale, n hours from tomorrow, ids from 970000. */
async function insertNebulaNights(count: number, first = 0) {
  const tomorrow = Date.now() + DAY;
  await env.DB.batch(
    Array.from({ length: count }, (_, offset) => {
      const index = first + offset;
      return env.DB.prepare(
        `INSERT INTO activities (id, category_id, city_id, venue_id, artist_id, name_en, name_zh_hant, name_zh_hans,
           description_en, description_zh_hant, description_zh_hans, poster, status, starts_at, ends_at, sale_starts_at)
         VALUES (?, 1, 341, 1, NULL, ?, ?, ?, '', '', '', '/p.svg', 1, ?, ?, ?)`,
      ).bind(
        970000 + index,
        `Nebula Night ${index}`,
        `星雲之夜 ${index}`,
        `星云之夜 ${index}`,
        tomorrow + index * 3600 * 1000,
        tomorrow + index * 3600 * 1000,
        TODAY - DAY,
      );
    }),
  );
}

describe('a prefix with more matches than the table keeps', () => {
  const count = SUGGESTION_PREFIX_DEPTH + 12;
  const nebula = (index: number) => 970000 + index;
  const soonest = (from: number) => Array.from({ length: SUGGESTION_LIMIT }, (_, index) => nebula(from + index));

  it('keeps the soonest SUGGESTION_PREFIX_DEPTH and suggests the first of them', async () => {
    await insertNebulaNights(count);
    for (const term of ['"ne"*', '"nebula"*', '"星"']) {
      const [stored, indexed] = await tableAndIndex(term);
      expect(stored, term).toHaveLength(SUGGESTION_PREFIX_DEPTH);
      expect(stored, term).toEqual(indexed);
    }
    for (const typed of ['nebu', 'Nebula', 'nebula ni', '星', '星雲', '星云之夜']) {
      expect(await suggestedIds(typed), typed).toEqual(soonest(0));
    }
  });

  it('drops a show that goes off sale, is deleted or is swept, and the next one appears', async () => {
    await env.DB.prepare('UPDATE activities SET status = 2 WHERE id = ?').bind(nebula(0)).run();
    expect(await suggestedIds('nebu')).toEqual(soonest(1));
    await env.DB.prepare('DELETE FROM activities WHERE id = ?').bind(nebula(1)).run();
    expect(await suggestedIds('nebu')).toEqual(soonest(2));
    await env.DB.prepare('UPDATE activities SET starts_at = ?, ends_at = ? WHERE id = ?')
      .bind(TODAY - 3600 * 1000, TODAY - 3600 * 1000, nebula(2))
      .run();
    await hideEndedFromSearch(database(env.DB), Date.now());
    expect(await suggestedIds('nebu')).toEqual(soonest(3));
    // A later date moves a show back among the others.
    await env.DB.prepare('UPDATE activities SET starts_at = starts_at + ?, ends_at = ends_at + ? WHERE id = ?')
      .bind(5.5 * 3600 * 1000, 5.5 * 3600 * 1000, nebula(3))
      .run();
    expect(await suggestedIds('nebu')).toEqual([...soonest(4).slice(0, 5), nebula(3), ...soonest(4).slice(5, 7)]);
    // The table was refilled from the main index: still the soonest SUGGESTION_PREFIX_DEPTH live matches.
    for (const term of ['"ne"*', '"nebula"*', '"night"*', '"星"', '"1"']) {
      const [stored, indexed] = await tableAndIndex(term);
      expect(stored, term).toEqual(indexed);
    }
  });

  it('refills past the first SUGGESTION_PREFIX_DEPTH, and answers from the main index while ended shows wait for the sweep', async () => {
    const gone = Array.from({ length: SUGGESTION_PREFIX_DEPTH - 4 }, (_, index) => nebula(4 + index));
    await env.DB.prepare(`UPDATE activities SET status = 2 WHERE id IN (${gone.join(', ')})`).run();
    expect(await suggestedIds('nebu')).toEqual(await fromMainIndex('nebu'));
    // The 33rd show, which the table did not hold at first, is suggested.
    expect(await suggestedIds('nebu')).toContain(nebula(SUGGESTION_PREFIX_DEPTH));
    const [stored, indexed] = await tableAndIndex('"nebu"*');
    expect(stored).toEqual(indexed);
    // Ended but not yet swept: still in the table, which then cannot tell the first upcoming ones.
    await env.DB.prepare(`UPDATE activities SET status = 1, ends_at = ? WHERE id IN (${gone.join(', ')})`)
      .bind(Date.now() - 1000)
      .run();
    expect((await tableAndIndex('"nebu"*'))[0]).toHaveLength(SUGGESTION_PREFIX_DEPTH);
    expect(await suggestedIds('nebu')).toHaveLength(SUGGESTION_LIMIT);
    expect(await suggestedIds('nebu')).toEqual(await fromMainIndex('nebu'));
  });

  it('shows a new activity at once, and follows an artist renamed', async () => {
    await env.DB.prepare(
      `INSERT INTO activities (id, category_id, city_id, venue_id, artist_id, name_en, name_zh_hant, name_zh_hans,
         description_en, description_zh_hant, description_zh_hans, poster, status, starts_at, ends_at, sale_starts_at)
       VALUES (971000, 1, 341, 1, NULL, 'Nebula Dawn', '星雲黎明', '星云黎明', '', '', '', '/p.svg', 1, ?, ?, ?)`,
    )
      .bind(Date.now() + 3600 * 1000, Date.now() + 3600 * 1000, TODAY - DAY)
      .run();
    expect((await suggestedIds('nebu'))[0]).toBe(971000);
    expect((await suggestedIds('星雲'))[0]).toBe(971000);
    expect(await suggestedIds('nebula da')).toEqual([971000]);

    const kelvin = await kelvinLauActivities();
    await env.DB.prepare("UPDATE artists SET name_en = 'Quintus Lau', pinyin = 'kui tu si' WHERE name_en = 'Kelvin Lau'").run();
    expect((await suggestedIds('quintus')).sort((a, b) => a - b)).toEqual(kelvin);
    expect((await suggestedIds('kuitu')).sort((a, b) => a - b)).toEqual(kelvin);
    expect(await suggestedIds('liujialang')).toEqual([]);
    for (const term of ['"ku"*', '"qu"*', '"li"*', '"lau"*']) {
      const [stored, indexed] = await tableAndIndex(term);
      expect(stored, term).toEqual(indexed);
    }
  });
});
