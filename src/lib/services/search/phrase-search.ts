/** CJK phrases (such as 高靜文) found through the bigram table of migrations 0020 and 0021 rather than the main index, ranked or scanned as the main index would. */
import { SQL, sql } from 'drizzle-orm';
import { SEARCH_CANDIDATE_LIMIT } from '../../config/browse.ts';
import type { Db } from '../../data/client.ts';
import { bm25, documentTokens, hexBytes, indexTotals } from '../../domain/search-rank.ts';
import { bigramPhrase, bigramQuery, phraseOccurrences } from '../../domain/search-text.ts';
import { filterCondition, keyPasses, type SearchFilter } from './search.ts';

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
