/**
 * Recent searches (SPEC.md sections 3 and 5): records of value and expiry, newest first, at most
 * SEARCH_HISTORY_MAX, unique (a repeat moves to the top), each expiring SEARCH_HISTORY_TTL_DAYS after
 * it was last searched; expired records are dropped when the list is read.
 */
import { SEARCH_HISTORY_MAX, SEARCH_HISTORY_TTL_DAYS } from '../config/browse.ts';

export interface SearchRecord {
  value: string;
  /** Epoch milliseconds after which the record is dropped. */
  expiry: number;
}

const TTL_MS = SEARCH_HISTORY_TTL_DAYS * 24 * 3600 * 1000;

function isRecord(item: unknown): item is SearchRecord {
  if (!item || typeof item !== 'object') return false;
  const { value, expiry } = item as Record<string, unknown>;
  return typeof value === 'string' && value.trim() !== '' && typeof expiry === 'number' && Number.isFinite(expiry);
}

/** Keeps the unexpired records, first occurrence of each value, at most the maximum. */
export function pruneHistory(records: readonly SearchRecord[], now: number): SearchRecord[] {
  const seen = new Set<string>();
  const kept: SearchRecord[] = [];
  for (const record of records) {
    if (record.expiry <= now || seen.has(record.value)) continue;
    seen.add(record.value);
    kept.push(record);
  }
  return kept.slice(0, SEARCH_HISTORY_MAX);
}

/** Reads the stored list; anything unreadable counts as no history, expired records are dropped. */
export function parseHistory(raw: string | null, now: number): SearchRecord[] {
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  return Array.isArray(parsed) ? pruneHistory(parsed.filter(isRecord), now) : [];
}

/** Puts a search at the top with a fresh expiry; a blank value leaves the list as it was. */
export function addToHistory(records: readonly SearchRecord[], value: string, now: number): SearchRecord[] {
  const trimmed = value.trim();
  if (!trimmed) return pruneHistory(records, now);
  return pruneHistory([{ value: trimmed, expiry: now + TTL_MS }, ...records.filter((record) => record.value !== trimmed)], now);
}
