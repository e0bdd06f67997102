/**
 * Suggestions for what is typed so far (`suggest`), from the prefix table of migration 0022
 * (docs/search.md, "Suggestions"): per typed word or CJK character, the SUGGESTION_PREFIX_DEPTH
 * smallest live keys of the main index (buyable soonest first), kept by triggers in the catalogue
 * write's statement. A keystroke reads at most that many rows per term and the activities they
 * name, never the main index's doclists; the main index answers only what that table cannot tell.
 */
import { sql, type SQL } from 'drizzle-orm';
import { SUGGESTION_LIMIT, SUGGESTION_PREFIX_DEPTH } from '../../config/browse.ts';
import type { Db } from '../../data/client.ts';
import type { RequestContext } from '../../domain/request-context.ts';
import { documentMatches, isSingleTerm, type MatchMode, suggestionTerms, textMatches } from '../../domain/search-text.ts';
import { localizedName } from '../../i18n/locales.ts';
import type { RequestScope } from '../platform/scope.ts';
import { phraseMatches } from './phrase-search.ts';
import { INDEX_ORDER, matchAttempts, RANKED_ORDER, rankedSource, searchSource, upcomingListed } from './search.ts';

/** An activity suggested, with the names its suggestion is worded from and checked against. */
export interface SuggestionRow {
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

/** The columns of a SuggestionRow, from `a` (activities), `ar` (artists, left-joined) and `v` (venues). */
export const SUGGESTION_COLUMNS: SQL = sql`a.id AS id, a.name_en AS nameEn, a.name_zh_hant AS nameZhHant, a.name_zh_hans AS nameZhHans,
  ar.name_en AS artistEn, ar.name_zh_hant AS artistZhHant, ar.name_zh_hans AS artistZhHans, ar.pinyin AS pinyin,
  v.name_en AS venueEn, v.name_zh_hant AS venueZhHant, v.name_zh_hans AS venueZhHans`;

/** The texts of the main index's three columns for a row (migration 0002's activity_search_text, unspaced). */
function indexedColumns(row: SuggestionRow): string[] {
  const artist =
    row.artistEn === null
      ? ''
      : [row.artistEn, row.artistZhHant, row.artistZhHans, row.pinyin ?? '', (row.pinyin ?? '').replaceAll(' ', '')].join(' ');
  return [[row.nameEn, row.nameZhHant, row.nameZhHans].join(' '), artist, [row.venueEn, row.venueZhHant, row.venueZhHans].join(' ')];
}

/**
 * The first SUGGESTION_LIMIT matches of `keyword` (in `mode`) whose activity passes `condition`
 * (on `a`), in the main index's order, from the prefix table alone; null when the table cannot
 * tell them (the caller asks the main index).
 *
 * Every match of the keyword matches each of its cover terms (suggestionTerms). A term with fewer
 * than SUGGESTION_PREFIX_DEPTH rows holds all its live matches; a full one holds every live match
 * up to its last key. So the rows of the keyword's terms up to the largest of their last keys (no
 * bound if one is not full) include every match up to there: read in key order, those that pass
 * the condition and match the whole keyword (checked here when it is more than one term) are the
 * matches in index order, exactly. Null only when fewer than SUGGESTION_LIMIT of them are found and
 * every term is full: more matches may lie beyond, as when a multi-word keyword's words are common
 * apart, or the soonest rows of a broad prefix are shows that ended since the last sweep.
 */
export async function prefixSuggestions(db: Db, keyword: string, mode: MatchMode, condition: SQL): Promise<SuggestionRow[] | null> {
  const terms = suggestionTerms(keyword);
  if (terms.length === 0) return [];
  const single = mode === 'phrase' && isSingleTerm(keyword);
  const [found] = await db.all<{ fewest: number; rows: string }>(sql`
    WITH cover(term) AS (SELECT value FROM json_each(${JSON.stringify(terms)})),
    depth AS (
      SELECT count(s.key) AS n, max(s.key) AS last FROM cover c LEFT JOIN activity_suggestions s ON s.term = c.term GROUP BY c.term),
    bound AS (SELECT min(n) AS fewest, CASE WHEN min(n) < ${SUGGESTION_PREFIX_DEPTH} THEN NULL ELSE max(last) END AS last FROM depth),
    candidate AS (
      SELECT DISTINCT s.key AS key FROM activity_suggestions s, bound
      WHERE s.term IN (SELECT term FROM cover) AND (bound.last IS NULL OR s.key <= bound.last))
    SELECT bound.fewest AS fewest, (
      SELECT json_group_array(json_object('id', id, 'nameEn', nameEn, 'nameZhHant', nameZhHant, 'nameZhHans', nameZhHans,
        'artistEn', artistEn, 'artistZhHant', artistZhHant, 'artistZhHans', artistZhHans, 'pinyin', pinyin,
        'venueEn', venueEn, 'venueZhHant', venueZhHant, 'venueZhHans', venueZhHans) ORDER BY position)
      FROM (
        SELECT ${SUGGESTION_COLUMNS}, c.key AS position
        FROM candidate c
        CROSS JOIN activities a ON a.id = (c.key & 4294967295)
        JOIN venues v ON v.id = a.venue_id
        LEFT JOIN artists ar ON ar.id = a.artist_id
        WHERE ${condition}
        ORDER BY c.key
        ${single ? sql`LIMIT ${SUGGESTION_LIMIT}` : sql``})) AS rows
    FROM bound`);
  // A term with no live match: neither has the keyword.
  if (!found || found.fewest === 0) return [];
  const matches: SuggestionRow[] = [];
  for (const row of JSON.parse(found.rows) as SuggestionRow[]) {
    if (matches.length === SUGGESTION_LIMIT) break;
    if (single || documentMatches(keyword, indexedColumns(row), mode)) matches.push(row);
  }
  return matches.length === SUGGESTION_LIMIT || found.fewest < SUGGESTION_PREFIX_DEPTH ? matches : null;
}

/**
 * Takes the keys of activities the sweep has just hidden (ended before `now`, in `tier`, started
 * before `nowMinute`) out of the prefix table, each full term that held one refilled from the main
 * index by the table's trigger (migration 0022). Run after the main index's own move, so that no
 * refill picks a hidden show.
 */
export async function hideEndedFromSuggestions(db: Db, tier: number, nowMinute: number, now: number): Promise<void> {
  await db.run(sql`
    DELETE FROM activity_suggestion_keys WHERE key IN (
      SELECT s.key FROM activity_suggestions s CROSS JOIN activities a ON a.id = (s.key & 4294967295)
      WHERE s.key >= (${tier} << 58) AND s.key < ((${tier} << 58) | (${nowMinute} << 32)) AND a.ends_at < ${now})`);
}

export interface Suggestion {
  id: number;
  /** The activity's name in the request's language. */
  name: string;
  /** What the text matched, in the request's language: the artist, the venue, or the activity's name. */
  match: string;
}

/**
 * Upcoming activities for what is typed so far (the last word counts as a prefix), the first
 * SUGGESTION_LIMIT matches in the index's order (buyable, soonest first), read from the prefix table
 * of migration 0022 (prefixSuggestions); the main index answers, in the same order and
 * stopping at the limit, only what that table cannot tell. A CJK phrase of two or more characters
 * alone is found through the bigram table as before (ranked by bm25 when it is specific).
 */
export async function suggest(scope: RequestScope, keyword: string): Promise<Suggestion[]> {
  const { db, ctx } = scope;
  // A CJK phrase found through the bigram table stands for the first (phrase) attempt.
  const phrase = await phraseMatches(db, keyword, upcomingListed(scope.now), SUGGESTION_LIMIT);
  for (const [attempt, expression] of matchAttempts(keyword).entries()) {
    let rows: SuggestionRow[] | null = null;
    if (attempt === 0 && phrase !== null) {
      if (phrase.ids.length === 0) continue;
      rows = await suggestionRows(db, suggestionIds(scope, rankedSource(phrase.ids), sql`1`, RANKED_ORDER, RANKED_ORDER));
    } else {
      rows = await prefixSuggestions(db, keyword, attempt === 0 ? 'phrase' : 'loose', upcomingListed(scope.now));
      if (rows === null) {
        const source = searchSource(expression);
        rows = await suggestionRows(db, suggestionIds(scope, source.from, source.where, INDEX_ORDER, INDEX_ORDER));
      }
    }
    if (rows.length > 0) return rows.map((row) => suggestion(row, keyword, ctx));
  }
  return [];
}

/** The rows of the activities `best` lists (`id`, `score`), in its order. */
function suggestionRows(db: Db, best: SQL): Promise<SuggestionRow[]> {
  return db.all<SuggestionRow>(sql`
    SELECT ${SUGGESTION_COLUMNS}
    FROM (${best}) AS best
    JOIN activities a ON a.id = best.id
    JOIN venues v ON v.id = a.venue_id
    LEFT JOIN artists ar ON ar.id = a.artist_id
    ORDER BY best.score, best.id`);
}

/** The ids of the best SUGGESTION_LIMIT upcoming listed matches in `order`, each with its `score` (its order, ties by id). */
function suggestionIds(scope: RequestScope, from: SQL, where: SQL, order: SQL, score: SQL): SQL {
  return sql`
    SELECT a.id AS id, ${score} AS score
    FROM ${from}
    WHERE ${where} AND ${upcomingListed(scope.now)}
    ORDER BY ${order}
    LIMIT ${SUGGESTION_LIMIT}`;
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
