import { env } from 'cloudflare:workers';
import { drizzle } from 'drizzle-orm/d1';
import { measuredD1 } from './measured-d1.ts';

/**
 * A Drizzle handle over one D1 session (read replication): its reads go to the nearest replica that
 * has caught up with `bookmark` (any replica without one; 'first-primary' for jobs that must see the
 * latest), its writes to the primary, and every query sees the ones before it. Local builds (run as
 * local) count and may slow its round trips (measured-d1.ts). No schema is passed: queries name their tables, and
 * Drizzle would otherwise rebuild its relational map of every table on each request's handle.
 */
export function database(d1: D1Database, bookmark: string | null = null, constraint: D1SessionConstraint = 'first-unconstrained') {
  const session = d1.withSession(bookmark ?? constraint);
  const client = LOCAL_BUILD && env.APP_ENV === 'local' ? measuredD1(session, Number(env.D1_LATENCY_MS) || 0) : session;
  return drizzle(client as unknown as D1Database);
}

export type Db = ReturnType<typeof database>;

/** The bookmark of the latest query of the handle's session, for the browser's next request. */
export function bookmarkOf(db: Db): string | null {
  return (db.$client as unknown as D1DatabaseSession).getBookmark();
}
