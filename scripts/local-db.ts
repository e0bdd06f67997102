/**
 * The local D1 database (wrangler's SQLite under a persist folder): apply migrations, seed the
 * demo catalogue when empty. Shared by `npm start`, `npm test` and the measuring scripts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSeed, seedStatements } from '../src/lib/db/seed.ts';
import { LOCAL_BUILD_VARIABLE } from '../integrations/local-build.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const WRANGLER = path.join(ROOT, 'node_modules', '.bin', 'wrangler');
const DB_BINDING = 'DB';
/** The local database of `npm start` (and of `npm run first-operator` without --remote). */
export const LOCAL_STATE = path.join(ROOT, '.wrangler', 'state');

/**
 * The environment the measuring scripts (bench, search bench, load simulation) run wrangler in: no
 * usage metrics, and no local tracing. Wrangler's local observability, on by default, sends every
 * span of every request (each D1 batch, cache lookup and store) to a trace store in the server's own
 * process, about a tenth of a rendered page's CPU there (docs/rendered-pages.md); a deployed worker
 * does not pay it, so a measurement of ours leaves it out.
 */
export const MEASURING_ENV = { ...process.env, WRANGLER_SEND_METRICS: 'false', X_LOCAL_OBSERVABILITY: 'false' };

function wrangler(args: string[], options: { capture?: boolean } = {}): string {
  return execFileSync(WRANGLER, args, {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: options.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' },
  });
}

/** The database folder of the end-to-end server on a port (scripts/e2e-server.ts), fresh each start. */
export function e2eStateDir(port: number): string {
  return path.join(ROOT, '.wrangler', `e2e-state-${port}`);
}

/**
 * The time the demo seed's dates are relative to: UTC midnight of today, or of the day SEED_REFERENCE_DAY
 * names (YYYY-MM-DD), which makes the seed another day would have made (scripts/calendar-check.ts runs the
 * suites over a week of them). The seed's draws never depend on it: another day only moves the dates.
 */
export function seedReferenceTime(now = Date.now()): number {
  const day = 24 * 3600 * 1000;
  const chosen = process.env.SEED_REFERENCE_DAY;
  if (!chosen) return Math.floor(now / day) * day;
  const time = /^\d{4}-\d{2}-\d{2}$/.test(chosen) ? Date.parse(`${chosen}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(time)) throw new Error(`SEED_REFERENCE_DAY must be a day as YYYY-MM-DD, not ${JSON.stringify(chosen)}`);
  return time;
}

/** Applies every pending migration to the local database in `persistTo`. */
export function migrate(persistTo: string): void {
  wrangler(['d1', 'migrations', 'apply', DB_BINDING, '--local', '--persist-to', persistTo, '--config', 'wrangler.toml']);
}

/** Runs SQL (one statement, or several in order) on the local database in `persistTo` and returns the last statement's rows. */
export function query<Row = Record<string, unknown>>(persistTo: string, sql: string): Row[] {
  const out = wrangler(
    ['d1', 'execute', DB_BINDING, '--local', '--persist-to', persistTo, '--config', 'wrangler.toml', '--json', '--command', sql],
    { capture: true },
  );
  return JSON.parse(out).at(-1).results;
}

function activityCount(persistTo: string): number {
  return query<{ n: number }>(persistTo, 'SELECT COUNT(*) AS n FROM activities')[0].n;
}

/** Seeds the demo catalogue when the database has no activities; returns whether it seeded. */
export function seedIfEmpty(persistTo: string): boolean {
  if (activityCount(persistTo) > 0) return false;
  const file = path.join(persistTo, 'seed.sql');
  mkdirSync(persistTo, { recursive: true });
  writeFileSync(file, seedStatements(buildSeed(seedReferenceTime())).join('\n'));
  wrangler(['d1', 'execute', DB_BINDING, '--local', '--persist-to', persistTo, '--config', 'wrangler.toml', '--file', file]);
  return true;
}

/** Builds the worker with Astro: the local build (integrations/local-build.ts), with the dev routes, sandbox and dev outbox. */
export function build(): void {
  execFileSync(path.join(ROOT, 'node_modules', '.bin', 'astro'), ['build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', [LOCAL_BUILD_VARIABLE]: '1' },
  });
}

/** Arguments that serve the built worker (dist/server) on workerd with a local database; `vars` are its variables. */
export function serveArgs(persistTo: string, port: number, vars: Record<string, string> = { APP_ENV: 'local' }): string[] {
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
