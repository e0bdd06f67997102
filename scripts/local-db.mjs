/**
 * The local D1 database (wrangler's SQLite under a persist folder): apply migrations, seed the
 * demo catalogue when empty. Shared by `npm start` and `npm test`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { buildSeed, seedStatements } from '../src/lib/db/seed.ts';
import { LOCAL_BUILD_VARIABLE } from './local-build.mjs';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const WRANGLER = path.join(ROOT, 'node_modules', '.bin', 'wrangler');
const DB_BINDING = 'DB';

/**
 * The environment the measuring scripts (bench, search bench, load simulation) run wrangler in: no
 * usage metrics, and no local tracing. Wrangler's local observability, on by default, sends every
 * span of every request (each D1 batch, cache lookup and store) to a trace store in the server's own
 * process, about a tenth of a rendered page's CPU there (docs/rendered-pages.md); a deployed worker
 * does not pay it, so a measurement of ours leaves it out.
 */
export const MEASURING_ENV = { ...process.env, WRANGLER_SEND_METRICS: 'false', X_LOCAL_OBSERVABILITY: 'false' };

function wrangler(args, options = {}) {
  return execFileSync(WRANGLER, args, {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: options.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' },
  });
}

/** The database folder of the end-to-end server on a port (scripts/e2e-server.mjs), fresh each start. */
export function e2eStateDir(port) {
  return path.join(ROOT, '.wrangler', `e2e-state-${port}`);
}

/**
 * The time the demo seed's dates are relative to: UTC midnight of today, or of the day SEED_REFERENCE_DAY
 * names (YYYY-MM-DD), which makes the seed another day would have made (scripts/calendar-check.mjs runs the
 * suites over a week of them). The seed's draws never depend on it: another day only moves the dates.
 */
export function seedReferenceTime(now = Date.now()) {
  const day = 24 * 3600 * 1000;
  const chosen = process.env.SEED_REFERENCE_DAY;
  if (!chosen) return Math.floor(now / day) * day;
  const time = /^\d{4}-\d{2}-\d{2}$/.test(chosen) ? Date.parse(`${chosen}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(time)) throw new Error(`SEED_REFERENCE_DAY must be a day as YYYY-MM-DD, not ${JSON.stringify(chosen)}`);
  return time;
}

/** Applies every pending migration to the local database in `persistTo`. */
export function migrate(persistTo) {
  wrangler(['d1', 'migrations', 'apply', DB_BINDING, '--local', '--persist-to', persistTo, '--config', 'wrangler.toml']);
}

/** Runs one SQL statement on the local database in `persistTo` and returns its rows. */
export function query(persistTo, sql) {
  const out = wrangler(
    ['d1', 'execute', DB_BINDING, '--local', '--persist-to', persistTo, '--config', 'wrangler.toml', '--json', '--command', sql],
    { capture: true },
  );
  return JSON.parse(out)[0].results;
}

function activityCount(persistTo) {
  return query(persistTo, 'SELECT COUNT(*) AS n FROM activities')[0].n;
}

/** Seeds the demo catalogue when the database has no activities; returns whether it seeded. */
export function seedIfEmpty(persistTo) {
  if (activityCount(persistTo) > 0) return false;
  const file = path.join(persistTo, 'seed.sql');
  mkdirSync(persistTo, { recursive: true });
  writeFileSync(file, seedStatements(buildSeed(seedReferenceTime())).join('\n'));
  wrangler(['d1', 'execute', DB_BINDING, '--local', '--persist-to', persistTo, '--config', 'wrangler.toml', '--file', file]);
  return true;
}

/** Builds the worker with Astro: the local build (scripts/local-build.mjs), with the dev routes, sandbox and dev outbox. */
export function build() {
  execFileSync(path.join(ROOT, 'node_modules', '.bin', 'astro'), ['build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', [LOCAL_BUILD_VARIABLE]: '1' },
  });
}

/** Arguments that serve the built worker (dist/server) on workerd with a local database; `vars` are its variables. */
export function serveArgs(persistTo, port, vars = { APP_ENV: 'local' }) {
  return [
    'dev',
    '--config',
    'dist/server/wrangler.json',
    '--persist-to',
    persistTo,
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
    '--show-interactive-dev-session=false',
    '--log-level',
    'warn',
  ];
}

/** A TCP port on 127.0.0.1 that nothing listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once the URL answers, or throws after the timeout. */
export async function waitForServer(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`The server did not answer at ${url} within ${timeoutMs / 1000} s`);
}

/**
 * Spawns a server process, keeping the tail of its stderr for error messages.
 * Returns { pid, exited, running, stop, stderr }: `exited` resolves with the exit code, `stop` ends it and waits.
 */
export function spawnServer(command, args, env) {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env });
  let tail = '';
  child.stderr.on('data', (chunk) => {
    tail = (tail + chunk).slice(-4000);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (running()) child.kill('SIGTERM');
    await exited;
  };
  return { pid: child.pid, exited, running, stop, stderr: () => tail };
}
