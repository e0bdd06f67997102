/**
 * Recent searches, kept in local storage under `searchRecordList` (SPEC.md section 3) as records
 * of value and expiry; the rules are in domain/search-history.ts. Storage can be unavailable
 * (private mode, full quota): the list then lives for the page only.
 */
import { atom } from 'nanostores';
import { addToHistory, parseHistory, type SearchRecord } from '../domain/search-history.ts';

export const SEARCH_HISTORY_KEY = 'searchRecordList';

export const $searchHistory = atom<SearchRecord[]>([]);

function stored(now: number): SearchRecord[] {
  try {
    return parseHistory(localStorage.getItem(SEARCH_HISTORY_KEY), now);
  } catch {
    return $searchHistory.get();
  }
}

function save(records: SearchRecord[]): void {
  try {
    localStorage.setItem(SEARCH_HISTORY_KEY, JSON.stringify(records));
  } catch {
    // Storage refused: the atom still holds the list for this page.
  }
  $searchHistory.set(records);
}

/** Reads the stored history, dropping (and forgetting) expired records. */
export function loadSearchHistory(now = Date.now()): void {
  save(stored(now));
}

/** Puts a search at the top of the history. */
export function recordSearch(value: string, now = Date.now()): void {
  save(addToHistory(stored(now), value, now));
}

/** Forgets every recent search. */
export function clearSearchHistory(): void {
  try {
    localStorage.removeItem(SEARCH_HISTORY_KEY);
  } catch {
    // Nothing stored to remove.
  }
  $searchHistory.set([]);
}
