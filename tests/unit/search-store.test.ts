import { beforeEach, describe, expect, it } from 'vitest';
import { SEARCH_HISTORY_TTL_DAYS } from '../../src/lib/config/browse.ts';
import { $searchHistory, clearSearchHistory, loadSearchHistory, recordSearch, SEARCH_HISTORY_KEY } from '../../src/lib/browser/search.ts';

const DAY = 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 10, 1);

/** The Storage interface over a Map, as a browser's local storage behaves. */
class MemoryStorage {
  private items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

beforeEach(() => {
  Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
  $searchHistory.set([]);
});

describe('search history store', () => {
  it('stores records of value and expiry under searchRecordList, newest first', () => {
    recordSearch('first', NOW);
    recordSearch('second', NOW + 1);
    expect($searchHistory.get().map((record) => record.value)).toEqual(['second', 'first']);
    expect(JSON.parse(localStorage.getItem(SEARCH_HISTORY_KEY)!)).toEqual([
      { value: 'second', expiry: NOW + 1 + SEARCH_HISTORY_TTL_DAYS * DAY },
      { value: 'first', expiry: NOW + SEARCH_HISTORY_TTL_DAYS * DAY },
    ]);
  });

  it('drops expired records from storage when loading', () => {
    localStorage.setItem(
      SEARCH_HISTORY_KEY,
      JSON.stringify([
        { value: 'old', expiry: NOW - DAY },
        { value: 'new', expiry: NOW + DAY },
      ]),
    );
    loadSearchHistory(NOW);
    expect($searchHistory.get().map((record) => record.value)).toEqual(['new']);
    expect(JSON.parse(localStorage.getItem(SEARCH_HISTORY_KEY)!)).toHaveLength(1);
  });

  it('clears everything', () => {
    recordSearch('x', NOW);
    clearSearchHistory();
    expect($searchHistory.get()).toEqual([]);
    expect(localStorage.getItem(SEARCH_HISTORY_KEY)).toBeNull();
  });

  it('keeps working for the page when storage refuses writes', () => {
    Object.defineProperty(globalThis, 'localStorage', {
      value: {
        getItem: () => null,
        setItem: () => {
          throw new Error('QuotaExceededError');
        },
        removeItem: () => undefined,
      },
      configurable: true,
    });
    recordSearch('kept', NOW);
    expect($searchHistory.get().map((record) => record.value)).toEqual(['kept']);
  });
});
