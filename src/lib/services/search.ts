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
import { bm25, documentTokens, hexBytes, indexTotals } from '../domain/search-rank.ts';
import { bigramPhrase, bigramQuery, ftsQuery, hasLooserMatch, phraseOccurrences, textMatches } from '../domain/search-text.ts';
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

interface PhraseCandidateRow {
  candidates: number;
  totals: string;
  id: number | null;
  name: string | null;
  artist: string | null;
  venue: string | null;
  sizes: string | null;
}

/**
 * Every document of the index that holds a CJK phrase (a keyword such as 高靜文, see bigramPhrase),
 * as activity ids ranked as the index's bm25 ranks them (ties by id), found through the bigram table
 * of migration 0020 rather than the index: the pairs' doclists give at most
 * SEARCH_CANDIDATE_LIMIT candidates, whose indexed text (read by rowid, the index's content table)
 * says whether and how often the phrase occurs; their lengths and the index's totals come from the
 * index's own records (docsize and averages). Null when the keyword is not such a phrase or has
 * more candidates than the limit: the main index then answers as before.
 */
export async function rankedPhraseMatches(db: Db, keyword: string): Promise<number[] | null> {
  const chars = bigramPhrase(keyword);
  if (chars === null) return null;
  const expression = bigramQuery(chars);
  const candidateCount = sql`(SELECT count(*) FROM (
    SELECT rowid FROM activity_search_bigrams WHERE activity_search_bigrams MATCH ${expression} LIMIT ${SEARCH_CANDIDATE_LIMIT + 1}))`;
  // One row with the count alone when there are none or too many; the texts are read only otherwise
  // (the candidates' own LIMIT keeps a broad pair from walking its whole doclist).
  const rows = await db.all<PhraseCandidateRow>(sql`
    SELECT n.candidates AS candidates, (SELECT hex(block) FROM activity_search_data WHERE id = 1) AS totals,
           c.id AS id, c.name AS name, c.artist AS artist, c.venue AS venue, c.sizes AS sizes
    FROM (SELECT ${candidateCount} AS candidates) AS n
    LEFT JOIN (
      SELECT doc.id & 4294967295 AS id, doc.c0 AS name, doc.c1 AS artist, doc.c2 AS venue, hex(size.sz) AS sizes
      FROM (SELECT rowid AS id FROM activity_search_bigrams WHERE activity_search_bigrams MATCH ${expression} LIMIT ${SEARCH_CANDIDATE_LIMIT + 1}) AS b
      JOIN activity_search_key k ON k.id = b.id
      JOIN activity_search_content doc ON doc.id IN (k.live_key, k.hidden_key)
      JOIN activity_search_docsize size ON size.id = doc.id
      WHERE ${candidateCount} <= ${SEARCH_CANDIDATE_LIMIT}
    ) AS c ON 1`);
  const [first] = rows;
  if (!first || first.candidates > SEARCH_CANDIDATE_LIMIT) return null;
  const hits = rows.flatMap((row) => {
    if (row.id === null || row.sizes === null) return [];
    const occurrences = [row.name, row.artist, row.venue].map((text) => phraseOccurrences(chars, text ?? ''));
    return occurrences.some((count) => count > 0) ? [{ id: row.id, occurrences, tokens: documentTokens(hexBytes(row.sizes)) }] : [];
  });
  const totals = indexTotals(hexBytes(first.totals));
  return hits
    .map((hit) => ({ id: hit.id, score: bm25(hit, totals, hits.length) }))
    .sort((a, b) => a.score - b.score || a.id - b.id)
    .map((hit) => hit.id);
}

/** The order of rankedSource's rows: the ranking's. */
export const RANKED_ORDER: SQL = sql`hit.position`;

/**
 * Ranked activity ids (rankedPhraseMatches) as a FROM clause: `hit.id` in `hit.position` order, joined
 * to activities. CROSS JOIN keeps the few ids the outer loop even when a filter (a category) has an
 * index of its own, which would otherwise scan that category's activities.
 */
export function rankedSource(ids: readonly number[]): SQL {
  return sql`(SELECT value AS id, key AS position FROM json_each(${JSON.stringify(ids)})) AS hit CROSS JOIN activities a ON a.id = hit.id`;
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
  const { db, ctx } = scope;
  // A CJK phrase found and ranked through the bigram table stands for the first (phrase) attempt.
  const ranked = await rankedPhraseMatches(db, keyword);
  for (const [attempt, expression] of matchAttempts(keyword).entries()) {
    let best: SQL;
    if (attempt === 0 && ranked !== null) {
      if (ranked.length === 0) continue;
      best = suggestionIds(scope, rankedSource(ranked), sql`1`, RANKED_ORDER, RANKED_ORDER);
    } else {
      const matches = await boundedMatchCount(db, expression);
      if (matches === 0) continue;
      const broad = matches > SEARCH_CANDIDATE_LIMIT;
      const source = searchSource(expression);
      best = broad
        ? suggestionIds(scope, source.from, source.where, INDEX_ORDER, INDEX_ORDER)
        : suggestionIds(scope, source.from, source.where, SEARCH_RANK, sql`activity_search.rank`);
    }
    const rows = await db.all<SuggestionRow>(sql`
      SELECT a.id AS id, a.name_en AS nameEn, a.name_zh_hant AS nameZhHant, a.name_zh_hans AS nameZhHans,
             ar.name_en AS artistEn, ar.name_zh_hant AS artistZhHant, ar.name_zh_hans AS artistZhHans, ar.pinyin AS pinyin,
             v.name_en AS venueEn, v.name_zh_hant AS venueZhHant, v.name_zh_hans AS venueZhHans
      FROM (${best}) AS best
      JOIN activities a ON a.id = best.id
      JOIN venues v ON v.id = a.venue_id
      LEFT JOIN artists ar ON ar.id = a.artist_id
      ORDER BY best.score, best.id`);
    if (rows.length > 0) return rows.map((row) => suggestion(row, keyword, ctx));
  }
  return [];
}

/** The ids of the best SUGGESTION_LIMIT upcoming listed matches in `order`, each with its `score` (its order, ties by id). */
function suggestionIds(scope: RequestScope, from: SQL, where: SQL, order: SQL, score: SQL): SQL {
  return sql`
    SELECT a.id AS id, ${score} AS score
    FROM ${from}
    WHERE ${where} AND a.ends_at >= ${scope.now}
      AND a.status IN (${sql.join(
        LISTED_STATUSES.map((status) => sql`${status}`),
        sql`, `,
      )})
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
