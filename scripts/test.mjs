/**
 * `npm test`: unit tests (vitest, Node), API tests (vitest in workerd against real migrations) and
 * end-to-end tests (Playwright on Debian's Chromium against the built worker). Runs every suite,
 * then prints one closing line with the totals and fails if any suite failed.
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

function run(name, command, args) {
  console.log(`\n=== ${name} ===`);
  const status = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env }).status;
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

const vitestJson = (name) => ['--reporter=default', '--reporter=json', `--outputFile.json=${path.join(results, name)}`];
run('unit', bin('vitest'), ['run', ...vitestJson('unit.json')]);
countVitest(path.join(results, 'unit.json'));
run('api', bin('vitest'), ['run', '--config', 'tests/api/vitest.config.ts', ...vitestJson('api.json')]);
countVitest(path.join(results, 'api.json'));

try {
  ensureChromium();
  run('e2e', bin('playwright'), ['test']);
  countPlaywright(path.join(results, 'e2e.json'));
} catch (error) {
  console.error(`\n${error.message}`);
  failedSuites.push('e2e');
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (failedSuites.length > 0) {
  console.error(`Failed: ${failedSuites.join(', ')}`);
  process.exit(1);
}
