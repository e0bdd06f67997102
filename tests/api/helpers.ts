import { env } from 'cloudflare:workers';
import { api } from '../../src/lib/api/app.ts';
import { buildSeed, seedStatements } from '../../src/lib/db/seed.ts';

/**
 * The day the demo seed is made for: the run's own (UTC midnight), as `npm start` makes it, so the catalogue
 * stands where it would on any day relative to the clock the API reads. A test states what it needs (on sale,
 * a day away…) and finds it, never a row of one day's seed.
 */
export const REFERENCE_TIME = Number(env.SEED_REFERENCE_TIME);

/** Loads the demo catalogue into this test file's D1. */
export async function seed(referenceTime = REFERENCE_TIME): Promise<void> {
  const statements = seedStatements(buildSeed(referenceTime)).map((sql) => env.DB.prepare(sql));
  await env.DB.batch(statements);
}

/** Calls the API as a browser would, returning the status and the parsed envelope. */
export async function call<T = unknown>(path: string, init: RequestInit = {}) {
  const response = await api.fetch(new Request(`http://localhost${path}`, init), env);
  const body = (await response.json()) as { code: number; data: T; message: string; errorCode?: string; field?: string };
  return { status: response.status, body, headers: response.headers };
}
