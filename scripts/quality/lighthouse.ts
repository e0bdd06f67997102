/**
 * Lighthouse (mobile form factor, simulated throttling) on every page type of pages.ts, in English,
 * signed in where the page needs it, one page after another, against the built worker, as two
 * phones: Lighthouse's default mobile profile (CPU slowdown 4x) on every page type, held to
 * LIGHTHOUSE_BUDGETS, and a low-end phone (LOW_END_PHONE: DevTools' low-tier phone, its slowdown
 * taken from the median benchmark index of the default profile's runs, 4x to 8x) on the public ones,
 * held to its performance budget. Then the home page and a script-free copy of its own HTML on the
 * low-end phone, back to back: the home page's LCP may be at most MAX_LCP_RATIO_TO_SCRIPT_FREE times
 * the copy's. Prints each page's scores, LCP and TBT with the CPU benchmark index Lighthouse measured
 * and how much of the CPU other jobs took while the page loaded (scripts/quality/cpu-meter.ts). A
 * run during which other jobs took more than CONTENDED_SHARE of the CPU is measured again once they
 * leave, rather than judged (10 minutes of waiting at most in all); a page (or the home/copy pair)
 * that misses a budget is measured twice more and the median of the three judged. Writes
 * test-results/lighthouse.json (and an HTML report per page and profile), and exits non-zero when a
 * median misses its budget or the gate cannot run at all (no browser, no server).
 *
 *   node scripts/quality/lighthouse.ts                    starts its own server (needs the local build in dist/: LOCAL_BUILD=1 npx astro build)
 *   QUALITY_BASE_URL=http://127.0.0.1:4321 node ...        audits a server that is already running
 *   QUALITY_PERSIST_TO=.wrangler/state                     ...and its database folder (default: npm start's)
 *   QUALITY_PORT=8790                                      port of its own server (default E2E_PORT + 1, so 8789)
 *   QUALITY_PAGES=home,category                            only these page types (names in pages.ts)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import lighthouse, { type Config, type Flags, type Result } from 'lighthouse';
import * as constants from 'lighthouse/core/config/constants.js';
import { CHROMIUM } from '../ensure-chromium.ts';
import { othersShare, startCpuMeter } from './cpu-meter.ts';
import { e2eStateDir, ROOT } from '../local-db.ts';
import { LIGHTHOUSE_BUDGETS, LOW_END_PHONE, MAX_LCP_RATIO_TO_SCRIPT_FREE, PAGE_TYPES, type PageType } from './pages.ts';
import { pathOf, type SignedInSession, signedInSession } from './session.ts';
import { startBuiltServer } from '../server.ts';

const LOCALE = 'en';
const CHROMIUM_START_TIMEOUT_MS = 30_000;
/** Runs of a page that missed a budget, whose median is judged. */
const REMEASURE_RUNS = 3;
/** Share of the whole machine's CPU (all cores, %) other jobs may take during a run that is judged. */
const CONTENDED_SHARE = 25;
/** Runs of one page at most, counting those repeated because other jobs contended. */
const MAX_RUNS = 7;
/** How long the gate may wait in all for other jobs to leave the CPU. */
const QUIET_WAIT_BUDGET_MS = 10 * 60_000;
const QUIET_SAMPLE_MS = 3_000;
/** The page type compared with a script-free copy of itself: the issue that set the ratio measured it there. */
const SCRIPT_FREE_COMPARED_PAGE = 'home';
/** Put in front of a page's path, the script-free proxy answers the page without its scripts. */
const SCRIPT_FREE_PREFIX = '/script-free';
const reportDir = path.join(ROOT, 'test-results', 'lighthouse');
const summaryFile = path.join(ROOT, 'test-results', 'lighthouse.json');

/** Category scores (0-100) a page must reach, by category id. */
type Budgets = Record<string, number>;
/** Category scores of a run (null when not scored). */
type Scores = Record<string, number | null>;

/** The load's Largest Contentful Paint and Total Blocking Time, simulated ms. */
interface Metrics {
  lcpMs: number | null;
  tbtMs: number | null;
}

/** A phone Lighthouse emulates, the budgets it is held to and the page types it judges. */
interface Phone {
  name: string;
  label: string;
  pagesLabel: string;
  budgets: Budgets;
  config: Config;
  judges: (pageType: PageType) => boolean;
  reportSuffix: string;
  cpuSlowdownMultiplier?: number;
  hostBenchmarkIndex?: number;
}

/** One Lighthouse run of a page. */
interface Run {
  scores: Scores;
  metrics: Metrics;
  others: number | null;
  contended: boolean;
  lhr: Result;
  report: string;
}

/** A run as the report lists it. */
interface RunSummary {
  scores: Scores;
  metrics: Metrics;
  others: number | null;
  judged?: boolean;
  benchmarkIndex: number;
}

/** A page type's audit as one phone. */
interface PageResult {
  name: string;
  phone: string;
  url: string;
  scores: Scores;
  metrics: Metrics;
  misses: string[];
  lhr: Result;
  runs: RunSummary[];
}

/** The home page against its script-free copy, as the report lists it. */
interface Comparison {
  name: string;
  url: string;
  copyUrl: string;
  lcpRatio: number | null;
  passed: boolean;
  runs: { page: RunSummary; copy: RunSummary; lcpRatio: number | null; judged: boolean }[];
}

/** The headless Chromium Lighthouse drives. */
interface Browser {
  port: number;
  pid: number;
  close(): Promise<void>;
}

/** Lighthouse's mobile settings for a phone whose CPU is `cpuSlowdownMultiplier` times slower than this machine. */
function phoneConfig(categories: string[], cpuSlowdownMultiplier: number): Config {
  return {
    extends: 'lighthouse:default',
    settings: {
      onlyCategories: categories,
      formFactor: 'mobile',
      screenEmulation: constants.screenEmulationMetrics.mobile,
      emulatedUserAgent: constants.userAgents.mobile,
      throttlingMethod: 'simulate',
      throttling: { ...constants.throttling.mobileSlow4G, cpuSlowdownMultiplier },
    },
  };
}

const DEFAULT_CPU_SLOWDOWN = constants.throttling.mobileSlow4G.cpuSlowdownMultiplier;

const DEFAULT_PHONE: Phone = {
  name: 'default',
  label: `Lighthouse's mobile profile (CPU slowdown ${DEFAULT_CPU_SLOWDOWN}x)`,
  pagesLabel: 'every page type',
  budgets: LIGHTHOUSE_BUDGETS,
  config: phoneConfig(Object.keys(LIGHTHOUSE_BUDGETS), DEFAULT_CPU_SLOWDOWN),
  judges: () => true,
  reportSuffix: '',
};

/**
 * The low-end phone as measured from a host of benchmark index `hostIndex` (LOW_END_PHONE): slowed by
 * host / device index, within the default profile's slowdown and LOW_END_PHONE's most. On a slow host
 * a fixed 8x would stand for a phone several times slower than the low-tier one, and Lighthouse's
 * simulation multiplies the host's wall-clock task times, so the time a 2-CPU host's renderer waits
 * for its other processes was slowed 8x too.
 */
function lowEndPhone(hostIndex: number): Phone {
  const calibrated = hostIndex / LOW_END_PHONE.deviceBenchmarkIndex;
  const slowdown = Math.round(Math.min(LOW_END_PHONE.maxCpuSlowdownMultiplier, Math.max(DEFAULT_CPU_SLOWDOWN, calibrated)) * 10) / 10;
  return {
    name: 'low-end',
    label: `a low-end phone (CPU slowdown ${slowdown}x: host benchmark index ${Math.round(hostIndex)} / the low-tier phone's ${LOW_END_PHONE.deviceBenchmarkIndex}, within ${DEFAULT_CPU_SLOWDOWN}x-${LOW_END_PHONE.maxCpuSlowdownMultiplier}x)`,
    pagesLabel: 'public pages',
    budgets: LOW_END_PHONE.budgets,
    config: phoneConfig(Object.keys(LOW_END_PHONE.budgets), slowdown),
    cpuSlowdownMultiplier: slowdown,
    hostBenchmarkIndex: Math.round(hostIndex),
    judges: (pageType: PageType) => pageType.budget === 'browse',
    reportSuffix: '-low-end',
  };
}

/** Starts headless Chromium with a DevTools port of its choosing; resolves to { port, close }. */
function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM} (set CHROMIUM_PATH, or: apt-get install chromium)`);
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'lighthouse-chromium-'));
  const child = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--no-default-browser-check',
      '--remote-debugging-port=0',
      `--user-data-dir=${userDataDir}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise((resolve) => child.once('close', resolve));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(userDataDir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    let log = '';
    const fail = async (reason: string) => {
      clearTimeout(timer);
      await close();
      reject(new Error(`Chromium (${CHROMIUM}) ${reason}:\n${log}`));
    };
    const timer = setTimeout(
      () => fail(`did not open its DevTools port within ${CHROMIUM_START_TIMEOUT_MS / 1000} s`),
      CHROMIUM_START_TIMEOUT_MS,
    );
    child.once('error', (error) => fail(`could not start (${error.message})`));
    child.once('exit', (code) => fail(`exited with code ${code} before opening its DevTools port`));
    child.stderr.on('data', (chunk) => {
      log = (log + chunk).slice(-4000);
      const match = /DevTools listening on ws:\/\/[^/]+:(\d+)\//.exec(log);
      if (match) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ port: Number(match[1]), pid: child.pid!, close });
      }
    });
  });
}

/** The audits that cost a category points, to say why a budget was missed. */
function lostPoints(lhr: Result, categoryId: string): string[] {
  return lhr.categories[categoryId].auditRefs
    .filter((ref) => {
      const { score } = lhr.audits[ref.id];
      return ref.weight > 0 && score !== null && score < 1;
    })
    .map((ref) => {
      const audit = lhr.audits[ref.id];
      return `      ${ref.id} (score ${Math.round((audit.score ?? 0) * 100)}${audit.displayValue ? `, ${audit.displayValue}` : ''}): ${audit.title}`;
    });
}

let quietWaitLeftMs = QUIET_WAIT_BUDGET_MS;

/** Waits, within what is left of QUIET_WAIT_BUDGET_MS, until other jobs take less than CONTENDED_SHARE of the CPU. */
async function quietMachine() {
  const start = Date.now();
  let share = await othersShare(QUIET_SAMPLE_MS);
  if (share === null || share < CONTENDED_SHARE) return;
  console.log(`      waiting for other jobs to leave the CPU (they take ${share}% of it)...`);
  while (share !== null && share >= CONTENDED_SHARE && Date.now() - start < quietWaitLeftMs) share = await othersShare(QUIET_SAMPLE_MS);
  quietWaitLeftMs -= Date.now() - start;
}

/** The load's Largest Contentful Paint and Total Blocking Time in simulated milliseconds (null when not measured). */
function metricsOf(lhr: Result): Metrics {
  const value = (id: string) => {
    const numeric = lhr.audits[id]?.numericValue;
    return typeof numeric === 'number' ? Math.round(numeric) : null;
  };
  return { lcpMs: value('largest-contentful-paint'), tbtMs: value('total-blocking-time') };
}

/**
 * One Lighthouse run of a page as `phone`: the scores of its budgets (0-100, null when not scored),
 * LCP and TBT, the share of the CPU other jobs took meanwhile (`others`, null when unknown) and the report.
 */
async function measure(url: string, flags: Flags, browserPid: number, phone: Phone): Promise<Run> {
  const meter = startCpuMeter([process.pid, browserPid]);
  const result = await lighthouse(url, flags, phone.config);
  const others = meter.stop();
  if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
  const { lhr } = result;
  const scores: Scores = {};
  for (const id of Object.keys(phone.budgets)) {
    const score = lhr.categories[id]?.score;
    scores[id] = score === null || score === undefined ? null : Math.round(score * 100);
  }
  return {
    scores,
    metrics: metricsOf(lhr),
    others,
    contended: others !== null && others >= CONTENDED_SHARE,
    lhr,
    report: result.report as string,
  };
}

/**
 * Whether a judged run ended on another page than the one asked for (a signed-in page that sent
 * Lighthouse to the login page): its scores are the other page's, so the page type is not measured.
 */
const landedElsewhere = (judged: Run[]) =>
  judged.some(({ lhr }) => new URL(lhr.finalDisplayedUrl).pathname !== new URL(lhr.requestedUrl!).pathname);

/** The categories whose score misses its budget. */
function missesOf(pageType: PageType, scores: Scores, budgets: Budgets): string[] {
  // A page that must stay out of search engines loses the SEO points of being crawlable, by design:
  // those marked so, and every signed-in page (robots.txt keeps crawlers off them; they have no session anyway).
  const crawlable = !(pageType.noindex || pageType.session);
  return Object.entries(budgets)
    .filter(([id, budget]) => !(id === 'seo' && !crawlable) && (scores[id] === null || scores[id] < budget))
    .map(([id]) => id);
}

const median = (values: (number | null)[]): number | null => {
  const known = values.filter((value) => value !== null).sort((a, b) => a - b);
  return known.length === 0 ? null : known[Math.floor((known.length - 1) / 2)];
};

/**
 * Measures until a run can be judged and, when that run fails `passes`, twice more, so that the median
 * of three is judged, since one run can miss on noise alone. A run that other jobs contended for the
 * CPU is not judged: it is measured again once they leave, until the waiting budget or MAX_RUNS is
 * spent; a contended first run that passes stands when `contendedPassStands` (contention can only
 * lower a score, but it can move a ratio of two runs either way). Answers every run and the judged ones.
 */
async function judgedRuns<R extends { contended: boolean }>(
  measureOnce: () => Promise<R>,
  passes: (run: R) => boolean,
  contendedPassStands: boolean,
): Promise<{ runs: R[]; judged: R[] }> {
  const runs: R[] = [];
  const judged: R[] = [];
  const judgedRun = async (passingStands: boolean) => {
    for (;;) {
      const run = await measureOnce();
      runs.push(run);
      if (!run.contended || (passingStands && passes(run)) || quietWaitLeftMs <= 0 || runs.length >= MAX_RUNS) return run;
      await quietMachine();
    }
  };
  judged.push(await judgedRun(contendedPassStands));
  while (!passes(judged[0]) && judged.length < REMEASURE_RUNS) {
    await quietMachine();
    judged.push(await judgedRun(false));
  }
  return { runs, judged };
}

/** The judged run whose `measured` value is closest to `target`: its report is the one kept. */
const closestTo = <R>(judged: R[], measured: (run: R) => number | null, target: number | null): R =>
  judged.reduce((best, run) =>
    Math.abs((measured(run) ?? 0) - (target ?? 0)) < Math.abs((measured(best) ?? 0) - (target ?? 0)) ? run : best,
  );

/**
 * Gives the browser exactly these cookies for `baseUrl` (none: an anonymous first visit). Lighthouse
 * clears no cookies between runs, and Chromium sends the cookies in its jar (set by the pages
 * visited before) in place of a Cookie header passed as an extra header, so a signed-in page would
 * have been measured as the login page it redirects to: the session goes into the jar instead.
 */
async function setBrowserCookies(port: number, baseUrl: string, cookies: { name: string; value: string }[]): Promise<void> {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', () => reject(new Error('could not reach the browser over DevTools')), { once: true });
  });
  let nextId = 0;
  const send = (method: string, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      const answer = (event: MessageEvent) => {
        const message = JSON.parse(event.data);
        if (message.id !== id) return;
        socket.removeEventListener('message', answer);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result);
      };
      socket.addEventListener('message', answer);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    await send('Storage.clearCookies');
    if (cookies.length > 0)
      await send('Storage.setCookies', { cookies: cookies.map(({ name, value }) => ({ name, value, url: baseUrl })) });
  } finally {
    socket.close();
  }
}

/** Audits a page as `phone` (judgedRuns); the report kept is the judged run closest to the median performance. */
async function audit(
  pageType: PageType,
  phone: Phone,
  baseUrl: string,
  browser: Browser,
  session: Pick<SignedInSession, 'vars'> & Partial<SignedInSession>,
): Promise<PageResult> {
  const url = new URL(pathOf(pageType, LOCALE, session.vars), baseUrl).href;
  const flags: Flags = { port: browser.port, logLevel: 'error', output: 'html', ignoreStatusCode: pageType.status !== 200 };
  const cookies = pageType.session ? (session.cookies ?? []) : [];
  const { runs, judged } = await judgedRuns(
    async () => {
      await setBrowserCookies(browser.port, baseUrl, cookies);
      return measure(url, flags, browser.pid, phone);
    },
    (run) => missesOf(pageType, run.scores, phone.budgets).length === 0,
    true,
  );
  const scores = Object.fromEntries(Object.keys(phone.budgets).map((id) => [id, median(judged.map((run) => run.scores[id]))]));
  const metrics = {
    lcpMs: median(judged.map((run) => run.metrics.lcpMs)),
    tbtMs: median(judged.map((run) => run.metrics.tbtMs)),
  };
  const kept = closestTo(judged, (run) => run.scores.performance, scores.performance);
  writeFileSync(path.join(reportDir, `${pageType.name}${phone.reportSuffix}.html`), kept.report);
  return {
    name: pageType.name,
    phone: phone.name,
    url,
    scores,
    metrics,
    misses: [...missesOf(pageType, scores, phone.budgets), ...(landedElsewhere(judged) ? ['page'] : [])],
    lhr: kept.lhr,
    runs: runs.map((run) => ({
      scores: run.scores,
      metrics: run.metrics,
      others: run.others,
      judged: judged.includes(run),
      benchmarkIndex: run.lhr.environment.benchmarkIndex,
    })),
  };
}

const seconds = (ms: number | null) => (ms === null ? 'n/a' : `${(ms / 1000).toFixed(2)} s`);
const metricCells = ({ lcpMs, tbtMs }: Metrics) => `LCP ${seconds(lcpMs)}  TBT ${tbtMs ?? 'n/a'} ms`;
const machine = (run: Pick<RunSummary, 'benchmarkIndex' | 'others'>) =>
  `CPU benchmark index ${Math.round(run.benchmarkIndex)}, other jobs ${run.others ?? '?'}% of the CPU`;

function printResult({ name, url, scores, metrics, misses, lhr, runs }: PageResult, budgets: Budgets): void {
  const cells = (values: Scores) =>
    Object.entries(values)
      .map(([id, score]) => `${id} ${score ?? 'n/a'}`)
      .join('  ');
  const judged = runs.filter((run) => run.judged);
  console.log(
    `${misses.length === 0 ? 'PASS' : 'FAIL'}  ${name.padEnd(18)} ${cells(scores)}  ${metricCells(metrics)}  (${url}, ${runs.length === 1 ? machine(runs[0]) : judged.length === 1 ? 'the judged run below' : `median of the ${judged.length} judged runs`})`,
  );
  if (runs.length > 1) {
    console.log(`      ${runs.length} runs; those during which other jobs took ${CONTENDED_SHARE}% of the CPU or more are measured again:`);
    for (const run of runs)
      console.log(`        ${cells(run.scores)}  ${metricCells(run.metrics)}  (${machine(run)})${run.judged ? '' : '  not judged'}`);
  }
  if (misses.includes('page')) console.log(`    MISSED: the page was not measured, Lighthouse ended on ${lhr.finalDisplayedUrl}`);
  if (lhr.runtimeError) console.log(`      runtime error: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  for (const warning of lhr.runWarnings) console.log(`      warning: ${warning}`);
  for (const [id, score] of Object.entries(scores)) {
    if (score === 100) continue;
    const verdict = misses.includes(id) ? `MISSED: ${score ?? 'could not be scored'} < ${budgets[id]}` : `${score}, points lost to`;
    console.log(`    ${id} ${verdict}:`);
    for (const line of lostPoints(lhr, id)) console.log(line);
  }
}

/**
 * The page as it would be without JavaScript: no script elements or module preloads, and its islands
 * left as the HTML the server rendered, without the props and bundle URLs they would hydrate from.
 */
function withoutScripts(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/gi, '')
    .replace(/<astro-island\b[^>]*>/gi, '<astro-island>');
}

/** Decoder and encoder of each content encoding the script-free proxy can rewrite. */
const CODECS: Record<string, { decode: (body: Buffer) => Buffer; encode: (body: Buffer) => Buffer }> = {
  gzip: { decode: zlib.gunzipSync, encode: zlib.gzipSync },
  deflate: { decode: zlib.inflateSync, encode: zlib.deflateSync },
  br: { decode: zlib.brotliDecompressSync, encode: zlib.brotliCompressSync },
};
const IDENTITY = { decode: (body: Buffer) => body, encode: (body: Buffer) => body };

/** An Accept-Encoding header without the encodings the proxy cannot rewrite. */
const rewritableEncodings = (accepted = '') =>
  accepted
    .split(',')
    .filter((entry) => Object.hasOwn(CODECS, entry.split(';')[0].trim()))
    .join(',') || 'identity';

/**
 * A local server in front of `baseUrl` that passes every request through, except that
 * SCRIPT_FREE_PREFIX + a page's path answers that page, fetched from `baseUrl` with the same request
 * headers, without its scripts, compressed again as the server compressed it (the copy would load
 * slower than the page on a slow network if it came uncompressed). The page and its copy are both
 * measured through it, so both come from one origin, over the same hop, with their stylesheets and
 * images from that origin too; the copy pays for being fetched whole before it is rewritten.
 * Resolves to { url, close }.
 */
function startScriptFreeProxy(baseUrl: string): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(baseUrl);
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    const scriptFree = path.startsWith(`${SCRIPT_FREE_PREFIX}/`);
    const headers = { ...request.headers, host: upstream.host };
    if (scriptFree) headers['accept-encoding'] = rewritableEncodings(request.headers['accept-encoding']);
    const target = new URL(scriptFree ? path.slice(SCRIPT_FREE_PREFIX.length) : path, upstream);
    const forwarded = http.request(target, { method: request.method, headers }, (answer) => {
      if (!scriptFree) {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('end', () => {
        const codec = CODECS[answer.headers['content-encoding'] ?? ''] ?? IDENTITY;
        const page = codec.decode(Buffer.concat(chunks)).toString('utf8');
        const body = codec.encode(Buffer.from(withoutScripts(page), 'utf8'));
        const { 'content-length': _length, 'transfer-encoding': _encoding, ...rest } = answer.headers;
        response.writeHead(answer.statusCode!, { ...rest, 'content-length': body.length });
        response.end(body);
      });
    });
    forwarded.on('error', (error) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`The server behind the script-free proxy did not answer: ${error.message}`);
    });
    request.pipe(forwarded);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((closed) => server.close(() => closed())),
      }),
    );
  });
}

/** Requests of a page at most, until the server answers it from its page cache. */
const WARM_UP_REQUESTS = 5;

/**
 * Requests `url` until the server answers it from its page cache (X-Page-Cache: hit), so that the run
 * after it finds the cache as fresh as the run before it did. Lighthouse's simulation keeps the
 * observed server response time: without this the first run of a pair, coming after a pause longer
 * than the cache's lifetime, paid for rendering the page and its copy, fetched the same page right
 * after, did not.
 */
async function warmPageCache(url: string): Promise<void> {
  for (let request = 0; request < WARM_UP_REQUESTS; request++) {
    const answer = await fetch(url);
    await answer.arrayBuffer();
    if (answer.headers.get('x-page-cache') === 'hit') return;
  }
}

/**
 * The page and a script-free copy of its own HTML, one right after the other as `phone` (a
 * pair is contended when either run is): the ratio of their LCPs is what the page's JavaScript costs
 * its main content. A pair over MAX_LCP_RATIO_TO_SCRIPT_FREE is measured twice more and the median
 * ratio judged (judgedRuns); a contended pair is never judged while the machine may still turn quiet.
 * Keeps the copy's report of the pair closest to that median.
 */
async function compareWithScriptFree(pageType: PageType, proxyUrl: string, browser: Browser, phone: Phone): Promise<Comparison> {
  const url = new URL(pathOf(pageType, LOCALE), proxyUrl).href;
  const copyUrl = new URL(SCRIPT_FREE_PREFIX + pathOf(pageType, LOCALE), proxyUrl).href;
  const flags: Flags = { port: browser.port, logLevel: 'error', output: 'html' };
  const measurePair = async () => {
    await setBrowserCookies(browser.port, proxyUrl, []);
    await warmPageCache(url);
    const page = await measure(url, flags, browser.pid, phone);
    await setBrowserCookies(browser.port, proxyUrl, []);
    await warmPageCache(url);
    const copy = await measure(copyUrl, flags, browser.pid, phone);
    const ratio = page.metrics.lcpMs && copy.metrics.lcpMs ? page.metrics.lcpMs / copy.metrics.lcpMs : null;
    return { page, copy, ratio, contended: page.contended || copy.contended };
  };
  const { runs, judged } = await judgedRuns(
    measurePair,
    (pair) => pair.ratio !== null && pair.ratio <= MAX_LCP_RATIO_TO_SCRIPT_FREE,
    false,
  );
  const ratio = median(judged.map((pair) => pair.ratio));
  if (ratio !== null)
    writeFileSync(
      path.join(reportDir, `${pageType.name}-script-free-copy.html`),
      closestTo(judged, (pair) => pair.ratio, ratio).copy.report,
    );
  const summaryOf = (run: Run): RunSummary => ({
    scores: run.scores,
    metrics: run.metrics,
    others: run.others,
    benchmarkIndex: run.lhr.environment.benchmarkIndex,
  });
  return {
    name: pageType.name,
    url,
    copyUrl,
    lcpRatio: ratio === null ? null : Math.round(ratio * 1000) / 1000,
    passed: ratio !== null && ratio <= MAX_LCP_RATIO_TO_SCRIPT_FREE,
    runs: runs.map((pair) => ({
      page: summaryOf(pair.page),
      copy: summaryOf(pair.copy),
      lcpRatio: pair.ratio === null ? null : Math.round(pair.ratio * 1000) / 1000,
      judged: judged.includes(pair),
    })),
  };
}

function printComparison({ name, lcpRatio, passed, runs }: Comparison): void {
  const ratio = (value: number | null) => (value === null ? 'n/a' : value.toFixed(2));
  const judged = runs.filter((pair) => pair.judged);
  console.log(
    `${passed ? 'PASS' : 'FAIL'}  ${name} vs its script-free copy: LCP ratio ${ratio(lcpRatio)} (at most ${MAX_LCP_RATIO_TO_SCRIPT_FREE})${judged.length > 1 ? `, median of the ${judged.length} judged pairs` : ''}`,
  );
  for (const pair of runs) {
    console.log(
      `        ${name}: performance ${pair.page.scores.performance ?? 'n/a'}  ${metricCells(pair.page.metrics)} (${machine(pair.page)});  copy: performance ${pair.copy.scores.performance ?? 'n/a'}  ${metricCells(pair.copy.metrics)} (${machine(pair.copy)});  ratio ${ratio(pair.lcpRatio)}${pair.judged ? '' : '  not judged'}`,
    );
  }
}

const chosenPages = process.env.QUALITY_PAGES?.split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const pageTypes = chosenPages ? PAGE_TYPES.filter((pageType) => chosenPages.includes(pageType.name)) : PAGE_TYPES;

async function main() {
  if (pageTypes.length === 0)
    throw new Error(`QUALITY_PAGES names no page type of pages.ts (${PAGE_TYPES.map((pageType) => pageType.name).join(', ')})`);
  const startedAt = Date.now();
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  rmSync(summaryFile, { force: true });
  const port = Number(process.env.QUALITY_PORT) || (Number(process.env.E2E_PORT) || 8788) + 1;
  const server = process.env.QUALITY_BASE_URL
    ? { baseUrl: process.env.QUALITY_BASE_URL, stop: async () => {} }
    : await startBuiltServer(port);
  let chromium: Browser | undefined;
  const results: PageResult[] = [];
  let comparison: Comparison | null = null;
  let lowEnd: Phone | null = null;
  try {
    chromium = await launchChromium();
    const persistTo = process.env.QUALITY_BASE_URL
      ? path.resolve(ROOT, process.env.QUALITY_PERSIST_TO ?? '.wrangler/state')
      : e2eStateDir(port);
    const session = pageTypes.some((pageType) => pageType.session) ? await signedInSession(server.baseUrl, persistTo) : { vars: {} };
    // Right after the end-to-end tests their browsers may still be closing.
    await quietMachine();
    const browser = chromium;
    const auditAs = async (phone: Phone) => {
      const judgedPages = pageTypes.filter(phone.judges);
      if (judgedPages.length === 0) return;
      const budgets = Object.entries(phone.budgets).map(([id, min]) => `${id} >= ${min}`);
      console.log(`Lighthouse as ${phone.label}, simulated slow 4G, ${phone.pagesLabel}: ${budgets.join(', ')}`);
      for (const pageType of judgedPages) {
        const result = await audit(pageType, phone, server.baseUrl, browser, session);
        printResult(result, phone.budgets);
        results.push(result);
      }
    };
    await auditAs(DEFAULT_PHONE);
    lowEnd = lowEndPhone(median(results.flatMap((result) => result.runs.map((run) => run.benchmarkIndex))) ?? 0);
    await auditAs(lowEnd);
    const compared = pageTypes.find((pageType) => pageType.name === SCRIPT_FREE_COMPARED_PAGE);
    if (compared) {
      console.log(`Lighthouse as ${lowEnd.label}: ${compared.name} and a script-free copy of its HTML, back to back`);
      const proxy = await startScriptFreeProxy(server.baseUrl);
      try {
        comparison = await compareWithScriptFree(compared, proxy.url, browser, lowEnd);
      } finally {
        await proxy.close();
      }
      printComparison(comparison);
    }
  } finally {
    await chromium?.close();
    await server.stop();
  }
  const failed = results.filter((result) => result.misses.length > 0).length + (comparison && !comparison.passed ? 1 : 0);
  const judgedCount = results.length + (comparison ? 1 : 0);
  const elapsedS = Math.round((Date.now() - startedAt) / 1000);
  const summary = {
    budgets: LIGHTHOUSE_BUDGETS,
    lowEndPhone: { ...LOW_END_PHONE, hostBenchmarkIndex: lowEnd?.hostBenchmarkIndex, cpuSlowdownMultiplier: lowEnd?.cpuSlowdownMultiplier },
    maxLcpRatioToScriptFree: MAX_LCP_RATIO_TO_SCRIPT_FREE,
    passed: judgedCount - failed,
    failed,
    seconds: elapsedS,
    pages: results.map(({ name, phone, url, scores, metrics, misses, runs }) => ({ name, phone, url, scores, metrics, misses, runs })),
    scriptFree: comparison,
  };
  writeFileSync(summaryFile, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    `Lighthouse: ${summary.passed} of ${judgedCount} checks within budget in ${Math.floor(elapsedS / 60)} min ${elapsedS % 60} s; reports in ${path.relative(ROOT, reportDir)}/`,
  );
  return failed === 0;
}

try {
  process.exitCode = (await main()) ? 0 : 1;
} catch (error) {
  console.error(`Lighthouse could not run: ${(error as Error).message}`);
  process.exitCode = 1;
}
