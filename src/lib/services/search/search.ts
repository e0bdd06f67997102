/**
 * The search engine: the FTS5 index of migrations 0002 and 0018 (activity, artist and venue names
 * in English, Traditional and Simplified Chinese, and pinyin), queried with the terms of
 * domain/search-text.ts. Its rowid is a priority key (buyable soonest first, then the activity id
 * in the low 32 bits), so a query can stop after a bounded number of matches: a specific query
 * (at most SEARCH_CANDIDATE_LIMIT matches) is ranked with bm25 exactly as a full ranking would;
 * a broad one takes its first matches in index order (docs/search.md). CJK phrases are found
 * through the bigram table of migrations 0020 and 0021, which shares the index's rowid. The listing
 * service passes its filters in and pages the matches; suggestions are here, read from the prefix
 * table of migration 0022 (services/search/suggestions.ts).
 */
import { SQL, sql } from 'drizzle-orm';
import { SEARCH_CANDIDATE_LIMIT, SUGGESTION_LIMIT } from '../../config/browse.ts';
import type { Db } from '../../data/client.ts';
import type { Bound } from '../../data/compiled-select.ts';
import { ACTIVITY_STATUS } from '../../domain/activity.ts';
import type { RequestContext } from '../../domain/request-context.ts';
import { bm25, documentTokens, hexBytes, indexTotals } from '../../domain/search-rank.ts';
import { bigramPhrase, bigramQuery, ftsQuery, hasLooserMatch, phraseOccurrences, textMatches } from '../../domain/search-text.ts';
import { localizedName } from '../../i18n/locales.ts';
import type { RequestScope } from '../platform/scope.ts';
import { hideEndedFromSuggestions, prefixSuggestions, SUGGESTION_COLUMNS, type SuggestionRow } from './suggestions.ts';

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
  // the removal not happen, the next sweep copies again, replacing the same hidden row. The bigram
  // table's documents (migration 0021) follow, their pairs made afresh from the names, and leave the
  // live tier before the main index's, whose live rows say which ones to move; the suggestion table
  // (migration 0022) lets them go last, refilling from the main index once they are hidden there.
  for (const tier of [0, 1]) {
    await db.run(sql`
      INSERT OR REPLACE INTO activity_search (rowid, name, artist, venue)
      SELECT (2 << 58) | (rowid & ((1 << 58) - 1)), name, artist, venue FROM activity_search
      WHERE rowid IN (${endedInTier(tier)})`);
    await db.run(sql`
      INSERT OR REPLACE INTO activity_search_bigrams (rowid, bigrams)
      SELECT k.hidden_key, t.bigrams FROM activity_search_bigram_text t JOIN activity_search_key k ON k.id = t.id
      WHERE t.id IN (SELECT ended.rowid & 4294967295 FROM (${endedInTier(tier)}) AS ended)`);
    await db.run(sql`DELETE FROM activity_search_bigrams WHERE rowid IN (${endedInTier(tier)})`);
    await db.run(sql`DELETE FROM activity_search WHERE rowid IN (${endedInTier(tier)})`);
    await hideEndedFromSuggestions(db, tier, nowMinute, now);
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

/**
 * A candidate of a phrase with the text its match is decided on: the activity, whether it passes
 * the condition (1 or 0), its name, artist and venue as the main index holds them, and its docsize
 * record (hex).
 */
type PhraseCandidate = [id: number, passes: number, name: string | null, artist: string | null, venue: string | null, sizes: string];

/**
 * A candidate of a broad phrase, in index order: its activity id when it is a match without more
 * (see phraseScanChunk), negated when the activity fails the condition; otherwise the activity,
 * whether it passes, and its indexed text, to be checked.
 */
type PhraseScanEntry = number | [id: number, passes: number, name: string | null, artist: string | null, venue: string | null];

/** A chunk of a broad phrase's candidates: the entries in index order, and the last one's key (the index's rowid, as text: its priority bits put it beyond JavaScript's exact integers). */
interface PhraseScanChunk {
  entries: PhraseScanEntry[];
  last: string | null;
}

/** What the bigram table says of a CJK phrase: its matches that pass a condition, all of them ranked, or a broad one's first in index order. */
export type PhraseMatches = { broad: false; ids: number[] } | { broad: true; ids: number[] };

/**
 * The matches of a keyword that is a CJK phrase (such as 高靜文, see bigramPhrase), found through
 * the bigram table of migrations 0020 and 0021 rather than the main index; null when the keyword
 * is not such a phrase (the main index answers).
 *
 * One statement counts the candidates (the pairs' doclists, up to SEARCH_CANDIDATE_LIMIT + 1) and
 * runs only the branch the count chooses. At most the limit: their text as the main index holds
 * it (its content table, by rowid) says whether and how often the phrase occurs in each column,
 * their docsize records give their lengths, the index's averages record its totals, and the
 * matches are ranked as the index's bm25 ranks them (ties by id); those whose activity passes
 * `condition` come back. A two-character phrase's candidates are matches by the bigram table alone
 * but where its pair spans a token (doclistMatches): under a narrowing filter only those that pass,
 * whose occurrences bm25 needs, and the spanning ones have their text read (rankedCandidates).
 *
 * More: the first chunk of a scan in the index's order (the bigram table's rowid is the index's),
 * which goes on, a chunk at a time, only while it does not know yet: the phrase is broad if more
 * than SEARCH_CANDIDATE_LIMIT of the candidates match, and the matches whose activity passes
 * `condition` come back in that order, the first `wanted` of them, as the main index's
 * `MATCH … ORDER BY rowid LIMIT` would give them.
 *
 * `condition` is one on the activity `a`, or a search's filter, which without narrowing is asked of
 * each candidate's key (keyPasses): neither the ranking nor a broad scan then reads an activity row,
 * but for shows that have started (see phraseScanChunk).
 */
export async function phraseMatches(db: Db, keyword: string, condition: SQL | SearchFilter, wanted: number): Promise<PhraseMatches | null> {
  const chars = bigramPhrase(keyword);
  if (chars === null) return null;
  const expression = bigramQuery(chars);
  const [found] = await db.all<{ candidates: number; totals: string; ranked: string | null; scanned: string | null }>(sql`
    SELECT n.candidates AS candidates, (SELECT hex(block) FROM activity_search_data WHERE id = 1) AS totals,
      CASE WHEN n.candidates BETWEEN 1 AND ${SEARCH_CANDIDATE_LIMIT} THEN (${rankedCandidates(chars, condition, null)}) END AS ranked,
      CASE WHEN n.candidates > ${SEARCH_CANDIDATE_LIMIT} THEN (${phraseScanChunk(chars, condition, null, false, SEARCH_CANDIDATE_LIMIT + 1)}) END AS scanned
    FROM (SELECT count(*) AS candidates FROM (
      SELECT rowid FROM activity_search_bigrams WHERE activity_search_bigrams MATCH ${expression} LIMIT ${SEARCH_CANDIDATE_LIMIT + 1})) AS n`);
  if (!found) return { broad: false, ids: [] };
  if (found.ranked !== null)
    return { broad: false, ids: rankPhraseHits(chars, JSON.parse(found.ranked) as PhraseCandidate[], found.candidates, found.totals) };
  if (found.scanned === null) return { broad: false, ids: [] };
  const scanned = await scanBroadPhrase(db, chars, condition, wanted, JSON.parse(found.scanned) as PhraseScanChunk);
  if (scanned.matches > SEARCH_CANDIDATE_LIMIT) return { broad: true, ids: scanned.passing };
  // Fewer matches than candidates (pairs lying apart): every candidate was scanned, and the matches are ranked.
  const [details] = await db.all<{ ranked: string }>(sql`SELECT (${rankedCandidates(chars, condition, scanned.matched)}) AS ranked`);
  const read = details ? (JSON.parse(details.ranked) as PhraseCandidate[]) : [];
  return { broad: false, ids: rankPhraseHits(chars, read, scanned.matched.length, found.totals) };
}

/**
 * Whether a candidate of the phrase, its activity `activity`, is a match by the bigram table alone:
 * for two characters, unless the pair was made across a token the pair rule skips in that activity
 * (é, a full-width letter: the table of migration 0025); for more, never (pairs can lie apart).
 * One primary-key probe per candidate, of a table that is usually empty for the pair: measured
 * cheaper per statement than a NOT IN list, whose set-up is paid even where the scan does not run.
 */
function doclistMatches(chars: readonly string[], activity: SQL): SQL {
  return chars.length === 2
    ? sql`NOT EXISTS (SELECT 1 FROM activity_search_spanning_pairs WHERE pair = ${chars.join('')} AND activity_id = ${activity})`
    : sql`0`;
}

/**
 * The phrase's candidates to rank, all of them or only those whose activities are `matched` (known
 * matches), as one JSON value (a PhraseCandidate[]) of those whose text and docsize are read (by
 * rowid). bm25 needs the occurrences per column of every match that passes the condition; among
 * the known matches (`matched`, or a two-character phrase's candidates whose pair spans no token,
 * doclistMatches) under a narrowing filter, those that fail it are left unread, and rankPhraseHits
 * counts them from the number of candidates.
 */
function rankedCandidates(chars: readonly string[], condition: SQL | SearchFilter, matched: readonly number[] | null): SQL {
  const byKey = !(condition instanceof SQL) && condition.narrowing === null;
  const passes = byKey ? keyPasses(sql`b.id`, condition) : condition instanceof SQL ? condition : filterCondition(condition);
  const activity = sql`(b.id & 4294967295)`;
  const candidates = sql`(SELECT rowid AS id FROM activity_search_bigrams WHERE activity_search_bigrams MATCH ${bigramQuery(chars)}) AS b
    ${byKey ? sql`` : sql`CROSS JOIN activities a ON a.id = ${activity}`}`;
  // Without narrowing nearly every candidate passes and is read anyway, and the split below costs more
  // than the few it would leave unread; with more than two characters any candidate may be no match.
  const leavesUnread = matched !== null || (chars.length === 2 && !(condition instanceof SQL) && condition.narrowing !== null);
  if (!leavesUnread) {
    return sql`
      SELECT json_group_array(json_array(${activity}, (${passes}), doc.c0, doc.c1, doc.c2, hex(size.sz)))
      FROM ${candidates}
      JOIN activity_search_content doc ON doc.id = b.id
      JOIN activity_search_docsize size ON size.id = b.id`;
  }
  // The LIMIT (above the number of candidates ranked) keeps the subquery apart, so that `passes` is computed once per candidate.
  return sql`
    SELECT json_group_array(json_array(c.activity, c.passes, doc.c0, doc.c1, doc.c2, hex(size.sz)))
    FROM (
      SELECT b.id AS key, ${activity} AS activity, (${passes}) AS passes,
        ${matched === null ? doclistMatches(chars, activity) : sql`1`} AS known
      FROM ${candidates}
      ${matched === null ? sql`` : sql`WHERE ${activity} IN (SELECT value FROM json_each(${JSON.stringify(matched)}))`}
      LIMIT ${SEARCH_CANDIDATE_LIMIT}
    ) AS c
    CROSS JOIN activity_search_content doc ON doc.id = c.key
    CROSS JOIN activity_search_docsize size ON size.id = c.key
    WHERE NOT c.known OR c.passes`;
}

/**
 * The phrase's matches among the candidates read (rankedCandidates) with their text and size,
 * scored with bm25 over all matches (the phrase's document count: those read that match, and the
 * candidates not read, each a match), as the ids of those that pass the condition, in the index's
 * bm25 order (ties by id).
 */
function rankPhraseHits(chars: readonly string[], read: readonly PhraseCandidate[], candidates: number, totalsHex: string): number[] {
  const unread = candidates - read.length;
  const hits = read.flatMap(([id, passes, name, artist, venue, sizes]) => {
    const occurrences = [name, artist, venue].map((text) => phraseOccurrences(chars, text ?? ''));
    return occurrences.some((count) => count > 0)
      ? [{ id, passes: passes === 1, occurrences, tokens: documentTokens(hexBytes(sizes)) }]
      : [];
  });
  const totals = indexTotals(hexBytes(totalsHex));
  return hits
    .map((hit) => ({ id: hit.id, passes: hit.passes, score: bm25(hit, totals, hits.length + unread) }))
    .sort((a, b) => a.score - b.score || a.id - b.id)
    .flatMap((hit) => (hit.passes ? [hit.id] : []));
}

/**
 * One chunk of a phrase's candidates in the index's order, after the key `after` (from the first
 * when null), only those that pass the condition when `filtered`, stopping at `limit`, as one JSON
 * value (a PhraseScanChunk). A candidate of a two-character phrase is a match without its text
 * but where its pair spans a token (doclistMatches). The quick tests keep the text in SQLite, and a
 * broad phrase's candidates nearly all pass one, so each one's id is all that comes back. The index's name column
 * is the activity's three names with every CJK character spaced (migration 0002), so the phrase's
 * characters together in one of the names (read with the activity, for the condition) are the
 * phrase in that column; only a candidate whose names do not hold it has its indexed text read
 * (the content table, by rowid), spaced characters there being the phrase in the artist or venue.
 *
 * A search filter without narrowing needs no activity row (keyPasses): then every candidate's
 * indexed text that must be read is read instead, from the content table, whose rows lie in the index's order, so a
 * broad phrase's first candidates (the soonest shows) share pages with each other and with every
 * other broad search's, where their activities lie wherever their ids put them.
 */
function phraseScanChunk(
  chars: readonly string[],
  condition: SQL | SearchFilter,
  after: string | null,
  filtered: boolean,
  limit: number,
): SQL {
  const spaced = ` ${chars.join('  ')} `;
  const position = sql`activity_search_bigrams.rowid`;
  const candidates = sql`activity_search_bigrams MATCH ${bigramQuery(chars)}
    ${after === null ? sql`` : sql`AND ${position} > CAST(${after} AS INTEGER)`}`;
  const activity = sql`(${position} & 4294967295)`;
  if (!(condition instanceof SQL) && condition.narrowing === null) {
    const passes = keyPasses(position, condition);
    const entry = (doc: SQL) => sql`CASE WHEN instr(${doc}.c0, ${spaced}) OR instr(${doc}.c1, ${spaced}) OR instr(${doc}.c2, ${spaced})
      THEN CASE WHEN passes THEN activity ELSE -activity END ELSE json_array(activity, passes, ${doc}.c0, ${doc}.c1, ${doc}.c2) END`;
    // A two-character phrase reads the text of the few candidates its pair leaves open; a longer one
    // reads every candidate's, joined in the same pass.
    const twoCharacters = chars.length === 2;
    return sql`
      SELECT json_object(
        'entries', json_group_array(${
          twoCharacters
            ? sql`CASE WHEN known THEN CASE WHEN passes THEN activity ELSE -activity END
                ELSE json((SELECT ${entry(sql`doc`)} FROM activity_search_content doc WHERE doc.id = position)) END`
            : entry(sql`candidate`)
        } ORDER BY position),
        'last', CAST(max(position) AS TEXT))
      FROM (
        SELECT ${position} AS position, ${activity} AS activity, ${passes} AS passes,
          ${twoCharacters ? sql`${doclistMatches(chars, activity)} AS known` : sql`doc.c0 AS c0, doc.c1 AS c1, doc.c2 AS c2`}
        FROM activity_search_bigrams
        ${twoCharacters ? sql`` : sql`CROSS JOIN activity_search_content doc ON doc.id = ${position}`}
        WHERE ${candidates} ${filtered ? sql`AND ${passes}` : sql``}
        ORDER BY ${position}
        LIMIT ${limit}
      ) AS candidate`;
  }
  const where = condition instanceof SQL ? condition : filterCondition(condition);
  const phrase = chars.join('');
  return sql`
    SELECT json_object(
      'entries', json_group_array(CASE WHEN known THEN CASE WHEN passes THEN activity ELSE -activity END ELSE json((
        SELECT CASE WHEN instr(doc.c1, ${spaced}) OR instr(doc.c2, ${spaced}) THEN CASE WHEN passes THEN activity ELSE -activity END
          ELSE json_array(activity, passes, doc.c0, doc.c1, doc.c2) END
        FROM activity_search_content doc WHERE doc.id = position)) END ORDER BY position),
      'last', CAST(max(position) AS TEXT))
    FROM (
      SELECT ${position} AS position, a.id AS activity, (${where}) AS passes,
             (${doclistMatches(chars, sql`a.id`)} OR instr(a.name_zh_hant, ${phrase}) OR instr(a.name_zh_hans, ${phrase}) OR instr(a.name_en, ${phrase})) AS known
      FROM activity_search_bigrams
      CROSS JOIN activities a ON a.id = (${position} & 4294967295)
      WHERE ${candidates} ${filtered ? sql`AND ${where}` : sql``}
      ORDER BY ${position}
      LIMIT ${limit}
    )`;
}

interface BroadScan {
  /** Matches seen, whatever the condition: more than SEARCH_CANDIDATE_LIMIT makes the phrase broad. */
  matches: number;
  /** The activities of the matches seen, when they are few enough to rank. */
  matched: number[];
  /** The first `wanted` matches whose activity passes the condition, as activity ids in index order. */
  passing: number[];
}

/**
 * Reads a phrase's candidates in the index's order from the first chunk (of up to
 * SEARCH_CANDIDATE_LIMIT + 1), a chunk at a time, each read stopping at its LIMIT: first all of
 * them, to count matches up to SEARCH_CANDIDATE_LIMIT + 1 and take the passing ones on the way,
 * then, if the condition kept fewer than `wanted`, only those that pass it. phraseOccurrences
 * decides the candidates whose text came back (their pairs may lie apart, or a separator lie between).
 */
async function scanBroadPhrase(
  db: Db,
  chars: readonly string[],
  condition: SQL | SearchFilter,
  wanted: number,
  first: PhraseScanChunk,
): Promise<BroadScan> {
  const scan: BroadScan = { matches: 0, matched: [], passing: [] };
  let chunk = first;
  let limit = SEARCH_CANDIDATE_LIMIT + 1;
  let filtered = false;
  for (;;) {
    for (const entry of chunk.entries) {
      const [id, passes, matches] =
        typeof entry === 'number'
          ? [Math.abs(entry), entry > 0, true]
          : [entry[0], entry[1] === 1, entry.slice(2).some((text) => phraseOccurrences(chars, String(text ?? '')) > 0)];
      if (!matches) continue;
      if (!filtered) {
        scan.matches++;
        if (scan.matches <= SEARCH_CANDIDATE_LIMIT) scan.matched.push(id);
      }
      if (passes && scan.passing.length < wanted) scan.passing.push(id);
    }
    if (chunk.entries.length < limit || chunk.last === null) return scan;
    if (scan.matches > SEARCH_CANDIDATE_LIMIT) {
      if (scan.passing.length >= wanted) return scan;
      filtered = true;
    }
    limit = filtered ? wanted - scan.passing.length : SEARCH_CANDIDATE_LIMIT + 1 - scan.matches;
    const [next] = await db.all<{ chunk: string }>(
      sql`SELECT (${phraseScanChunk(chars, condition, chunk.last, filtered, limit)}) AS chunk`,
    );
    chunk = next ? (JSON.parse(next.chunk) as PhraseScanChunk) : { entries: [], last: null };
  }
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
function keyPasses(key: SQL, filter: SearchFilter): SQL {
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
 * of migration 0022 (services/search/suggestions.ts); the main index answers, in the same order and
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

/** Activities `a` shown to buyers and not yet ended at `now`. */
export function upcomingListed(now: Bound<number>): SQL {
  return sql`a.ends_at >= ${now} AND a.status IN (${sql.join(
    LISTED_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  )})`;
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
