/**
 * What each step of a search costs SQLite, on the search bench's catalogues (.wrangler/bench-search-<size>,
 * made by `npm run bench:search`), without the worker: every keyword of the bench's query mix is
 * searched once through the services' own functions (phraseMatches, indexMatches, the cards'
 * query) over node:sqlite, read-only, as the listing asks for the first page by relevance in every
 * city, and the statements each search sent are recorded. They are then replayed on one connection
 * in the bench's rotation (the mix in order, ROUNDS times after one round of warm-up), first with
 * SQLite's default page cache (about 2 MB, as the local D1's), then with a cache that holds the
 * whole catalogue: per step (the bigram statement, the index statement, the cards) the median CPU
 * time per search and the pages read from the file (read system calls, from /proc/self/io), by the
 * role each keyword plays in the mix (search.ts's queryMix), then the costliest keywords.
 * The difference between the two caches is what misses cost.
 *
 *   node scripts/bench/search-statements.ts            sizes: BENCH_SEARCH_SIZES, default 1000,1000000
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { inArray } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/sqlite-proxy';
import { LISTING_PAGE_SIZE, SEARCH_CANDIDATE_LIMIT } from '../../src/lib/config/browse.ts';
import { activities } from '../../src/lib/db/schema.ts';
import { cardQuery } from '../../src/lib/services/catalogue/catalogue.ts';
import { phraseMatches } from '../../src/lib/services/search/phrase-search.ts';
import { indexMatches, matchAttempts } from '../../src/lib/services/search/search.ts';
import { ROOT } from '../local-db.ts';

const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '1000,1000000').split(',').map(Number);
const ROUNDS = 7;
/** A page cache (KiB) larger than the 1,000,000-activity catalogue: no search then reads a page twice. */
const WHOLE_CACHE_KIB = 4_000_000;

/** A statement a search sent: the step it belongs to, its SQL and parameters. */
interface Sent {
  step: string;
  text: string;
  params: SQLInputValue[];
}

/** The database the services search, as they take it. */
type SearchDatabase = Parameters<typeof phraseMatches>[0];

function catalogue(size: number): { file: string; queries: string[] } {
  const persistTo = path.join(ROOT, '.wrangler', `bench-search-${size}`);
  const folder = path.join(persistTo, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const file = readdirSync(folder).find((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
  if (!file) throw new Error(`No catalogue of ${size} activities in ${persistTo}: run npm run bench:search first`);
  return { file: path.join(folder, file), queries: JSON.parse(readFileSync(path.join(persistTo, 'catalogue.json'), 'utf8')).queries };
}

/** The role of the mix's i-th keyword, by queryMix's layout: 8 artists of 6 keywords, 4 venues of 3, then the broad words. */
function role(i: number): string {
  if (i < 48) return ['English name', 'Traditional name', 'Simplified name', 'pinyin', '4-letter prefix', '2-character given name'][i % 6];
  if (i < 60) return ['venue (English)', 'venue (2 CJK characters)', 'show name (CJK)'][(i - 48) % 3];
  return 'broad word, no match';
}

/** Each distinct keyword's statements (step, SQL, parameters), sent by the services while searching it. */
async function record(file: string, keywords: string[], now: number): Promise<Map<string, Sent[]>> {
  const connection = new DatabaseSync(file, { readOnly: true });
  let sent: Sent[] = [];
  let step = '';
  // Drizzle maps a select's rows from arrays (its SQL starts with a lowercase "select"); a raw statement's rows are objects.
  // The services' queries take D1's driver; this one answers them from node:sqlite, statement for statement.
  const db = drizzle(async (text, params: SQLInputValue[], method) => {
    const statement = connection.prepare(text);
    statement.setReturnArrays(text.startsWith('select '));
    sent.push({ step, text, params });
    const rows = statement.all(...params);
    // Drizzle's proxy types its rows as arrays whatever the shape: each is what the statement returned.
    return { rows: (method === 'get' ? rows[0] : rows) as unknown as unknown[] };
  }) as unknown as SearchDatabase;
  const recorded = new Map<string, Sent[]>();
  for (const keyword of new Set(keywords)) {
    sent = [];
    const filter = { now, narrowing: null };
    step = 'bigrams';
    const phrase = await phraseMatches(db, keyword, filter, SEARCH_CANDIDATE_LIMIT + 1);
    let ids: number[] = [];
    for (const [attempt, expression] of matchAttempts(keyword).entries()) {
      step = attempt === 0 && phrase !== null ? 'bigrams' : 'index';
      ids = attempt === 0 && phrase !== null ? phrase.ids : await indexMatches(db, expression, filter);
      if (ids.length > 0) break;
    }
    step = 'cards';
    if (ids.length > 0) await cardQuery(db, now).where(inArray(activities.id, ids.slice(0, LISTING_PAGE_SIZE)));
    recorded.set(keyword, sent);
  }
  connection.close();
  return recorded;
}

const readCalls = () => Number(/syscr: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Per keyword and step, the median CPU µs and pages read over ROUNDS rounds of the mix in rotation. */
function replay(
  file: string,
  keywords: string[],
  recorded: Map<string, Sent[]>,
  cacheKib: number | null,
): Map<string, { cpu: number; reads: number }> {
  const connection = new DatabaseSync(file, { readOnly: true });
  if (cacheKib !== null) connection.exec(`PRAGMA cache_size = -${cacheKib}`);
  const prepared = new Map<string, StatementSync>();
  // Reading /proc/self/io is itself a few read calls.
  const ownReads = -(readCalls() - readCalls());
  const samples = new Map<string, { cpu: number[]; reads: number[] }>();
  for (let round = -1; round < ROUNDS; round++) {
    for (const keyword of keywords) {
      const steps = new Map<string, { cpu: number; reads: number }>();
      for (const { step, text, params } of recorded.get(keyword) ?? []) {
        const statement = prepared.get(text) ?? connection.prepare(text);
        prepared.set(text, statement);
        const [reads, cpu] = [readCalls(), cpuMicros()];
        statement.all(...params);
        const spent = cpuMicros() - cpu;
        const read = readCalls() - reads - ownReads;
        const sum = steps.get(step) ?? { cpu: 0, reads: 0 };
        steps.set(step, { cpu: sum.cpu + spent, reads: sum.reads + read });
      }
      if (round < 0) continue;
      for (const [step, { cpu, reads }] of steps) {
        const key = `${keyword}\t${step}`;
        const sample = samples.get(key) ?? { cpu: [], reads: [] };
        sample.cpu.push(cpu);
        sample.reads.push(reads);
        samples.set(key, sample);
      }
    }
  }
  connection.close();
  return new Map([...samples].map(([key, { cpu, reads }]) => [key, { cpu: median(cpu), reads: median(reads) }]));
}

const ms = (micros: number) => (micros / 1000).toFixed(2);

for (const size of SIZES) {
  const { file, queries } = catalogue(size);
  const recorded = await record(file, queries, Date.now());
  for (const cacheKib of [null, WHOLE_CACHE_KIB]) {
    const costs = replay(file, queries, recorded, cacheKib);
    console.log(
      `\n${size} activities, ${cacheKib === null ? 'default page cache' : 'page cache holding the catalogue'}: per search, CPU ms (pages read)`,
    );
    const byRole = new Map();
    queries.forEach((keyword, i) => {
      const sums = byRole.get(role(i)) ?? { searches: 0, steps: new Map() };
      sums.searches++;
      for (const [key, cost] of costs) {
        const [of, step] = key.split('\t');
        if (of !== keyword) continue;
        const sum = sums.steps.get(step) ?? { cpu: 0, reads: 0 };
        sums.steps.set(step, { cpu: sum.cpu + cost.cpu, reads: sum.reads + cost.reads });
      }
      byRole.set(role(i), sums);
    });
    for (const [name, { searches, steps }] of byRole) {
      const parts = [...steps].map(([step, sum]) => `${step} ${ms(sum.cpu / searches)} (${Math.round(sum.reads / searches)})`);
      console.log(`  ${name.padEnd(26)} ${parts.join(', ')}`);
    }
    const costliest = [...costs].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 8);
    console.log(`  costliest: ${costliest.map(([key, cost]) => `${key.replace('\t', ' ')} ${ms(cost.cpu)} (${cost.reads})`).join('; ')}`);
  }
}
