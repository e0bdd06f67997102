/**
 * The search engine: the FTS5 index of migration 0002 (activity, artist and venue names in English,
 * Traditional and Simplified Chinese, and pinyin), queried with the terms of domain/search-text.ts
 * and ranked with bm25. The listing service pages and filters its matches; suggestions are here.
 */
import { sql, type SQL } from 'drizzle-orm';
import { SUGGESTION_LIMIT } from '../config.ts';
import { ACTIVITY_STATUS } from '../domain/activity.ts';
import type { RequestContext } from '../domain/request-context.ts';
import { ftsQuery, hasLooserMatch, textMatches } from '../domain/search-text.ts';
import { localizedName } from '../i18n/locales.ts';
import type { RequestScope } from './scope.ts';

/** Statuses shown to buyers: on sale, priority booking, not yet on sale (drafts and ended ones are not). */
export const LISTED_STATUSES: readonly number[] = Object.values(ACTIVITY_STATUS);

/**
 * The index's rank: bm25 with per-column weights set by migration 0002 (lower is better). Ordering
 * by it alone lets FTS5 sort the matches itself, so a broad word does not join every match first;
 * ties keep the index's order, which is the activity id.
 */
export const SEARCH_RANK: SQL = sql`activity_search.rank`;

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
    from: sql`activity_search JOIN activities a ON a.id = activity_search.rowid`,
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

/** Best-ranked upcoming activities for what is typed so far (the last word counts as a prefix). */
export async function suggest(scope: RequestScope, keyword: string): Promise<Suggestion[]> {
  const { db, ctx, now } = scope;
  for (const expression of matchAttempts(keyword)) {
    const rows = await db.all<SuggestionRow>(sql`
      SELECT a.id AS id, a.name_en AS nameEn, a.name_zh_hant AS nameZhHant, a.name_zh_hans AS nameZhHans,
             ar.name_en AS artistEn, ar.name_zh_hant AS artistZhHant, ar.name_zh_hans AS artistZhHans, ar.pinyin AS pinyin,
             v.name_en AS venueEn, v.name_zh_hant AS venueZhHant, v.name_zh_hans AS venueZhHans
      FROM (
        SELECT a.id AS id, ${SEARCH_RANK} AS score
        FROM ${searchSource(expression).from}
        WHERE ${searchSource(expression).where} AND a.ends_at >= ${now}
          AND a.status IN (${sql.join(
            LISTED_STATUSES.map((status) => sql`${status}`),
            sql`, `,
          )})
        ORDER BY ${SEARCH_RANK}
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
