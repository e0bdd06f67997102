/**
 * `npm run bench`: builds, starts the built worker (workerd via wrangler) on a freshly seeded
 * database, and measures on this machine the cold start (spawn to the first 200 of the home page)
 * and, with autocannon at a fixed concurrency, requests per second and p50/p95/p99 latency of each
 * target; then runs scripts/bench/search.ts (search latency at catalogue sizes) and folds its rows
 * in. Writes bench-results/bench-<time>.json, bench-results/latest.json and latest.md (the table),
 * and prints the table. A benchmark, not a test: it fails only when it cannot measure (no server,
 * an error or a non-2xx answer under load).
 *
 *   npm run bench                       build, then measure
 *   BENCH_SKIP_BUILD=1 npm run bench    measure the dist/ already built
 *   npm run bench -- --publish          also put the table into docs/performance.md (between the bench markers)
 *   npm run bench -- --only=rendered    only the load rows whose name has one of these comma-separated
 *                                       words, each followed by the static file as its ceiling; prints
 *                                       them and each page's share of that rate (no cold starts,
 *                                       checkout, far region, search or files written)
 *   BENCH_PORT=8790                     the server's port (default 8790)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Request } from 'autocannon';
import { benchCheckout, type LoadRow, type MessageTimes, prepareCheckoutListing } from './checkout.ts';
import { COUNT_ROUND_TRIPS_HEADER, ROUND_TRIPS_HEADER } from '../../src/lib/data/measured-d1.ts';
import { build, migrate, ROOT, seedIfEmpty, serveArgs, WRANGLER, MEASURING_ENV } from '../local-db.ts';
import { assertNothingAnswers, type StartedServer, startServer } from '../server.ts';
import { type Machine, machine, percentile } from './measurements.ts';

const CONNECTIONS = 10;
const DURATION_S = 10;
const WARMUP_S = 2;
const COLD_STARTS = 3;
const COLD_START_TIMEOUT_MS = 60_000;
/** The far-region run: this much added to every D1 round trip, and the time to first byte of each page, one request at a time. */
const D1_LATENCY_MS = 40;
const TTFB_SAMPLES = 30;
const TABLE_START = '<!-- bench:start -->';
const TABLE_END = '<!-- bench:end -->';
/** Where the published table lives, between the markers. */
const PUBLISHED = path.join(ROOT, 'docs', 'performance.md');

/** What is measured under load on the demo catalogue; checkout under concurrent buyers follows (scripts/bench/checkout.ts). */
// A page "rendered" is asked for with a query no request shares, so the edge cache misses each time
// and Astro renders it; "from the edge cache" is the same URL over and over. The static file is the
// ceiling the same server reaches without the worker's code.
/** A request measured under load; a `rendered` one is asked with a query no other request has. */
interface Target {
  name: string;
  path: string;
  rendered?: boolean;
}

/** A row of the far-region run: time to first byte. */
interface FirstByteRow {
  name: string;
  p50Ms: number;
  p95Ms: number;
}

/** A catalogue size's row of scripts/bench/search.ts's report, as the table reads it. */
interface SearchRow extends Record<'p50' | 'p95' | 'p99', number> {
  catalogue: number;
  loadSeconds: number;
  rps: number;
  broad: Record<'p50' | 'p95' | 'p99', number>;
  suggest: Record<'p50' | 'p95', number>;
}

interface SearchReport {
  broadQueries: string[];
  rows: SearchRow[];
}

interface BenchReport {
  date: string;
  machine: Machine & { loadAverage1m: number };
  connections: number;
  durationS: number;
  warmupS: number;
  coldStart: { medianMs: number; runsMs: number[] };
  rows: LoadRow[];
  farRegion: { d1LatencyMs: number; rows: FirstByteRow[] };
  messages: MessageTimes;
  search: SearchReport;
}

const TARGETS: Target[] = [
  { name: 'home page, from the edge cache', path: '/en/' },
  { name: 'home page, rendered', path: '/en/', rendered: true },
  { name: 'activity detail page, from the edge cache', path: '/en/activity/1000' },
  { name: 'activity detail page, rendered', path: '/en/activity/1000', rendered: true },
  { name: 'category page, from the edge cache', path: '/en/concerts' },
  { name: 'category page, rendered', path: '/en/concerts', rendered: true },
  { name: 'static file', path: '/favicon.svg' },
  { name: 'home config API', path: '/api/' },
  { name: 'search suggestions API', path: '/api/api/v1/activities/suggest?ignoreCityId=true&input=hong' },
];

const STATIC_FILE = 'static file';

const port = Number(process.env.BENCH_PORT) || 8790;
const baseUrl = `http://127.0.0.1:${port}`;
const persistTo = path.join(ROOT, '.wrangler', `bench-state-${port}`);
const resultsDir = path.join(ROOT, 'bench-results');

/** Starts the worker; its startMs is the cold start: from spawn to the first 200 of the home page. */
function startBenchServer(vars?: Record<string, string>): Promise<StartedServer> {
  return startServer({
    command: WRANGLER,
    args: serveArgs(persistTo, port, vars),
    env: MEASURING_ENV,
    url: `${baseUrl}${TARGETS[0].path}`,
    up: (status) => {
      if (status !== 200) throw new Error(`${TARGETS[0].path} answered ${status} instead of 200`);
      return true;
    },
    timeoutMs: COLD_START_TIMEOUT_MS,
    pollMs: 20,
  });
}

const assertPortFree = () => assertNothingAnswers(baseUrl, 'set BENCH_PORT');

let uniqueQueries = 0;
/** The target's path; a rendered page's with a query no other request has had, so the edge cache misses. */
function pathOf(target: Target): string {
  uniqueQueries += 1;
  return target.rendered ? `${target.path}?render=${uniqueQueries}` : target.path;
}

/** The D1 round trips one request of the target makes, as the local worker counts them (src/lib/data/measured-d1.ts). */
async function roundTripsOf(target: Target): Promise<number> {
  const response = await fetch(`${baseUrl}${pathOf(target)}`, { headers: { [COUNT_ROUND_TRIPS_HEADER]: '1' } });
  await response.arrayBuffer();
  return Number(response.headers.get(ROUND_TRIPS_HEADER));
}

/** Milliseconds to the first byte (fetch resolves on the headers) of requests sent one after another. */
async function timesToFirstByte(name: string, send: () => Promise<Response>): Promise<FirstByteRow> {
  const times: number[] = [];
  for (let sample = 0; sample < TTFB_SAMPLES; sample += 1) {
    const started = performance.now();
    const response = await send();
    times.push(performance.now() - started);
    if (!response.ok) throw new Error(`${name} answered ${response.status} in the far-region run`);
    await response.arrayBuffer();
  }
  times.sort((a, b) => a - b);
  return { name, p50Ms: Number(percentile(times, 0.5)?.toFixed(1)), p95Ms: Number(percentile(times, 0.95)?.toFixed(1)) };
}

async function load(target: Target, durationS: number): Promise<LoadRow> {
  const url = `${baseUrl}${target.path}`;
  const latencies: number[] = [];
  const requests: Request[] | undefined = target.rendered
    ? [{ setupRequest: (request) => ({ ...request, path: pathOf(target) }) }]
    : undefined;
  const instance = autocannon({ url, connections: CONNECTIONS, duration: durationS, requests });
  instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  const result = await instance;
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) {
    throw new Error(
      `${target.name} (${url}) under load: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`,
    );
  }
  latencies.sort((a, b) => a - b);
  const round = (ms: number | null) => Number(ms?.toFixed(1));
  return {
    name: target.name,
    request: `GET ${target.path}${target.rendered ? '?render=<n>' : ''}`,
    requestsPerSecond: Math.round(result.requests.average),
    requests: latencies.length,
    p50Ms: round(percentile(latencies, 0.5)),
    p95Ms: round(percentile(latencies, 0.95)),
    p99Ms: round(percentile(latencies, 0.99)),
    roundTrips: await roundTripsOf(target),
  };
}

/** Search at catalogue sizes needs its own generated databases: scripts/bench/search.ts builds and measures them. */
function searchReport(): SearchReport {
  const file = path.join(resultsDir, 'search.json');
  rmSync(file, { force: true });
  const { status } = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'bench', 'search.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, BENCH_SKIP_BUILD: '1' },
  });
  if (status !== 0) throw new Error(`scripts/bench/search.ts failed (exit ${status}); see its output above.`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** One search latency with its ratio to the 1,000-activity row's (the scaling targets are ratios). */
function searchCell(ms: number, baseMs: number | undefined): string {
  return baseMs ? `${ms} (${(ms / baseMs).toFixed(2)}×)` : String(ms);
}

function searchTable(search: SearchReport): string[] {
  const base = search.rows.find((row) => row.catalogue === 1000);
  return [
    '| Activities | load s | req/s | p50 | p95 | p99 | broad p50 | broad p95 | broad p99 | suggest p50 | suggest p95 |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...search.rows
      .map((row) =>
        [
          row.catalogue.toLocaleString('en'),
          row.loadSeconds,
          row.rps,
          ...(['p50', 'p95', 'p99'] as const).map((key) => searchCell(row[key], base?.[key])),
          ...(['p50', 'p95', 'p99'] as const).map((key) => searchCell(row.broad[key], base?.broad[key])),
          ...(['p50', 'p95'] as const).map((key) => searchCell(row.suggest[key], base?.suggest[key])),
        ].join(' | '),
      )
      .map((cells) => `| ${cells} |`),
  ];
}

/** Each page row's req/s as a percentage of the static file's (the targets: cached >= 50%, rendered >= 25%). */
function staticShares(rows: LoadRow[]): string {
  const ceiling = rows.find((row) => row.name === STATIC_FILE)?.requestsPerSecond;
  if (!ceiling) return 'no static row';
  return TARGETS.filter((target) => target.path.startsWith('/en/'))
    .map((target) => {
      const row = rows.find((candidate) => candidate.name === target.name);
      return `${target.name} ${row ? Math.round((100 * row.requestsPerSecond) / ceiling) : '–'}%`;
    })
    .join(', ');
}

function table(report: BenchReport): string {
  const { machine: m } = report;
  const lines = [
    `Measured ${report.date.slice(0, 10)} on ${m.cpus} CPUs (${m.model}), ${m.memoryGiB} GiB memory, ${m.os}, Node ${m.node};`,
    `Demo-catalogue rows: ${report.connections} concurrent connections for ${report.durationS} s after a ${report.warmupS} s warm-up. Load average ${m.loadAverage1m} at start.`,
    '',
    '| What | Request | req/s | p50 ms | p95 ms | p99 ms | D1 round trips |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...report.rows.map(
      (row) =>
        `| ${row.name} | \`${row.request}\` | ${row.requestsPerSecond} | ${row.p50Ms.toFixed(1)} | ${row.p95Ms.toFixed(1)} | ${row.p99Ms.toFixed(1)} | ${row.roundTrips ?? '–'} |`,
    ),
    '',
    `With ${report.farRegion.d1LatencyMs} ms added to every D1 round trip (a primary in a far region), time to first byte, ${TTFB_SAMPLES} requests one at a time:`,
    '',
    '| What | p50 ms | p95 ms |',
    '| --- | ---: | ---: |',
    ...report.farRegion.rows.map((row) => `| ${row.name} | ${row.p50Ms.toFixed(1)} | ${row.p95Ms.toFixed(1)} |`),
    '',
    `Pages as a share of the static file's req/s in the same run: ${staticShares(report.rows)}.`,
    '',
    `Messages (${report.messages.orderPlaced.samples}, one at a time) in the dev outbox: a login code ${report.messages.loginCode.p50Ms} ms after asking (p50; sent in the request), an order's "placed" message ${report.messages.orderPlaced.p50Ms} ms after ordering (p50; p95 ${report.messages.orderPlaced.p95Ms} ms; through the queue).`,
    '',
    `Cold start (spawn of the built worker to the first 200 of \`${TARGETS[0].path}\`): ${(report.coldStart.medianMs / 1000).toFixed(2)} s, median of ${report.coldStart.runsMs.length}.`,
    '',
    `Search (scripts/bench/search.ts), generated catalogues, their servers taking turns pass by pass: ms per sequential request of its query mix, its broad words (${report.search.broadQueries.join(', ')}) and suggestions (every prefix of its artists' names), with the ratio to 1,000 activities; req/s under load:`,
    '',
    ...searchTable(report.search),
  ];
  return `${lines.join('\n')}\n`;
}

function publish(markdown: string): void {
  const page = readFileSync(PUBLISHED, 'utf8');
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${PUBLISHED} has no ${TABLE_START} ... ${TABLE_END} markers to put the table between.`);
  writeFileSync(PUBLISHED, `${page.slice(0, start + TABLE_START.length)}\n${markdown}${page.slice(end)}`);
}

/** The words of `--only=a,b`, or null when the whole bench runs. */
function onlyWords(): string[] | null {
  const option = process.argv.find((arg) => arg.startsWith('--only='));
  return option ? option.slice('--only='.length).split(',').filter(Boolean) : null;
}

/**
 * `--only`: the chosen load rows on one freshly seeded server, nothing else. Each page row is
 * followed by a static-file row and compared with it: on a machine other work keeps busy, the load
 * changes from one minute to the next, and a ceiling measured next to the page tells more than one
 * measured once.
 */
async function measureOnly(words: string[]): Promise<void> {
  if (process.argv.includes('--publish')) throw new Error('--only measures part of the table: it cannot replace the published one.');
  const staticFile = TARGETS.find((target) => target.name === STATIC_FILE)!;
  const chosen = TARGETS.filter((target) => target !== staticFile && words.some((word) => target.name.includes(word)));
  const loadAtStart = Number(os.loadavg()[0].toFixed(2));
  await assertPortFree();
  rmSync(persistTo, { recursive: true, force: true });
  migrate(persistTo);
  seedIfEmpty(persistTo);
  if (!process.env.BENCH_SKIP_BUILD) build();
  const server = await startBenchServer();
  const shares: string[] = [];
  const measure = async (target: Target) => {
    await load(target, WARMUP_S);
    const row = await load(target, DURATION_S);
    console.log(
      `${row.name}: ${row.requestsPerSecond} req/s, p50 ${row.p50Ms} ms, p95 ${row.p95Ms} ms, p99 ${row.p99Ms} ms, ${row.roundTrips} D1 round trips`,
    );
    return row;
  };
  try {
    for (const target of chosen) {
      const row = await measure(target);
      const ceiling = await measure(staticFile);
      shares.push(`${row.name} ${Math.round((100 * row.requestsPerSecond) / ceiling.requestsPerSecond)}%`);
    }
  } finally {
    await server.stop();
  }
  console.log(`\nLoad average ${loadAtStart} at start, ${os.loadavg()[0].toFixed(2)} at the end.`);
  console.log(`Each page as a share of the static file's req/s measured right after it: ${shares.join(', ')}.`);
}

async function main() {
  const words = onlyWords();
  if (words) return measureOnly(words);
  const loadAtStart = Number(os.loadavg()[0].toFixed(2));
  await assertPortFree();
  rmSync(persistTo, { recursive: true, force: true });
  migrate(persistTo);
  seedIfEmpty(persistTo);
  const checkoutListing = prepareCheckoutListing(persistTo);
  if (!process.env.BENCH_SKIP_BUILD) build();

  const coldRuns: number[] = [];
  let server: StartedServer | undefined;
  for (let run = 0; run < COLD_STARTS; run += 1) {
    await server?.stop();
    server = await startBenchServer();
    coldRuns.push(Number(server.startMs.toFixed(0)));
    console.log(`cold start ${run + 1}: ${server.startMs.toFixed(0)} ms`);
  }
  const rows: LoadRow[] = [];
  let placeOrder: () => Promise<Response>;
  let messages: MessageTimes;
  try {
    for (const target of TARGETS) {
      await load(target, WARMUP_S);
      const row = await load(target, DURATION_S);
      console.log(`${row.name}: ${row.requestsPerSecond} req/s, p50 ${row.p50Ms} ms, p95 ${row.p95Ms} ms, p99 ${row.p99Ms} ms`);
      rows.push(row);
    }
    const checkoutRun = await benchCheckout({
      baseUrl,
      listing: checkoutListing,
      connections: CONNECTIONS,
      durationS: DURATION_S,
      warmupS: WARMUP_S,
    });
    const checkout = checkoutRun.row;
    messages = checkoutRun.messages;
    placeOrder = checkoutRun.placeOrder;
    console.log(`${checkout.name}: ${checkout.requestsPerSecond} req/s, p95 ${checkout.p95Ms} ms (${checkout.verified})`);
    rows.push(checkout);
  } finally {
    await server?.stop();
  }
  server = await startBenchServer({ APP_ENV: 'local', D1_LATENCY_MS: String(D1_LATENCY_MS) });
  const farRows: FirstByteRow[] = [];
  try {
    const sends = TARGETS.filter((candidate) => candidate.path.startsWith('/en/')).map((target) => ({
      name: target.name,
      send: () => fetch(`${baseUrl}${pathOf(target)}`),
    }));
    // The same database: the checkout's buyers are still signed in and its listing still has stock.
    sends.push({ name: 'checkout: create order', send: placeOrder });
    for (const { name, send } of sends) {
      const row = await timesToFirstByte(name, send);
      console.log(`${row.name} at ${D1_LATENCY_MS} ms per D1 round trip: first byte p50 ${row.p50Ms} ms, p95 ${row.p95Ms} ms`);
      farRows.push(row);
    }
  } finally {
    await server.stop();
  }
  const search = searchReport();

  const report = {
    date: new Date().toISOString(),
    machine: { ...machine(), loadAverage1m: loadAtStart },
    connections: CONNECTIONS,
    durationS: DURATION_S,
    warmupS: WARMUP_S,
    coldStart: { medianMs: [...coldRuns].sort((a, b) => a - b)[Math.floor(coldRuns.length / 2)], runsMs: coldRuns },
    rows,
    farRegion: { d1LatencyMs: D1_LATENCY_MS, rows: farRows },
    messages,
    search,
  };
  const markdown = table(report);
  mkdirSync(resultsDir, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(path.join(resultsDir, `bench-${report.date.replace(/[:.]/g, '-')}.json`), json);
  writeFileSync(path.join(resultsDir, 'latest.json'), json);
  writeFileSync(path.join(resultsDir, 'latest.md'), markdown);
  console.log(`\n${markdown}\nWritten to ${path.relative(ROOT, resultsDir)}/latest.json and latest.md`);
  if (process.argv.includes('--publish')) {
    publish(markdown);
    console.log(`${path.relative(ROOT, PUBLISHED)} updated.`);
  }
}

try {
  await main();
} catch (error) {
  console.error(`\nThe benchmark could not run: ${(error as Error).message}`);
  process.exitCode = 1;
}
