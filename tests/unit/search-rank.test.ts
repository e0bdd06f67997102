import { describe, expect, it } from 'vitest';
import { bm25, decodeVarints, documentTokens, hexBytes, indexTotals } from '../../src/lib/domain/search-rank.ts';

// An FTS5 table configured as migration 0002's (bm25(4.0, 6.0, 2.0)) held seven documents; the
// phrase "劉 嘉 朗" occurred twice in the name and once in the artist of the first (21 tokens) and once in
// the name of the second (11 tokens). FTS5 ranked them -1.464594185873695 and -1.2627192868839774.
const AVERAGES = '071D0C11';

describe('bm25', () => {
  it('gives FTS5’s own scores from the index’s records and the phrase’s occurrences', () => {
    const totals = indexTotals(hexBytes(AVERAGES));
    expect(totals).toEqual({ documents: 7, tokens: 29 + 12 + 17 });
    expect(bm25({ occurrences: [2, 1, 0], tokens: documentTokens(hexBytes('0A0605')) }, totals, 2)).toBe(-1.464594185873695);
    expect(bm25({ occurrences: [1, 0, 0], tokens: documentTokens(hexBytes('050006')) }, totals, 2)).toBe(-1.2627192868839774);
  });

  it('floors the IDF of a phrase in half the documents or more, as FTS5 does', () => {
    // The same two documents among four: FTS5 ranked them -0.0000019401574803149607 and -0.0000017170731707317074.
    const totals = indexTotals(hexBytes('0419090E'));
    expect(bm25({ occurrences: [2, 1, 0], tokens: 21 }, totals, 2)).toBe(-0.0000019401574803149607);
    expect(bm25({ occurrences: [1, 0, 0], tokens: 11 }, totals, 2)).toBe(-0.0000017170731707317074);
  });
});

describe('decodeVarints', () => {
  it('reads one- to nine-byte varints', () => {
    expect(decodeVarints(hexBytes('00017F8100BD8440'))).toEqual([0, 1, 127, 128, 1_000_000]);
    expect(decodeVarints(hexBytes('FFFFFFFFFFFFFFFFFF'))).toEqual([2 ** 64 - 1]);
  });
});
