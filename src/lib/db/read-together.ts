/**
 * Reads that travel together: a service describes what it reads as statements plus a pure function
 * that shapes their rows, and the page or route that needs several such reads sends all their
 * statements in one D1 batch, one round trip to the database however many services answer.
 */
import type { BatchItem, BatchResponse } from 'drizzle-orm/batch';
import { collidingColumn } from './batch-columns.ts';
import type { Db } from './client.ts';

type Statements = readonly [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]];

export interface Read<T> {
  readonly statements: readonly BatchItem<'sqlite'>[];
  readonly shape: (results: readonly unknown[]) => T;
}

/** A read of `statements`, whose rows `shape` turns into the answer (typed by the statements themselves). */
export function read<const S extends Statements, T>(statements: S, shape: (results: BatchResponse<S>) => T): Read<T> {
  return { statements, shape: (results) => shape(results as BatchResponse<S>) };
}

/** A read that needs no statement: its answer is already known. */
export function known<T>(value: T): Read<T> {
  return { statements: [], shape: () => value };
}

type Answers<R extends Record<string, Read<unknown>>> = { [K in keyof R]: R[K] extends Read<infer T> ? T : never };

/** Runs every read's statements in one batch and answers each read's shaped result under its name. */
export async function readTogether<R extends Record<string, Read<unknown>>>(db: Db, reads: R): Promise<Answers<R>> {
  const entries = Object.entries(reads);
  const statements = entries.flatMap(([, each]) => each.statements);
  for (const statement of statements) {
    const name = collidingColumn(statement);
    if (name) throw new Error(`A batched select names column "${name}" twice; select it with prefixed() (db/batch-columns.ts)`);
  }
  const results: readonly unknown[] = statements.length === 0 ? [] : await db.batch(statements as unknown as Statements);
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
