/**
 * Fixed-window counters in D1 (table rate_limits): code sending limits and failed sign-in counts.
 * A hit is one guarded upsert, so concurrent requests never lose a count.
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { rateLimits } from '../../db/schema.ts';
import { batch } from '../../data/batch.ts';

export interface Window {
  key: string;
  windowMs: number;
}

export interface Hit {
  /** The count in the current window, this hit included. */
  count: number;
  /** When the current window ends, epoch ms. */
  resetsAt: number;
}

function hitStatement(db: Db, { key, windowMs }: Window, now: number) {
  const expired = sql`${rateLimits.windowStart} <= ${now - windowMs}`;
  return db
    .insert(rateLimits)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        // SQLite evaluates every SET expression against the old row, so both read the old window.
        count: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        windowStart: sql`CASE WHEN ${expired} THEN ${now} ELSE ${rateLimits.windowStart} END`,
      },
    })
    .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
}

/** Counts one event in each window, atomically per window; returns the counts in the order given. */
export async function hitAll(db: Db, windows: readonly Window[], now: number): Promise<Hit[]> {
  if (windows.length === 0) return [];
  const { hits } = await batch(db, { hits: windows.map((window) => hitStatement(db, window, now)) });
  return hits.map(([row], index) => ({ count: row.count, resetsAt: row.windowStart + windows[index].windowMs }));
}

/** The count in a window without adding to it (0 when the window has passed). */
export async function countIn(db: Db, { key, windowMs }: Window, now: number): Promise<number> {
  const [row] = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), gt(rateLimits.windowStart, now - windowMs)));
  return row?.count ?? 0;
}

/** Forgets a counter (after a successful sign-in, say). */
export async function resetCounter(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}
