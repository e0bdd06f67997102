import { env } from 'cloudflare:workers';
import { api } from '../../src/lib/api/app.ts';
import { buildSeed, seedStatements } from '../../src/lib/db/seed.ts';

/** A fixed day, so every run sees the same catalogue. */
export const REFERENCE_TIME = Date.UTC(2026, 10, 1);

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
