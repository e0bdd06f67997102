/**
 * The search index's bm25 score computed outside the index, for the matches of a phrase found
 * through the bigram table (migration 0020): FTS5's bm25 learns a phrase's document frequency by
 * walking the whole phrase through the index, which is what the bigram table avoids. The formula,
 * its constants and its order of operations are FTS5's (fts5_aux.c), so the scores, and with them
 * the order of a ranking, are the index's own.
 */

/** The rank's column weights (name, artist, venue), as configured by migration 0002. */
export const SEARCH_COLUMN_WEIGHTS: readonly number[] = [4.0, 6.0, 2.0];
const K1 = 1.2;
const B = 0.75;
/** FTS5's floor for an IDF that would be zero or negative (a phrase in half the documents or more). */
const MIN_IDF = 1e-6;

/** What bm25 knows of the whole index: its documents and their tokens in every column together. */
export interface IndexTotals {
  documents: number;
  tokens: number;
}

/** One matching document: the phrase's occurrences in each column, and the document's length in tokens. */
export interface PhraseHit {
  occurrences: readonly number[];
  tokens: number;
}

/**
 * FTS5's bm25 (lower is better) of one single-phrase match: `documentsWithPhrase` is the number of
 * documents in the whole index the phrase matches.
 */
export function bm25(hit: PhraseHit, totals: IndexTotals, documentsWithPhrase: number): number {
  const averageLength = totals.tokens / totals.documents;
  const rawIdf = Math.log((totals.documents - documentsWithPhrase + 0.5) / (documentsWithPhrase + 0.5));
  const idf = rawIdf <= 0 ? MIN_IDF : rawIdf;
  let frequency = 0;
  hit.occurrences.forEach((count, column) => {
    for (let i = 0; i < count; i++) frequency += SEARCH_COLUMN_WEIGHTS[column] ?? 1.0;
  });
  const score = 0 + idf * ((frequency * (K1 + 1.0)) / (frequency + K1 * (1 - B + (B * hit.tokens) / averageLength)));
  return -1.0 * score;
}

/** SQLite's varints (FTS5 records): big-endian 7-bit groups, the ninth byte whole. */
export function decodeVarints(bytes: Uint8Array): number[] {
  const values: number[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    let value = 0;
    for (let index = 0; offset < bytes.length; index++) {
      const byte = bytes[offset++]!;
      if (index === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    values.push(value);
  }
  return values;
}

/** Bytes from SQLite's hex(). */
export function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) bytes[index] = Number.parseInt(hex.slice(2 * index, 2 * index + 2), 16);
  return bytes;
}

/** The index's totals from its averages record (FTS5's `%_data` row 1): the row count, then tokens per column. */
export function indexTotals(averagesRecord: Uint8Array): IndexTotals {
  const [documents = 0, ...columnTokens] = decodeVarints(averagesRecord);
  return { documents, tokens: columnTokens.reduce((sum, tokens) => sum + tokens, 0) };
}

/** A document's length in tokens from its docsize record (one varint per column). */
export function documentTokens(docsizeRecord: Uint8Array): number {
  return decodeVarints(docsizeRecord).reduce((sum, tokens) => sum + tokens, 0);
}
