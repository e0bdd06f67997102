/**
 * Proves the suites do not depend on the calendar: runs the API tests and the end-to-end tests with the
 * demo seed made for each of several days (SEED_REFERENCE_DAY), while the clock stays today's, so every
 * date in the catalogue stands that many days earlier or later than on a normal run. Not part of
 * `npm test` (each day costs a whole API and e2e run); run it after changing the seed or a test's data.
 *
 *   npm run calendar-check                                the 7 days from 3 days ago to 3 days ahead, both suites
 *   npm run calendar-check -- --days 2026-11-01,2026-12-24 --suites api
 *
 * Writes each run's report to test-results/calendar/<day>-<suite>.json and exits non-zero if any failed.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureChromium } from './ensure-chromium.ts';
import { build, ROOT } from './local-db.ts';
import { freePort, startBuiltServer } from './server.ts';

const DAY_MS = 24 * 3600 * 1000;
const SUITES = ['api', 'e2e'];

const { values } = parseArgs({ options: { days: { type: 'string' }, suites: { type: 'string', default: SUITES.join(',') } } });
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const days = values.days ? values.days.split(',') : [-3, -2, -1, 0, 1, 2, 3].map((offset) => isoDay(today + offset * DAY_MS));
const suites = values.suites.split(',');
for (const suite of suites) if (!SUITES.includes(suite)) throw new Error(`--suites takes ${SUITES.join(', ')}, not ${suite}`);

const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
const reports = path.join(ROOT, 'test-results', 'calendar');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', ASTRO_TELEMETRY_DISABLED: '1' };

function run(command: string, args: string[], extraEnv: NodeJS.ProcessEnv): boolean {
  return spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...env, ...extraEnv } }).status === 0;
}

/** Passed and failed tests of a suite's run. */
interface Counts {
  passed: number;
  failed: number;
}

/** The counts of a vitest or Playwright JSON report, or null when the run wrote none. */
function counts(file: string): Counts | null {
  if (!existsSync(file)) return null;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if (report.stats) return { passed: report.stats.expected + report.stats.flaky, failed: report.stats.unexpected };
  return { passed: report.numPassedTests, failed: report.numFailedTests };
}

async function runApi(day: string): Promise<Counts | null> {
  const file = path.join(reports, `${day}-api.json`);
  run(bin('vitest'), ['run', '--project', 'api', '--reporter=dot', '--reporter=json', `--outputFile.json=${file}`], {
    SEED_REFERENCE_DAY: day,
  });
  return counts(file);
}

async function runE2e(day: string): Promise<Counts | null> {
  const port = await freePort();
  // The server seeds its fresh database for the day in its environment.
  process.env.SEED_REFERENCE_DAY = day;
  const server = await startBuiltServer(port);
  try {
    run(bin('playwright'), ['test'], { E2E_PORT: String(port), E2E_SERVER_RUNNING: '1', SEED_REFERENCE_DAY: day });
  } finally {
    await server.stop();
  }
  const file = path.join(reports, `${day}-e2e.json`);
  const written = path.join(ROOT, 'test-results', 'e2e.json');
  if (!existsSync(written)) return null;
  copyFileSync(written, file);
  rmSync(written);
  return counts(file);
}

if (suites.includes('e2e')) {
  ensureChromium();
  build();
}
const rows = [];
for (const day of days) {
  for (const suite of suites) {
    console.log(`\n=== ${suite}, the seed made for ${day} ===`);
    const started = performance.now();
    const result = await (suite === 'api' ? runApi(day) : runE2e(day));
    rows.push({ day, suite, result, seconds: Math.round((performance.now() - started) / 1000) });
  }
}

console.log('\nSeed made for   suite  passed  failed  seconds');
for (const { day, suite, result, seconds } of rows) {
  const [passed, failed] = result ? [result.passed, result.failed] : ['-', 'no report'];
  console.log(
    `${day}      ${suite.padEnd(5)}  ${String(passed).padStart(6)}  ${String(failed).padStart(6)}  ${String(seconds).padStart(7)}`,
  );
}
const total = rows.reduce(
  (sum, { result }) => ({ passed: sum.passed + (result?.passed ?? 0), failed: sum.failed + (result?.failed ?? 1) }),
  {
    passed: 0,
    failed: 0,
  },
);
console.log(`\n${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed > 0 ? 1 : 0);
