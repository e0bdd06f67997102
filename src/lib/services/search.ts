/**
 * The search engine: the FTS5 index of migrations 0002 and 0018 (activity, artist and venue names
 * in English, Traditional and Simplified Chinese, and pinyin), queried with the terms of
 * domain/search-text.ts. Its rowid is a priority key (buyable soonest first, then the activity id
 * in the low 32 bits), so a query can stop after a bounded number of matches: a specific query
 * (at most SEARCH_CANDIDATE_LIMIT matches) is ranked with bm25 exactly as a full ranking would;
 * a broad one takes its first matches in index order (docs/search.md). The listing service pages
 * and filters the matches; suggestions are here.
 */
import { sql, type SQL } from 'drizzle-orm';
import { SEARCH_CANDIDATE_LIMIT, SUGGESTION_LIMIT } from '../config.ts';
import type { Db } from '../db/client.ts';
import { ACTIVITY_STATUS } from '../domain/activity.ts';
import type { RequestContext } from '../domain/request-context.ts';
import { ftsQuery, hasLooserMatch, textMatches } from '../domain/search-text.ts';
import { localizedName } from '../i18n/locales.ts';
import type { RequestScope } from './scope.ts';

/** Statuses shown to buyers: on sale, priority booking, not yet on sale (drafts and ended ones are not). */
export const LISTED_STATUSES: readonly number[] = Object.values(ACTIVITY_STATUS);

/**
 * The index's rank: bm25 with per-column weights set by migration 0002 (lower is better), ties by
 * activity id. Used only for specific queries, whose matches are few (see boundedMatchCount).
 */
export const SEARCH_RANK: SQL = sql`activity_search.rank, a.id`;

/** The index's own order (its rowid, the priority key of migration 0018): buyable soonest first. */
export const INDEX_ORDER: SQL = sql`activity_search.rowid`;

/**
 * How many documents match, whatever the filters, counted up to SEARCH_CANDIDATE_LIMIT + 1: more
 * than the limit makes the query broad. FTS5 walks the doclists in rowid order and stops at the
 * LIMIT, so this reads at most that many entries.
 */
export async function boundedMatchCount(db: Db, expression: string): Promise<number> {
  const [row] = await db.all<{ matches: number }>(sql`
    SELECT count(*) AS matches
    FROM (SELECT rowid FROM activity_search WHERE activity_search MATCH ${expression} LIMIT ${SEARCH_CANDIDATE_LIMIT + 1})`);
  return row?.matches ?? 0;
}

/**
 * Ended activities still carry their live key, ahead of every upcoming show in index order, until
 * this moves them to the hidden tier (2 << 58), keeping the text: a broad search then never walks
 * past them. Run by the scheduled sweep; the live tiers are 0 (buyable) and 1 (not yet on sale), and
 * only rows that started before now can have ended, so each tier is scanned up to now's minute.
 */
export async function hideEndedFromSearch(db: Db, now: number): Promise<void> {
  const nowMinute = Math.floor(now / 60_000);
  const endedInTier = (tier: number) => sql`
    SELECT activity_search.rowid AS rowid FROM ${searchSource('').from}
    WHERE activity_search.rowid >= (${tier} << 58) AND activity_search.rowid < ((${tier} << 58) | (${nowMinute} << 32))
      AND a.ends_at < ${now}`;
  // Copied first, then removed from the live tier (the copy lies outside the range scanned); should
  // the removal not happen, the next sweep copies again, replacing the same hidden row.
  for (const tier of [0, 1]) {
    await db.run(sql`
      INSERT OR REPLACE INTO activity_search (rowid, name, artist, venue)
      SELECT (2 << 58) | (rowid & ((1 << 58) - 1)), name, artist, venue FROM activity_search
      WHERE rowid IN (${endedInTier(tier)})`);
    await db.run(sql`DELETE FROM activity_search WHERE rowid IN (${endedInTier(tier)})`);
  }
}

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

/** The index joined to activities, as a FROM clause, and its MATCH condition for an expression. */
export function searchSource(expression: string): { from: SQL; where: SQL } {
  return {
    // The rowid's low 32 bits are the activity id (migration 0018).
    from: sql`activity_search JOIN activities a ON a.id = (activity_search.rowid & 4294967295)`,
    where: sql`activity_search MATCH ${expression}`,
  };
}

export interface Suggestion {
  id: number;
  /** The activity's name in the request's language. */
  name: string;
  /** What the text matched, in the request's language: the artist, the venue, or the activity's name. */
  match: string;
}

interface SuggestionRow {
  id: number;
  nameEn: string;
  nameZhHant: string;
  nameZhHans: string;
  artistEn: string | null;
  artistZhHant: string | null;
  artistZhHans: string | null;
  pinyin: string | null;
  venueEn: string;
  venueZhHant: string;
  venueZhHans: string;
}

/**
 * Best-ranked upcoming activities for what is typed so far (the last word counts as a prefix); for
 * a broad prefix, the soonest buyable ones, read in index order and stopping at the limit.
 */
export async function suggest(scope: RequestScope, keyword: string): Promise<Suggestion[]> {
  const { db, ctx, now } = scope;
  for (const expression of matchAttempts(keyword)) {
    const matches = await boundedMatchCount(db, expression);
    if (matches === 0) continue;
    const broad = matches > SEARCH_CANDIDATE_LIMIT;
    const rows = await db.all<SuggestionRow>(sql`
      SELECT a.id AS id, a.name_en AS nameEn, a.name_zh_hant AS nameZhHant, a.name_zh_hans AS nameZhHans,
             ar.name_en AS artistEn, ar.name_zh_hant AS artistZhHant, ar.name_zh_hans AS artistZhHans, ar.pinyin AS pinyin,
             v.name_en AS venueEn, v.name_zh_hant AS venueZhHant, v.name_zh_hans AS venueZhHans
      FROM (
        SELECT a.id AS id, ${broad ? INDEX_ORDER : sql`activity_search.rank`} AS score
        FROM ${searchSource(expression).from}
        WHERE ${searchSource(expression).where} AND a.ends_at >= ${now}
          AND a.status IN (${sql.join(
            LISTED_STATUSES.map((status) => sql`${status}`),
            sql`, `,
          )})
        ORDER BY ${broad ? INDEX_ORDER : SEARCH_RANK}
        LIMIT ${SUGGESTION_LIMIT}
      ) AS hit
      JOIN activities a ON a.id = hit.id
      JOIN venues v ON v.id = a.venue_id
      LEFT JOIN artists ar ON ar.id = a.artist_id
      ORDER BY hit.score, hit.id`);
    if (rows.length > 0) return rows.map((row) => suggestion(row, keyword, ctx));
  }
  return [];
}

function suggestion(row: SuggestionRow, keyword: string, ctx: RequestContext): Suggestion {
  const name = localizedName({ nameEn: row.nameEn, nameZhHant: row.nameZhHant, nameZhHans: row.nameZhHans }, ctx.locale);
  const artist =
    row.artistEn === null ? null : { nameEn: row.artistEn, nameZhHant: row.artistZhHant ?? '', nameZhHans: row.artistZhHans ?? '' };
  const venue = { nameEn: row.venueEn, nameZhHant: row.venueZhHant, nameZhHans: row.venueZhHans };
  const artistText = artist
    ? [artist.nameEn, artist.nameZhHant, artist.nameZhHans, row.pinyin ?? '', (row.pinyin ?? '').replaceAll(' ', '')].join(' ')
    : '';
  if (artist && textMatches(keyword, artistText)) return { id: row.id, name, match: localizedName(artist, ctx.locale) };
  if (textMatches(keyword, [venue.nameEn, venue.nameZhHant, venue.nameZhHans].join(' '))) {
    return { id: row.id, name, match: localizedName(venue, ctx.locale) };
  }
  return { id: row.id, name, match: name };
}
