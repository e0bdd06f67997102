/**
 * An Idempotency-Key names one request: a retry sends the same key with the same body and gets the
 * first answer; the same key with another body is a client bug (or a replay against another
 * listing), answered 422 idempotency_key_reused rather than with a result it did not ask for.
 */
import { DomainError } from './errors.ts';

/** JSON with object keys sorted at every level, so the same input always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 (hex) of a request's validated body. */
export async function requestHash(body: unknown): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalJson(body)));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Whether a stored request may be answered again for this one; a row without a hash predates them. */
export function sameRequest(storedHash: string | null, hash: string): boolean {
  return storedHash === null || storedHash === hash;
}

/** The row a retried request answers with; a 422 when its key was first used for another request. */
export function sameRequestOrReused<Row extends { requestHash: string | null }>(row: Row, hash: string): Row {
  if (!sameRequest(row.requestHash, hash)) throw new DomainError('idempotency_key_reused');
  return row;
}
