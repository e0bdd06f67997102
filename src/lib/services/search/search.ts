/**
 * The search engine: the FTS5 index of migrations 0002 and 0018 (activity, artist and venue names
 * in English, Traditional and Simplified Chinese, and pinyin), queried with the terms of
 * domain/search-text.ts. Its rowid is a priority key (buyable soonest first, then the activity id
 * in the low 32 bits), so a query can stop after a bounded number of matches: a specific query
 * (at most SEARCH_CANDIDATE_LIMIT matches) is ranked with bm25 exactly as a full ranking would;
 * a broad one takes its first matches in index order (docs/search.md). CJK phrases are found
 * through the bigram table of migrations 0020 and 0021, which shares the index's rowid
 * (phrase-search.ts). The listing service passes its filters in and pages the matches; suggestions
 * are suggestions.ts, and moving ended activities out of the way is hide-ended.ts.
 */
import { type SQL, sql } from 'drizzle-orm';
import { SEARCH_CANDIDATE_LIMIT } from '../../config/browse.ts';
import type { Db } from '../../data/client.ts';
import type { Bound } from '../../data/compiled-select.ts';
import { ACTIVITY_STATUS } from '../../domain/activity.ts';
import { ftsQuery, hasLooserMatch } from '../../domain/search-text.ts';

/** Statuses shown to buyers: on sale, priority booking, not yet on sale (drafts and ended ones are not). */
export const LISTED_STATUSES: readonly number[] = Object.values(ACTIVITY_STATUS);

/**
 * The index's rank: bm25 with per-column weights set by migration 0002 (lower is better), ties by
 * activity id. Used only for specific queries, whose matches are few (see indexMatches).
 */
export const SEARCH_RANK: SQL = sql`activity_search.rank, a.id`;

/** The index's own order (its rowid, the priority key of migration 0018): buyable soonest first. */
export const INDEX_ORDER: SQL = sql`activity_search.rowid`;

/**
 * The MATCH expressions to try, in order: CJK runs as phrases, then, when that finds nothing and
 * a run has several characters, each character anywhere (so 劉嘉朗演唱會 still finds the tour).
 * Empty when the keyword holds nothing searchable.
 */
export function matchAttempts(keyword: string): string[] {
  const phrase = ftsQuery(keyword, 'phrase');
  if (phrase === null) return [];
  const loose = hasLooserMatch(keyword) ? ftsQuery(keyword, 'loose') : null;
  return loose ? [phrase, loose] : [phrase];
}

/** The order of rankedSource's rows: the ranking's. */
export const RANKED_ORDER: SQL = sql`hit.position`;

/**
 * Ranked activity ids (phraseMatches, indexMatches) as a FROM clause: `hit.id` in `hit.position` order, joined
 * to activities. CROSS JOIN keeps the few ids the outer loop even when a filter (a category) has an
 * index of its own, which would otherwise scan that category's activities.
 */
export function rankedSource(ids: readonly number[]): SQL {
  return sql`(SELECT value AS id, key AS position FROM json_each(${JSON.stringify(ids)})) AS hit CROSS JOIN activities a ON a.id = hit.id`;
}

/**
 * What a search keeps of its matches: activities shown to buyers and not ended at `now`, narrowed
 * by `narrowing` (conditions on the activity `a`: category, city, dates), or by nothing (null).
 */
export interface SearchFilter {
  now: number;
  narrowing: SQL | null;
}

/** The filter as one condition on the activity `a` (its `now` a placeholder in a compiled list, services/catalogue/listing.ts). */
export function filterCondition(filter: { now: Bound<number>; narrowing: SQL | null }): SQL {
  return filter.narrowing === null ? upcomingListed(filter.now) : sql`${upcomingListed(filter.now)} AND ${filter.narrowing}`;
}

/**
 * The first key of the hidden tier (migration 0018): every key at or beyond it is an activity not
 * shown to buyers or swept as ended, which no search keeps, so each scan stops there.
 */
const HIDDEN_TIER_KEY = sql`(2 << 58)`;

/**
 * Whether the activity of index key `key` passes the filter. A key in the hidden tier never does.
 * Without narrowing, a live key (tier 0 or 1: a listed status) whose start minute lies after now's
 * is an activity that has not started, so has not ended (an activity ends after it starts; the
 * sweep relies on this too): it passes without its row being read. Only the others (started ones,
 * or a narrowing to test) are looked up in `activities`, one row each, by id.
 */
export function keyPasses(key: SQL, filter: SearchFilter): SQL {
  const row = sql`EXISTS (SELECT 1 FROM activities a WHERE a.id = (${key} & 4294967295) AND ${filterCondition(filter)})`;
  if (filter.narrowing !== null) return sql`(${key} < ${HIDDEN_TIER_KEY} AND ${row})`;
  const nowMinute = Math.floor(filter.now / 60_000);
  return sql`(${key} < ${HIDDEN_TIER_KEY} AND (((${key} >> 32) & 67108863) > ${nowMinute} OR ${row}))`;
}

/**
 * The matches of a MATCH expression that pass the filter, in one statement: the first
 * SEARCH_CANDIDATE_LIMIT + 1 matches of the whole index in its order are read once (FTS5 walks the
 * doclists in rowid order and stops at the LIMIT) and counted. A specific query's (at most the
 * limit) are then ranked with bm25, ties by id, once; for a broad one, the first
 * SEARCH_CANDIDATE_LIMIT + 1 that pass, in index order (buyable soonest first): without narrowing,
 * nearly always the very matches just read (all of them pass when none has started yet), else a
 * scan that stops at its LIMIT. Only the branch the count chooses runs. No activity row is read
 * but those keyPasses needs. Activity ids.
 */
export async function indexMatches(db: Db, expression: string, filter: SearchFilter): Promise<number[]> {
  const limit = SEARCH_CANDIDATE_LIMIT + 1;
  const key = sql`activity_search.rowid`;
  // keyPasses bounds the key below the hidden tier: FTS5 takes that as its scan's end.
  const live = sql`activity_search MATCH ${expression} AND ${keyPasses(key, filter)}`;
  const ranked = sql`SELECT json_group_array(id ORDER BY position) FROM (
    SELECT ${key} & 4294967295 AS id, row_number() OVER (ORDER BY activity_search.rank, ${key} & 4294967295) AS position
    FROM activity_search WHERE ${live})`;
  const scanned = sql`SELECT json_group_array(id ORDER BY position) FROM (
    SELECT ${key} & 4294967295 AS id, ${key} AS position FROM activity_search WHERE ${live} ORDER BY ${key} LIMIT ${limit})`;
  // The matches already read are the page's candidates when all of them pass.
  const firstAllPass =
    filter.narrowing === null
      ? sql`(SELECT CASE WHEN count(*) = ${limit} THEN json_group_array(first.key & 4294967295 ORDER BY first.key) END
          FROM first WHERE ${keyPasses(sql`first.key`, filter)})`
      : sql`NULL`;
  const [row] = await db.all<{ ids: string | null }>(sql`
    WITH first AS MATERIALIZED (
      SELECT rowid AS key FROM activity_search WHERE activity_search MATCH ${expression} ORDER BY rowid LIMIT ${limit})
    SELECT CASE WHEN m.matches = 0 THEN NULL
      WHEN m.matches <= ${SEARCH_CANDIDATE_LIMIT} THEN (${ranked})
      ELSE coalesce(${firstAllPass}, (${scanned})) END AS ids
    FROM (SELECT count(*) AS matches FROM first) AS m`);
  return row?.ids ? (JSON.parse(row.ids) as number[]) : [];
}

/** The index joined to activities, as a FROM clause, and its MATCH condition for an expression. */
export function searchSource(expression: string): { from: SQL; where: SQL } {
  return {
    // The rowid's low 32 bits are the activity id (migration 0018).
    from: sql`activity_search JOIN activities a ON a.id = (activity_search.rowid & 4294967295)`,
    where: sql`activity_search MATCH ${expression}`,
  };
}

/** Activities `a` shown to buyers and not yet ended at `now`. */
export function upcomingListed(now: Bound<number>): SQL {
  return sql`a.ends_at >= ${now} AND a.status IN (${sql.join(
    LISTED_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  )})`;
}
