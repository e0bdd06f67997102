import { env } from 'cloudflare:workers';
import { drizzle } from 'drizzle-orm/d1';
import { measuredD1 } from './measured-d1.ts';
import * as schema from './schema.ts';

/** A Drizzle handle over the D1 binding; local builds count and may slow its round trips (measured-d1.ts). */
export function database(d1: D1Database) {
  const client = env.APP_ENV === 'local' ? measuredD1(d1, Number(env.D1_LATENCY_MS) || 0) : d1;
  return drizzle(client, { schema });
}

export type Db = ReturnType<typeof database>;
