/**
 * Rows as plain multi-row INSERT statements that D1 accepts (no BEGIN, COMMIT or PRAGMA), for the
 * demo seed (seed.ts) and the reference data's migration (reference-rows.ts).
 */
export type SqlValue = string | number | boolean | null;
export type SqlRow = Record<string, SqlValue>;
/** Rows by table name; every row of a table has the same columns. */
export type TableRows = Record<string, SqlRow[]>;

const MAX_ROWS_PER_INSERT = 50;
/** D1 rejects statements over 100 KB; activity rows carry three descriptions, so size is capped too. */
const MAX_STATEMENT_BYTES = 90_000;

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function sqlLiteral(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Cannot write ${value} to SQL`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * INSERT statements for `data`, in the order of `tables` (every table after the tables it references);
 * `verb` is `INSERT OR IGNORE` where rows already present must be kept as they are.
 */
export function insertStatements(data: TableRows, tables: readonly string[], verb: 'INSERT' | 'INSERT OR IGNORE' = 'INSERT'): string[] {
  const unknown = Object.keys(data).filter((table) => !tables.includes(table));
  if (unknown.length > 0) throw new Error(`No insert order for tables: ${unknown.join(', ')}`);

  const encoder = new TextEncoder();
  const statements: string[] = [];
  for (const table of tables) {
    const rows = data[table] ?? [];
    if (rows.length === 0) continue;
    const columns = Object.keys(rows[0]);
    const head = `${verb} INTO ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(', ')}) VALUES `;
    const headBytes = encoder.encode(head).length;
    let tuples: string[] = [];
    let bytes = headBytes;
    const flush = () => {
      statements.push(`${head}${tuples.join(', ')};`);
      tuples = [];
      bytes = headBytes;
    };
    for (const row of rows) {
      const tuple = `(${columns.map((column) => sqlLiteral(row[column])).join(', ')})`;
      const tupleBytes = encoder.encode(tuple).length + 2;
      if (tuples.length === MAX_ROWS_PER_INSERT || (tuples.length > 0 && bytes + tupleBytes > MAX_STATEMENT_BYTES)) flush();
      tuples.push(tuple);
      bytes += tupleBytes;
    }
    flush();
  }
  return statements;
}
