import { describe, expect, it } from 'vitest';
import { SEARCH_HISTORY_MAX, SEARCH_HISTORY_TTL_DAYS } from '../../src/lib/config/browse.ts';
import { addToHistory, parseHistory, pruneHistory, type SearchRecord } from '../../src/lib/domain/search-history.ts';

const DAY = 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 10, 1);

describe('addToHistory', () => {
  it('puts a search on top with an expiry 90 days later', () => {
    expect(addToHistory([], '  Kelvin Lau ', NOW)).toEqual([{ value: 'Kelvin Lau', expiry: NOW + SEARCH_HISTORY_TTL_DAYS * DAY }]);
  });

  it('keeps values unique: a repeat moves to the top with a fresh expiry', () => {
    let list: SearchRecord[] = [];
    list = addToHistory(list, 'a', NOW);
    list = addToHistory(list, 'b', NOW + 1);
    list = addToHistory(list, 'a', NOW + 2);
    expect(list.map((record) => record.value)).toEqual(['a', 'b']);
    expect(list[0].expiry).toBe(NOW + 2 + SEARCH_HISTORY_TTL_DAYS * DAY);
  });

  it('keeps at most 20, dropping the oldest', () => {
    let list: SearchRecord[] = [];
    for (let i = 1; i <= SEARCH_HISTORY_MAX + 5; i++) list = addToHistory(list, `term ${i}`, NOW + i);
    expect(list).toHaveLength(SEARCH_HISTORY_MAX);
    expect(list[0].value).toBe('term 25');
    expect(list.at(-1)?.value).toBe('term 6');
  });

  it('ignores a blank search', () => {
    const list = addToHistory([], 'x', NOW);
    expect(addToHistory(list, '   ', NOW)).toEqual(list);
  });
});

describe('parseHistory', () => {
  it('drops expired records when the list is read', () => {
    const stored = JSON.stringify([
      { value: 'fresh', expiry: NOW + DAY },
      { value: 'stale', expiry: NOW - 1 },
      { value: 'edge', expiry: NOW },
    ]);
    expect(parseHistory(stored, NOW).map((record) => record.value)).toEqual(['fresh']);
  });

  it('counts anything unreadable as no history and skips malformed records', () => {
    expect(parseHistory(null, NOW)).toEqual([]);
    expect(parseHistory('{not json', NOW)).toEqual([]);
    expect(parseHistory('{"value":"x"}', NOW)).toEqual([]);
    const mixed = JSON.stringify([
      { value: 'ok', expiry: NOW + DAY },
      { value: 3, expiry: NOW + DAY },
      { value: ' ', expiry: NOW + DAY },
      'x',
      null,
    ]);
    expect(parseHistory(mixed, NOW)).toEqual([{ value: 'ok', expiry: NOW + DAY }]);
  });

  it('repairs a stored list with duplicates or too many records', () => {
    const records = Array.from({ length: 30 }, (_, i) => ({ value: `v${i % 25}`, expiry: NOW + DAY }));
    const pruned = pruneHistory(records, NOW);
    expect(pruned).toHaveLength(SEARCH_HISTORY_MAX);
    expect(new Set(pruned.map((record) => record.value)).size).toBe(SEARCH_HISTORY_MAX);
  });
});
