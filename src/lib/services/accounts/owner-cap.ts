/**
 * A cap on how many rows one owner may have (addresses, attendees) that holds without a transaction
 * (D1 has none): the row is inserted first, then the owner's rows up to it are counted, so of
 * concurrent inserts past the cap only the later ones are taken back.
 */
import { and, count, eq, lte } from 'drizzle-orm';
import type { AnySQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../data/client.ts';

/** A table of rows that belong to an owner: its id and owner columns. */
export interface OwnedRows {
  table: SQLiteTable;
  id: AnySQLiteColumn;
  owner: AnySQLiteColumn;
}

/** Takes the row just inserted back when its owner now has more than `max` rows up to it; true when it stays. */
export async function keptWithinCap(db: Db, rows: OwnedRows, ownerId: number, rowId: number, max: number): Promise<boolean> {
  const [{ total }] = await db
    .select({ total: count() })
    .from(rows.table)
    .where(and(eq(rows.owner, ownerId), lte(rows.id, rowId)));
  if (total <= max) return true;
  await db.delete(rows.table).where(eq(rows.id, rowId));
  return false;
}
