/**
 * Reads that travel together: a service describes what it reads as named statements plus a pure
 * function that shapes their rows, given by the same names, and the page or route that needs several
 * such reads sends all their statements in one D1 batch, one round trip to the database however many
 * services answer.
 */
import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { collidingColumn } from './batch-columns.ts';
import { type BatchAnswers, type D1Row, laidOut, type Part, type RawBatchAnswers, type RawPart } from './batch.ts';
import type { Db } from './client.ts';

export interface Read<T> {
  readonly statements: readonly BatchItem<'sqlite'>[];
  readonly shape: (results: readonly unknown[]) => T;
}

/**
 * A read of named statements (a key may hold a list of them, answered as a list), whose rows `shape`
 * turns into the answer: it is given each key's rows under the same key, typed by its statement. The
 * statements go into the batch in the order of the record.
 */
export function read<const S extends Record<string, Part>, T>(parts: S, shape: (answers: BatchAnswers<S>) => T): Read<T> {
  const { statements, answer } = laidOut<BatchItem<'sqlite'>>(parts);
  return { statements, shape: (results) => shape(answer(results) as BatchAnswers<S>) };
}

/** A read that needs no statement: its answer is already known. */
export function known<T>(value: T): Read<T> {
  return { statements: [], shape: () => value };
}

export type Answers<R extends Record<string, Read<unknown>>> = { [K in keyof R]: R[K] extends Read<infer T> ? T : never };

/** What Drizzle keeps of a statement it has prepared (its select builder's and D1 session's inner surface, as drizzle-orm 0.45 has it). */
interface PreparedStatement {
  stmt: D1PreparedStatement;
  getQuery(): { sql: string; params: unknown[] };
  executeMethod: 'run' | 'all' | 'get';
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: unknown;
  joinsNotNullableMap?: Record<string, boolean>;
  mapResult(result: unknown, isFromBatch: boolean): unknown;
  /** Prepared and bound on the D1 binding by its caller (rawStatement): sent as it is. */
  raw?: true;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** One selected field: where its value goes in the row, what decodes it, and its column when it is one. */
interface FieldReader {
  path: string[];
  decoder: Decoder;
  column: Column | null;
}

/** An SQL expression's decoder (kept private in Drizzle's types). */
function decoderOf(expression: SQL): Decoder {
  return (expression as unknown as { decoder: Decoder }).decoder;
}

/** How Drizzle decodes a selected field (drizzle-orm's mapResultRow asks this of every field of every row). */
function fieldReader({ path, field }: { path: string[]; field: unknown }): FieldReader {
  if (is(field, Column)) return { path, decoder: field, column: field };
  if (is(field, SQL)) return { path, decoder: decoderOf(field), column: null };
  if (is(field, Subquery)) return { path, decoder: decoderOf((field as unknown as { _: { sql: SQL } })._.sql), column: null };
  return { path, decoder: decoderOf((field as SQL.Aliased).sql), column: null };
}

/**
 * One row as Drizzle's mapResultRow shapes it, from values in selection order: nested by path, each
 * value decoded, and a left-joined table whose columns are all null read as null.
 */
function shapedRow(readers: readonly FieldReader[], values: readonly unknown[], joinsNotNullableMap: Record<string, boolean> | undefined) {
  const row: Record<string, unknown> = {};
  const nullify: Record<string, string | false> = {};
  readers.forEach(({ path, decoder, column }, index) => {
    let node = row;
    for (const chunk of path.slice(0, -1)) {
      if (!(chunk in node)) node[chunk] = {};
      node = node[chunk] as Record<string, unknown>;
    }
    const raw = values[index];
    const value = raw === null ? null : decoder.mapFromDriverValue(raw);
    node[path[path.length - 1]] = value;
    if (joinsNotNullableMap && column && path.length === 2) {
      const [objectName] = path;
      const tableName = getTableName(column.table);
      if (!(objectName in nullify)) nullify[objectName] = value === null ? tableName : false;
      else if (typeof nullify[objectName] === 'string' && nullify[objectName] !== tableName) nullify[objectName] = false;
    }
  });
  if (joinsNotNullableMap) {
    for (const [objectName, tableName] of Object.entries(nullify)) {
      if (typeof tableName === 'string' && !joinsNotNullableMap[tableName]) row[objectName] = null;
    }
  }
  return row;
}

/** A statement's answer to a batch, its rows shaped as Drizzle's own batch would shape them. */
function batchAnswer(statement: PreparedStatement, result: D1Result): unknown {
  const { fields, customResultMapper, executeMethod, joinsNotNullableMap } = statement;
  if (executeMethod !== 'all' || !fields || customResultMapper) return statement.mapResult(result, true);
  const readers = fields.map(fieldReader);
  return result.results.map((values) => shapedRow(readers, Object.values(values as Record<string, unknown>), joinsNotNullableMap));
}

/**
 * The statements in one D1 batch, answered as Drizzle's `db.batch` answers them. Drizzle's own
 * batch asks, for every column of every row, what kind of field the column is (prototype walks
 * that were a tenth of a rendered list page's CPU); the answer is the same for every row of a
 * statement, so here it is asked once per statement.
 */
async function batch(db: Db, statements: readonly BatchItem<'sqlite'>[]): Promise<unknown[]> {
  const prepared = statements.map((statement) => (statement as unknown as { _prepare(): PreparedStatement })._prepare());
  const bound = prepared.map((statement) => {
    if (statement.raw) return statement.stmt;
    const { sql, params } = statement.getQuery();
    return params.length > 0 ? statement.stmt.bind(...params) : db.$client.prepare(sql).bind();
  });
  const results = await db.$client.batch(bound);
  return results.map((result, index) => batchAnswer(prepared[index], result));
}

/**
 * A statement its caller prepared and bound on the D1 binding (the after-write pass's, which a write
 * batch carries last), to go in a batch beside Drizzle's; its answer is D1's own result.
 */
function rawStatement(statement: D1PreparedStatement): BatchItem<'sqlite'> {
  const prepared = {
    stmt: statement,
    raw: true,
    executeMethod: 'run',
    getQuery: () => ({ sql: '', params: [] }),
    mapResult: (result: unknown) => result,
  };
  return { _prepare: () => prepared } as unknown as BatchItem<'sqlite'>;
}

/**
 * A read of named statements prepared and bound on the D1 binding (SQL Drizzle cannot say), `shape`
 * given each key's D1 result (a list of them for a key holding a list) under the same key.
 */
export function rawRead<const S extends Record<string, RawPart>, T>(parts: S, shape: (answers: RawBatchAnswers<S, D1Row>) => T): Read<T> {
  const { statements, answer } = laidOut<D1PreparedStatement>(parts);
  return { statements: statements.map(rawStatement), shape: (results) => shape(answer(results) as RawBatchAnswers<S, D1Row>) };
}

/** Runs every read's statements in one batch and answers each read's shaped result under its name. */
export async function readTogether<R extends Record<string, Read<unknown>>>(db: Db, reads: R): Promise<Answers<R>> {
  const entries = Object.entries(reads);
  const statements = entries.flatMap(([, each]) => each.statements);
  for (const statement of statements) {
    const name = collidingColumn(statement);
    if (name) throw new Error(`A batched select names column "${name}" twice; select it with prefixed() (data/batch-columns.ts)`);
  }
  const results: readonly unknown[] = statements.length === 0 ? [] : await batch(db, statements);
  const answers: Record<string, unknown> = {};
  let offset = 0;
  for (const [name, each] of entries) {
    answers[name] = each.shape(results.slice(offset, offset + each.statements.length));
    offset += each.statements.length;
  }
  return answers as Answers<R>;
}

/** One read on its own, in one round trip. */
export async function readOne<T>(db: Db, one: Read<T>): Promise<T> {
  return (await readTogether(db, { one })).one;
}

/** The same reads for several items (each item's reads named alike), all in one batch; the answers in the items' order. */
export async function readEach<R extends Record<string, Read<unknown>>>(db: Db, each: readonly R[]): Promise<Answers<R>[]> {
  const flat: Record<string, Read<unknown>> = {};
  each.forEach((reads, index) => {
    for (const [name, one] of Object.entries(reads)) flat[`${index}.${name}`] = one;
  });
  const answers: Record<string, unknown> = await readTogether(db, flat);
  return each.map(
    (reads, index) => Object.fromEntries(Object.keys(reads).map((name) => [name, answers[`${index}.${name}`]])) as Answers<R>,
  );
}
