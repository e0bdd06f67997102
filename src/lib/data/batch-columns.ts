/**
 * D1's batch answers each row as an object keyed by column name, so two selected columns of the same
 * name (the `id` or `name_en` of two joined tables) overwrite each other there, silently (Drizzle
 * maps batch rows by position). A joined select that goes into a batch names its columns uniquely
 * with `prefixed`, and readTogether refuses one that does not (`collidingColumn`).
 */
import { Column, getTableColumns, is, SQL, sql, Table, type GetColumnData } from 'drizzle-orm';

type ColumnsOf<T extends Table> = T['_']['columns'];

/** The chosen columns of a table, each selected as `<prefix>.<column name>` (a dot no column name has) and read back as the column would be. */
export function prefixed<T extends Table, K extends keyof ColumnsOf<T> & string>(
  prefix: string,
  table: T,
  keys: readonly K[],
): { [P in K]: SQL.Aliased<GetColumnData<ColumnsOf<T>[P]>> } {
  const columns = getTableColumns(table) as Record<string, Column>;
  return Object.fromEntries(
    keys.map((key) => {
      const column = columns[key] as Column;
      return [key, sql`${column}`.mapWith(column).as(`${prefix}.${column.name}`)];
    }),
  ) as { [P in K]: SQL.Aliased<GetColumnData<ColumnsOf<T>[P]>> };
}

/** Every column of a table, prefixed as `prefixed` does: the row reads back as the table's own row type. */
export function prefixedTable<T extends Table>(
  prefix: string,
  table: T,
): { [P in keyof ColumnsOf<T> & string]: SQL.Aliased<GetColumnData<ColumnsOf<T>[P]>> } {
  return prefixed(prefix, table, Object.keys(getTableColumns(table)) as (keyof ColumnsOf<T> & string)[]);
}

/** The names D1 would key a selection's columns by (an unaliased expression is keyed by its own text, never shared). */
function columnNames(selection: unknown): string[] {
  if (is(selection, Column)) return [selection.name];
  if (is(selection, SQL.Aliased)) return [selection.fieldAlias];
  if (is(selection, SQL)) return [];
  if (is(selection, Table)) return Object.values(getTableColumns(selection)).map((column) => column.name);
  if (selection && typeof selection === 'object') return Object.values(selection).flatMap(columnNames);
  return [];
}

/** A column name a select statement would return twice, or null; statements that are not selects pass. */
export function collidingColumn(statement: unknown): string | null {
  // The selection as Drizzle's select builder keeps it (not part of its typed surface).
  const fields = (statement as { config?: { fields?: unknown } }).config?.fields;
  if (!fields) return null;
  const seen = new Set<string>();
  for (const name of columnNames(fields)) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}

/** A row D1 answered as an object keyed by column name (a raw statement's RETURNING *), read back as Drizzle reads the table's rows. */
export function rowOf<T extends Table>(table: T, raw: Record<string, unknown>): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}
