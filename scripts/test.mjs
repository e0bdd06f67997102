/**
 * `npm test`: the type check, unit tests (vitest, Node), API tests (vitest in workerd against real migrations),
 * one build, end-to-end tests with the quality specs (Playwright on Debian's Chromium against the
 * built worker), Lighthouse on every page type, and the deploy dry run. Runs every suite, then prints
 * one closing line with the totals and fails if any suite failed or could not run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';
import { ROOT } from './local-db.mjs';

const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);
const results = path.join(ROOT, 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', ASTRO_TELEMETRY_DISABLED: '1' };
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSuites = [];

function run(name, command, args, extraEnv = {}) {
  console.log(`\n=== ${name} ===`);
  const status = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...env, ...extraEnv } }).status;
  if (status !== 0) failedSuites.push(name);
  return status === 0;
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
}

/** Lighthouse counts one test per page; the deploy check counts one. */
function countGate(file, count) {
  if (!existsSync(file)) return;
  const { passed, failed } = count(JSON.parse(readFileSync(file, 'utf8')));
  totals.passed += passed;
  totals.failed += failed;
}

const vitestJson = (name) => ['--reporter=default', '--reporter=json', `--outputFile.json=${path.join(results, name)}`];
run('typecheck', bin('tsc'), ['--noEmit', '-p', '.']);
run('unit', bin('vitest'), ['run', ...vitestJson('unit.json')]);
countVitest(path.join(results, 'unit.json'));
run('api', bin('vitest'), ['run', '--config', 'tests/api/vitest.config.ts', ...vitestJson('api.json')]);
countVitest(path.join(results, 'api.json'));

// One build serves the end-to-end tests, Lighthouse and the deploy check.
if (run('build', bin('astro'), ['build'])) {
  try {
    ensureChromium();
    run('e2e', bin('playwright'), ['test'], { E2E_SKIP_BUILD: '1' });
    countPlaywright(path.join(results, 'e2e.json'));
    run('lighthouse', process.execPath, ['scripts/quality/lighthouse.mjs']);
    countGate(path.join(results, 'lighthouse.json'), (report) => report);
  } catch (error) {
    console.error(`\n${error.message}`);
    failedSuites.push('e2e', 'lighthouse');
  }
  run('deploy dry run', process.execPath, ['scripts/quality/deploy-check.mjs']);
  countGate(path.join(results, 'deploy.json'), (report) => ({ passed: report.passed ? 1 : 0, failed: report.passed ? 0 : 1 }));
} else {
  console.error('\nThe build failed, so the end-to-end tests, Lighthouse and the deploy check could not run.');
  failedSuites.push('e2e', 'lighthouse', 'deploy dry run');
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (failedSuites.length > 0) {
  console.error(`Failed: ${failedSuites.join(', ')}`);
  process.exit(1);
}
