/**
 * Deploy check: `wrangler deploy --dry-run` over the built worker (no Cloudflare login, no network),
 * reporting the upload size wrangler computes against Cloudflare's Worker size limits. Fails when the
 * dry run fails, when its size line is missing, or above the free plan's limit (see README, Quality gates).
 * Writes test-results/deploy.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ROOT, WRANGLER } from '../local-db.ts';

/** Cloudflare's limits on a Worker's compressed (gzip) size, in bytes (1 MB = 1000 x 1000 bytes). */
const WORKER_GZIP_LIMITS = { free: 3_000_000, paid: 10_000_000 };
/** The gate fails above the free plan's limit, so the storefront deploys on any plan. */
const FAIL_ABOVE = WORKER_GZIP_LIMITS.free;

const KIB = 1024;
const summaryFile = path.join(ROOT, 'test-results', 'deploy.json');

function dryRun() {
  const config = path.join(ROOT, 'dist', 'server', 'wrangler.json');
  if (!existsSync(config)) throw new Error('There is no built worker in dist/server: run `npx astro build` first.');
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'worker-dry-run-'));
  const env: NodeJS.ProcessEnv = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' };
  // A dry run must never reach an account, even on a machine that has one configured.
  delete env.CLOUDFLARE_API_TOKEN;
  delete env.CLOUDFLARE_ACCOUNT_ID;
  const result = spawnSync(WRANGLER, ['deploy', '--dry-run', '--outdir', outdir, '--config', config], { cwd: ROOT, encoding: 'utf8', env });
  rmSync(outdir, { recursive: true, force: true });
  // Strip colours: wrangler paints the size line by how close it is to the limit.
  const output = stripVTControlCharacters(`${result.stdout ?? ''}${result.stderr ?? ''}`);
  if (result.error) throw new Error(`wrangler could not start: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`wrangler deploy --dry-run failed (exit ${result.status}):\n${output}`);
  const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
  if (!match) throw new Error(`wrangler deploy --dry-run did not print its "Total Upload" line:\n${output}`);
  return { bytes: Math.round(Number(match[1]) * KIB), gzipBytes: Math.round(Number(match[2]) * KIB) };
}

const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;

function main() {
  mkdirSync(path.dirname(summaryFile), { recursive: true });
  rmSync(summaryFile, { force: true });
  const { bytes, gzipBytes } = dryRun();
  const passed = gzipBytes <= FAIL_ABOVE;
  console.log(`Worker bundle (wrangler deploy --dry-run): ${(bytes / KIB).toFixed(1)} KiB, gzip ${(gzipBytes / KIB).toFixed(1)} KiB`);
  console.log(`  free plan limit 3 MB gzip: ${percent(gzipBytes, WORKER_GZIP_LIMITS.free)} used`);
  console.log(`  paid plan limit 10 MB gzip: ${percent(gzipBytes, WORKER_GZIP_LIMITS.paid)} used`);
  console.log(passed ? 'PASS  within the free plan limit' : `FAIL  above the free plan limit of ${FAIL_ABOVE} bytes gzip`);
  writeFileSync(
    summaryFile,
    `${JSON.stringify({ bytes, gzipBytes, limits: WORKER_GZIP_LIMITS, failAbove: FAIL_ABOVE, passed }, null, 2)}\n`,
  );
  return passed;
}

try {
  process.exitCode = main() ? 0 : 1;
} catch (error) {
  console.error(`Deploy check could not run: ${(error as Error).message}`);
  process.exitCode = 1;
}
