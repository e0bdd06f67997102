/**
 * The bookmark cookie of D1's read replication (data/client.ts). A bookmark is D1's own token of a
 * point in the database's history (hex groups joined by dashes); anything else in the cookie is a
 * stale or forged value, ignored rather than handed to D1.
 */
import { REPLICA_BOOKMARK_COOKIE, REPLICA_BOOKMARK_MAX_AGE_S } from '../config/request.ts';

const BOOKMARK = /^[0-9a-f]{1,40}(?:-[0-9a-f]{1,40}){1,7}$/i;

export function usableBookmark(value: string | undefined | null): string | null {
  return value && BOOKMARK.test(value) ? value : null;
}

/** Whether a request may write, so that its answer hands the browser the bookmark of what it wrote. */
export function mayWrite(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}

/** The Set-Cookie value that hands the browser its bookmark: HttpOnly (only the server reads it), Secure unless local http. */
export function bookmarkCookie(bookmark: string, secure: boolean): string {
  return `${REPLICA_BOOKMARK_COOKIE}=${bookmark}; Path=/; Max-Age=${REPLICA_BOOKMARK_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
