/**
 * Statements sent to D1 together, in one batch (one round trip, one transaction), named by their
 * caller: a batch is written as a record `{ order: insert, attendees: [a, b] }` and answered as
 * `{ order: rows, attendees: [rows, rows] }`, each key typed by its own statement. Nothing outside
 * the data layer counts positions in a batch's answer, so adding a statement to a batch never
 * shifts what another part of it reads.
 */
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from './client.ts';

type Statement = BatchItem<'sqlite'>;

/** One named part of a batch: a statement, or a run of them (answered as a list in the same order). */
export type Part = Statement | readonly Statement[];

type ResultOf<S> = S extends Statement ? S['_']['result'] : never;

type AnswerOf<P> = P extends readonly Statement[] ? { -readonly [I in keyof P]: ResultOf<P[I]> } : ResultOf<P>;

export type BatchAnswers<S extends Record<string, Part>> = { [K in keyof S]: AnswerOf<S[K]> };

/** A D1 row as a raw statement's batch answers it. */
export type D1Row = Record<string, unknown>;

export type RawPart = D1PreparedStatement | readonly D1PreparedStatement[];

export type RawBatchAnswers<S extends Record<string, RawPart>, Row> = {
  [K in keyof S]: S[K] extends readonly D1PreparedStatement[] ? D1Result<Row>[] : D1Result<Row>;
};

/** The parts' statements in the order of the record, and how to answer each part from the batch's results (here and in read-together.ts). */
export function laidOut<T>(parts: Record<string, T | readonly T[]>) {
  const statements: T[] = [];
  const places: [name: string, start: number, count: number | null][] = [];
  for (const [name, part] of Object.entries(parts)) {
    const run = Array.isArray(part) ? (part as readonly T[]) : null;
    places.push([name, statements.length, run ? run.length : null]);
    if (run) statements.push(...run);
    else statements.push(part as T);
  }
  const answer = (results: readonly unknown[]) =>
    Object.fromEntries(places.map(([name, start, count]) => [name, count === null ? results[start] : results.slice(start, start + count)]));
  return { statements, answer };
}

/** Drizzle statements in one batch, each part's answer under its name (as Drizzle's `db.batch` shapes it). */
export async function batch<const S extends Record<string, Part>>(db: Db, parts: S): Promise<BatchAnswers<S>> {
  const { statements, answer } = laidOut<Statement>(parts);
  if (statements.length === 0) return answer([]) as BatchAnswers<S>;
  const results = await db.batch(statements as [Statement, ...Statement[]]);
  return answer(results) as BatchAnswers<S>;
}

/**
 * Raw D1 statements (prepared and bound on the binding: SQL Drizzle cannot say, such as `changes()`
 * of the statement before) in one batch, each part's D1 result under its name.
 */
export async function rawBatch<const S extends Record<string, RawPart>, Row = D1Row>(
  d1: Pick<D1Database, 'batch'>,
  parts: S,
): Promise<RawBatchAnswers<S, Row>> {
  const { statements, answer } = laidOut<D1PreparedStatement>(parts);
  if (statements.length === 0) return answer([]) as RawBatchAnswers<S, Row>;
  return answer(await d1.batch<Row>(statements)) as RawBatchAnswers<S, Row>;
}

/**
 * Raw statements that ride in another writer's batch as one part of it (the after-write pass): the
 * statements to send, and how to answer each named part from the results of that run.
 */
export function rawParts<const S extends Record<string, RawPart>>(parts: S) {
  const { statements, answer } = laidOut<D1PreparedStatement>(parts);
  return { statements, answer: (results: readonly D1Result[]) => answer(results) as RawBatchAnswers<S, D1Row> };
}
