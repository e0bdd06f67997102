/**
 * Statements sent to D1 together are named by their caller (src/lib/data/batch.ts, and the reads of
 * src/lib/data/read-together.ts) and their answers read by name: no file outside the data layer calls
 * a batch itself or composes a read from a list, where it would pick the answers by their position,
 * nor reaches into Drizzle's private surface that the data layer keeps.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { assertType, describe, expect, it } from 'vitest';
import { rawRead, read } from '../../src/lib/data/read-together.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DATA = path.join(ROOT, 'src/lib/data');
const SOURCE = /\.(ts|tsx|mts|mjs|astro)$/;

/** A call of a batch (D1's `d1.batch(…)`, Drizzle's `db.batch([…])`, either with a type argument). */
const BATCH_CALL = /\.batch\s*(?:<(?:[^<>()]|<[^<>()]*>)*>\s*)?\(/g;
/** Drizzle's private surface: a statement's `_prepare()`, the handle's `session`, a select's `config`. */
const DRIZZLE_INTERNALS = /\._prepare\s*\(|\bas unknown as \{\s*(?:session|config)\b|\bprepareOneTimeQuery\b/g;
/**
 * A read composed from a list of statements (`read([a, b], ([x, y]) => …)`), or Drizzle's batch
 * answer typed by position (`BatchResponse`), where a read's statements go in a record by name.
 */
const POSITIONAL_READ = /\b(?:read|readOne|rawRead|rawReadOne)\s*(?:<(?:[^<>()]|<[^<>()]*>)*>\s*)?\(\s*\[|\bBatchResponse\b/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : SOURCE.test(name) ? [full] : [];
  });
}

/** Each match of `pattern` in a source text, as `file:line: text`. */
function matchesIn(file: string, text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => {
    const line = text.slice(0, match.index).split('\n').length;
    return `${path.relative(ROOT, file)}:${line}: ${text.split('\n')[line - 1].trim()}`;
  });
}

describe('D1 batches outside the data layer', () => {
  const outside = filesUnder(path.join(ROOT, 'src')).filter((file) => !file.startsWith(DATA + path.sep));
  const texts = outside.map((file) => [file, readFileSync(file, 'utf8')] as const);

  it('finds what it looks for (a broken pattern would pass every file)', () => {
    const sample = [
      'const [a, b] = await db.batch([x, y]);',
      'const results = await d1.batch<Record<string, unknown>>([...statements]);',
      'await db.$client.batch(statements);',
      'const prepared = statement._prepare();',
    ].join('\n');
    expect(matchesIn('sample.ts', sample, BATCH_CALL)).toHaveLength(3);
    expect(matchesIn('sample.ts', sample, DRIZZLE_INTERNALS)).toHaveLength(1);
    const reads = [
      'return read([query], ([[row]]) => row ?? null);',
      'return read(',
      '  [a, b],',
      'readOne([statement], ([rows]) => rows);',
      "import type { BatchResponse } from 'drizzle-orm/batch';",
    ].join('\n');
    expect(matchesIn('sample.ts', reads, POSITIONAL_READ)).toHaveLength(4);
    // Reads by name, and a list's own methods, are not positional reads.
    const named = 'read({ rows: query }, ({ rows: [row] }) => row); readEach(db, [one, two]); thread([x]); reader([y]);';
    expect(matchesIn('sample.ts', named, POSITIONAL_READ)).toEqual([]);
    // Ordinary arrays and names are not batches.
    expect(matchesIn('sample.ts', 'const batch = rows.slice(0, 3); batchOf(x); results[1];', BATCH_CALL)).toEqual([]);
    expect(outside.length).toBeGreaterThan(100);
  });

  it('are never called directly: a batch goes through the data layer, which answers by name', () => {
    expect(texts.flatMap(([file, text]) => matchesIn(file, text, BATCH_CALL))).toEqual([]);
  });

  it('are composed into reads by name, never by position', () => {
    expect(texts.flatMap(([file, text]) => matchesIn(file, text, POSITIONAL_READ))).toEqual([]);
  });

  it('go into a read in a record: a list of statements does not type (the type check fails on these lines otherwise)', () => {
    // @ts-expect-error a read's statements are named, so its shape cannot take them by position
    assertType(read([], () => null));
    // @ts-expect-error as with Drizzle's statements, so with raw ones
    assertType(rawRead([], () => null));
  });

  it('leave Drizzle’s private surface to the data layer', () => {
    expect(texts.flatMap(([file, text]) => matchesIn(file, text, DRIZZLE_INTERNALS))).toEqual([]);
  });
});
