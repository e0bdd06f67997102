/** Ended activities leave the live tiers of the search index, its bigram table and its suggestion table. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { hideEndedFromSuggestions } from './suggestions.ts';
import { searchSource } from './search.ts';

/**
 * Ended activities still carry their live key, ahead of every upcoming show in index order, until
 * this moves them to the hidden tier (2 << 58), keeping the text: a broad search then never walks
 * past them. Run by the scheduled sweep; the live tiers are 0 (buyable) and 1 (not yet on sale), and
 * only rows that started before now can have ended, so each tier is scanned up to now's minute.
 */
export async function hideEndedFromSearch(db: Db, now: number): Promise<void> {
  const nowMinute = Math.floor(now / 60_000);
  const endedInTier = (tier: number) => sql`
    SELECT activity_search.rowid AS rowid FROM ${searchSource('').from}
    WHERE activity_search.rowid >= (${tier} << 58) AND activity_search.rowid < ((${tier} << 58) | (${nowMinute} << 32))
      AND a.ends_at < ${now}`;
  // Copied first, then removed from the live tier (the copy lies outside the range scanned); should
  // the removal not happen, the next sweep copies again, replacing the same hidden row. The bigram
  // table's documents (migration 0021) follow, their pairs made afresh from the names, and leave the
  // live tier before the main index's, whose live rows say which ones to move; the suggestion table
  // (migration 0022) lets them go last, refilling from the main index once they are hidden there.
  for (const tier of [0, 1]) {
    await db.run(sql`
      INSERT OR REPLACE INTO activity_search (rowid, name, artist, venue)
      SELECT (2 << 58) | (rowid & ((1 << 58) - 1)), name, artist, venue FROM activity_search
      WHERE rowid IN (${endedInTier(tier)})`);
    await db.run(sql`
      INSERT OR REPLACE INTO activity_search_bigrams (rowid, bigrams)
      SELECT k.hidden_key, t.bigrams FROM activity_search_bigram_text t JOIN activity_search_key k ON k.id = t.id
      WHERE t.id IN (SELECT ended.rowid & 4294967295 FROM (${endedInTier(tier)}) AS ended)`);
    await db.run(sql`DELETE FROM activity_search_bigrams WHERE rowid IN (${endedInTier(tier)})`);
    await db.run(sql`DELETE FROM activity_search WHERE rowid IN (${endedInTier(tier)})`);
    await hideEndedFromSuggestions(db, tier, nowMinute, now);
  }
}
