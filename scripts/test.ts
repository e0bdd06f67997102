/**
 * `npm test`: the type check, Biome (lint and format), unit tests (vitest, Node), API tests (vitest in workerd against real migrations),
 * the local build (LOCAL_BUILD=1, integrations/local-build.ts), then one server for the end-to-end tests with the quality specs (Playwright
 * on Debian's Chromium against the built worker) and Lighthouse on every page type; then the production build (plain
 * `astro build`, what a deployer runs) for the deploy dry run and the production check (its bundle holds no local-only code,
 * as a deployed copy it exposes no sandbox or dev route, and on a database without the demo seed every page renders).
 * Runs every suite, then prints each suite's time, the total, and one closing line with the counts;
 * fails if any suite failed or could not run.
 *
 * The server listens on a port the system reports free (E2E_PORT to choose one), so two runs in two
 * clones can go side by side.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ensureChromium } from './ensure-chromium.ts';
import { LOCAL_BUILD_VARIABLE } from '../integrations/local-build.ts';
import { e2eStateDir, ROOT } from './local-db.ts';
import { freePort, startBuiltServer } from './server.ts';

const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
const results = path.join(ROOT, 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', ASTRO_TELEMETRY_DISABLED: '1' };
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Each step as it ran. */
const steps: { name: string; seconds: number; ok: boolean }[] = [];
const startedAt = performance.now();
const secondsSince = (start: number) => (performance.now() - start) / 1000;

/** Runs `work` as a named step, timing it; a thrown error fails the step with its message. */
async function step(name: string, work: () => boolean | Promise<boolean>): Promise<boolean> {
  console.log(`\n=== ${name} ===`);
  const start = performance.now();
  let ok = false;
  try {
    ok = await work();
  } catch (error) {
    console.error(`\n${name}: ${(error as Error).message}`);
  }
  steps.push({ name, seconds: secondsSince(start), ok });
  return ok;
}

function run(name: string, command: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<boolean> {
  return step(name, () => spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...env, ...extraEnv } }).status === 0);
}

/** The tests a report counts. */
interface Counts {
  passed: number;
  failed: number;
  skipped?: number;
}

/** The parts of the JSON reports (vitest's, Playwright's) that the closing lines read. */
interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { name: string; assertionResults: { status: string; fullName: string; failureMessages?: string[] }[] }[];
}
interface PlaywrightSpec {
  ok: boolean;
  file: string;
  line: number;
  title: string;
  tests: { results: { status: string; error?: { message?: string } }[] }[];
}
interface PlaywrightSuite {
  specs?: PlaywrightSpec[];
  suites?: PlaywrightSuite[];
}
interface PlaywrightReport {
  stats: { expected: number; flaky: number; unexpected: number; skipped: number };
  suites: PlaywrightSuite[];
}

function count<Report>(file: string, read: (report: Report) => Counts): void {
  if (!existsSync(file)) return;
  const { passed, failed, skipped = 0 } = read(JSON.parse(readFileSync(file, 'utf8')));
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
}

const vitestCounts = (report: VitestReport): Counts => ({
  passed: report.numPassedTests,
  failed: report.numFailedTests,
  skipped: report.numPendingTests + report.numTodoTests,
});
const playwrightCounts = ({ stats }: PlaywrightReport): Counts => ({
  passed: stats.expected + stats.flaky,
  failed: stats.unexpected,
  skipped: stats.skipped,
});
/** Lighthouse counts one test per page; the deploy check counts one. */
const lighthouseCounts = (report: Counts) => report;
const deployCounts = (report: { passed: boolean }): Counts => ({ passed: report.passed ? 1 : 0, failed: report.passed ? 0 : 1 });
/** The production check counts one test per request it makes. */
const productionCounts = (report: Counts) => report;

/** The names of the failed tests in a report, with the first line of why, so the closing lines say what to look at. */
function failedTests<Report>(file: string, read: (report: Report) => string[]): string[] {
  if (!existsSync(file)) return [];
  return read(JSON.parse(readFileSync(file, 'utf8')));
}
const firstLine = (text = '') => stripVTControlCharacters(text).trim().split('\n')[0].slice(0, 200);
const vitestFailures = (report: VitestReport) =>
  report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => `${path.relative(ROOT, file.name)} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`),
  );
const playwrightFailures = (report: PlaywrightReport) => {
  const specs = (suite: PlaywrightSuite): PlaywrightSpec[] => [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specs)];
  return report.suites
    .flatMap(specs)
    .filter((spec) => !spec.ok)
    .map((spec) => {
      const result = spec.tests.flatMap((test) => test.results).find((entry) => entry.status !== 'passed');
      return `tests/e2e/${spec.file}:${spec.line} › ${spec.title}: ${firstLine(result?.error?.message)}`;
    });
};

const vitestJson = (name: string) => ['--reporter=default', '--reporter=json', `--outputFile.json=${path.join(results, name)}`];
// astro check type-checks the .astro pages' frontmatter and templates as well as every .ts file (tsc skips .astro).
await run('typecheck', bin('astro'), ['check']);
// Biome: the formatting and lint rules of biome.json over src, tests and scripts (it writes nothing here: `npx biome check --write` does).
await run('lint', bin('biome'), ['ci', '--reporter=summary']);
// The two vitest projects of vitest.config.ts, one after the other, so each has its own time and counts.
await run('unit', bin('vitest'), ['run', '--project', 'unit', ...vitestJson('unit.json')]);
count(path.join(results, 'unit.json'), vitestCounts);
await run('api', bin('vitest'), ['run', '--project', 'api', ...vitestJson('api.json')]);
count(path.join(results, 'api.json'), vitestCounts);

// One local build and one server (a freshly seeded database) serve the end-to-end tests and Lighthouse.
if (await run('local build', bin('astro'), ['build'], { [LOCAL_BUILD_VARIABLE]: '1' })) {
  const port = Number(process.env.E2E_PORT) || (await freePort());
  let server: Awaited<ReturnType<typeof startBuiltServer>> | undefined;
  const serving =
    (await step('chromium', () => {
      ensureChromium();
      return true;
    })) &&
    (await step('server start', async () => {
      server = await startBuiltServer(port);
      console.log(`Serving the built worker on ${server.baseUrl} (database ${path.relative(ROOT, e2eStateDir(port))})`);
      return true;
    }));
  if (serving && server) {
    const { baseUrl, stop } = server;
    try {
      await run('e2e', bin('playwright'), ['test'], { E2E_PORT: String(port), E2E_SERVER_RUNNING: '1' });
      count(path.join(results, 'e2e.json'), playwrightCounts);
      await run('lighthouse', process.execPath, ['scripts/quality/lighthouse.ts'], {
        QUALITY_BASE_URL: baseUrl,
        QUALITY_PERSIST_TO: e2eStateDir(port),
      });
      count(path.join(results, 'lighthouse.json'), lighthouseCounts);
    } finally {
      await stop();
    }
  } else {
    steps.push({ name: 'e2e', seconds: 0, ok: false }, { name: 'lighthouse', seconds: 0, ok: false });
  }
} else {
  console.error('\nThe local build failed, so the end-to-end tests and Lighthouse could not run.');
  steps.push(...['e2e', 'lighthouse'].map((name) => ({ name, seconds: 0, ok: false })));
}

// The production build replaces the local one in dist/ once its server has stopped (the CPU stays quiet for Lighthouse).
if (await run('production build', bin('astro'), ['build'], { [LOCAL_BUILD_VARIABLE]: '' })) {
  await run('deploy dry run', process.execPath, ['scripts/quality/deploy-check.ts']);
  count(path.join(results, 'deploy.json'), deployCounts);
  await run('production check', process.execPath, ['scripts/quality/production-check.ts']);
  count(path.join(results, 'production.json'), productionCounts);
} else {
  console.error('\nThe production build failed, so the deploy check and the production check could not run.');
  steps.push(...['deploy dry run', 'production check'].map((name) => ({ name, seconds: 0, ok: false })));
}

const minutes = (seconds: number) => {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
};
console.log('\nSuite times:');
for (const { name, seconds, ok } of steps) console.log(`  ${name.padEnd(16)} ${minutes(seconds).padStart(12)}  ${ok ? 'ok' : 'FAILED'}`);
console.log(`  ${'total'.padEnd(16)} ${minutes(secondsSince(startedAt)).padStart(12)}`);

const failedSteps = steps.filter((entry) => !entry.ok).map((entry) => entry.name);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (failedSteps.length > 0) {
  const failures = [
    ...failedTests(path.join(results, 'unit.json'), vitestFailures),
    ...failedTests(path.join(results, 'api.json'), vitestFailures),
    ...failedTests(path.join(results, 'e2e.json'), playwrightFailures),
  ];
  for (const failure of failures) console.error(`  ✘ ${failure}`);
  console.error(`Failed: ${failedSteps.join(', ')}`);
  process.exit(1);
}
