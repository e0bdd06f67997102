/**
 * Local builds only: one SQL statement against the worker's own database, for the end-to-end tests
 * and `npm run demo:fulfil`, which need what no API gives (an order's seller, a show of a test's own).
 * They go through the running worker rather than open the database file from a second process:
 * workerd's SQLite waits for no lock, so a second process reading beside the server made the
 * server's own writes fail with SQLITE_BUSY.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { DomainError } from '../../domain/errors.ts';

/** The rows the statement answers (none for a write without RETURNING); a refused statement says why. */
export async function runStatement(db: Db, statement: string): Promise<Record<string, unknown>[]> {
  try {
    return await db.all<Record<string, unknown>>(sql.raw(statement));
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    throw new DomainError('statement_failed', { reason: cause instanceof Error ? cause.message : String(cause) });
  }
}
