/**
 * What every storefront curation service shares: a fault of the rules thrown as the field's error,
 * a row that must exist and not be retired, and a new row's id chosen before its batch so the
 * audit row in the same batch can name it.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../data/client.ts';
import { DomainError } from '../../domain/errors.ts';
import type { FieldFault } from '../../domain/storefront-schedule.ts';
import { isUniqueViolation } from '../on-sale/lottery-draw.ts';

/** Tries a create this many times when another create took the id it chose. */
const CREATE_ATTEMPTS = 3;

export function refuse(fault: FieldFault | null): void {
  if (fault) throw new DomainError(fault.code, {}, fault.field);
}

/** The row, or 404 storefront_item_not_found; with `editable`, 409 storefront_item_retired for a retired one. */
export function found<Row extends { retiredAt: number | null }>(row: Row | undefined, editable = false): Row {
  if (!row) throw new DomainError('storefront_item_not_found');
  if (editable && row.retiredAt !== null) throw new DomainError('storefront_item_retired');
  return row;
}

/**
 * Runs `write` with the next free id of the table: the id is read first so the change and its audit
 * row go in one batch; a create that lost the id to a concurrent one tries again with the next.
 */
export async function withNewId<T>(db: Db, table: SQLiteTable, id: SQLiteColumn, write: (id: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const [row] = await db.select({ next: sql<number>`coalesce(max(${id}), 0) + 1` as SQL<number> }).from(table);
    try {
      return await write(row.next);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= CREATE_ATTEMPTS) throw error;
    }
  }
}
