/**
 * What every keyword of the search bench's query mix answers, and what it costs the server, on the
 * bench's catalogues (.wrangler/bench-search-<size>, made by `npm run bench:search`), through the
 * built worker: per keyword its total, whether that is a lower bound ("500+") and the ids of the
 * first page by relevance and by time (and by relevance in one city); then each keyword requested REPEATS times in a row, with the
 * server's CPU time per request (wrangler and workerd, from /proc) and the median latency. A search
 * change must leave the pages exactly as they were: record them before, then compare after.
 *
 *   node scripts/bench/search-pages.ts record before.json       record (sizes: BENCH_SEARCH_SIZES, default 1000,100000,1000000)
 *   node scripts/bench/search-pages.ts compare before.json      record again and list every keyword whose pages differ
 *
 * BENCH_PORT sets the server's port (default 8791); the build in dist/ is used as it is.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { percentile, processTreeCpuMs } from './measurements.ts';
import { ROOT, serveArgs, WRANGLER, MEASURING_ENV } from '../local-db.ts';
import { startServer } from '../server.ts';

const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '1000,100000,1000000').split(',').map(Number);
const REPEATS = 10;
const port = Number(process.env.BENCH_PORT) || 8791;
const baseUrl = `http://127.0.0.1:${port}`;

/** A city filter, which the bench's searches (every city) leave out: Hong Kong, the demo seed's default city. */
const FILTER_CITY = 341;

/** A page of the listing's answer, as compared. */
interface ListData {
  total: number;
  totalIsLowerBound: boolean;
  result: { id: number }[];
}

/** What a keyword answers (pages) and costs, per catalogue size. */
interface Answer {
  total: number;
  lowerBound: boolean;
  relevance: number[];
  time: number[];
  inCity: { total: number; lowerBound: boolean; relevance: number[] };
}
type Recorded = Record<string, { answers: Record<string, Answer>; costs: Record<string, { cpu: number; ms: number }> }>;

type Sort = 'relevance' | 'time';

const listPath = (keyword: string, sort: Sort, city: number | null) =>
  `/api/v1/list/s_${encodeURIComponent(keyword)}?sceneType=searchV2&ignoreCityId=true${sort === 'relevance' ? '' : `&sort=${sort}`}${city ? `&city=${city}` : ''}`;

async function list(keyword: string, sort: Sort, city: number | null = null): Promise<ListData> {
  const response = await fetch(`${baseUrl}${listPath(keyword, sort, city)}`);
  const body = (await response.json()) as { message?: string; data: ListData };
  if (response.status !== 200) throw new Error(`${keyword} (${sort}) answered ${response.status}: ${body.message}`);
  return body.data;
}

/**
 * The keyword's answer: total, lower-bound flag, and the first page's ids by relevance and by time,
 * and the same by relevance in one city.
 */
async function pages(keyword: string): Promise<Answer> {
  const [relevance, time, inCity] = [
    await list(keyword, 'relevance'),
    await list(keyword, 'time'),
    await list(keyword, 'relevance', FILTER_CITY),
  ];
  const ids = (data: ListData) => data.result.map((card) => card.id);
  return {
    total: relevance.total,
    lowerBound: relevance.totalIsLowerBound,
    relevance: ids(relevance),
    time: ids(time),
    inCity: { total: inCity.total, lowerBound: inCity.totalIsLowerBound, relevance: ids(inCity) },
  };
}

/** The keyword requested REPEATS times by relevance: server CPU ms per request (mean) and median latency. */
async function cost(keyword: string, cpuMs: () => number | null): Promise<{ cpu: number; ms: number }> {
  const latencies: number[] = [];
  const before = cpuMs() ?? Number.NaN;
  for (let i = 0; i < REPEATS; i++) {
    const started = performance.now();
    await list(keyword, 'relevance');
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  return { cpu: Number((((cpuMs() ?? Number.NaN) - before) / REPEATS).toFixed(1)), ms: Number(percentile(latencies, 0.5)?.toFixed(1)) };
}

async function record(): Promise<Recorded> {
  const sizes: Recorded = {};
  for (const size of SIZES) {
    const persistTo = path.join(ROOT, '.wrangler', `bench-search-${size}`);
    const marker = path.join(persistTo, 'catalogue.json');
    if (!existsSync(marker)) throw new Error(`No catalogue of ${size} activities in ${persistTo}: run npm run bench:search first`);
    const keywords: string[] = [...new Set<string>(JSON.parse(readFileSync(marker, 'utf8')).queries)];
    const server = await startServer({
      command: WRANGLER,
      args: serveArgs(persistTo, port),
      env: { ...MEASURING_ENV, CI: 'true' },
      url: `${baseUrl}/api/v1/currency`,
    });
    try {
      const answers: Record<string, Answer> = {};
      for (const keyword of keywords) answers[keyword] = await pages(keyword);
      const costs: Record<string, { cpu: number; ms: number }> = {};
      for (const keyword of keywords) costs[keyword] = await cost(keyword, () => processTreeCpuMs(server.pid));
      sizes[size] = { answers, costs };
      const slowest = Object.entries(costs)
        .sort((a, b) => b[1].cpu - a[1].cpu)
        .slice(0, 5)
        .map(([keyword, { cpu, ms }]) => `${keyword} ${cpu} ms CPU, ${ms} ms`);
      console.log(`${size}: most server CPU per request: ${slowest.join('; ')}`);
    } finally {
      await server.stop();
    }
  }
  return sizes;
}

function differences(before: Recorded, after: Recorded): string[] {
  const found: string[] = [];
  for (const [size, { answers }] of Object.entries(before)) {
    for (const [keyword, answer] of Object.entries(answers)) {
      const now = after[size]?.answers[keyword];
      if (JSON.stringify(now) !== JSON.stringify(answer)) {
        found.push(`${size} ${keyword}: before ${JSON.stringify(answer)}, after ${JSON.stringify(now)}`);
      }
    }
  }
  return found;
}

const [command, file] = process.argv.slice(2);
if (!['record', 'compare'].includes(command) || !file) {
  console.error('Usage: node scripts/bench/search-pages.ts record|compare <file.json>');
  process.exitCode = 2;
} else if (command === 'record') {
  writeFileSync(file, `${JSON.stringify(await record(), null, 1)}\n`);
} else {
  const before: Recorded = JSON.parse(readFileSync(file, 'utf8'));
  const after = await record();
  writeFileSync(file.replace(/\.json$/, '-after.json'), `${JSON.stringify(after, null, 1)}\n`);
  const found = differences(before, after);
  const keywords = Object.values(before).reduce((sum, { answers }) => sum + Object.keys(answers).length, 0);
  console.log(found.length === 0 ? `The same pages for all ${keywords} keywords.` : found.join('\n'));
  if (found.length > 0) process.exitCode = 1;
}
