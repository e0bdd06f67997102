import { describe, expect, it } from 'vitest';
import { bookmarkCookie, mayWrite, usableBookmark } from '../../src/lib/data/replica-bookmark.ts';

describe('the replica bookmark cookie', () => {
  it('keeps what looks like a D1 bookmark and drops anything else', () => {
    const bookmark = '0000000b-00000001-00004ed4-7bd62f1d6a1f8a2c7a1e2bd6f4e1e1a1';
    expect(usableBookmark(bookmark)).toBe(bookmark);
    for (const value of [undefined, null, '', 'first-primary', '../etc', 'abc', `${'a'.repeat(41)}-1`, 'a b-c']) {
      expect(usableBookmark(value)).toBeNull();
    }
  });

  it('names the methods that may write', () => {
    expect(['POST', 'put', 'DELETE', 'PATCH'].every(mayWrite)).toBe(true);
    expect(['GET', 'head', 'OPTIONS'].some(mayWrite)).toBe(false);
  });

  it('hands the bookmark over HttpOnly for an hour, Secure unless local http', () => {
    expect(bookmarkCookie('0-1', true)).toBe('d1bm=0-1; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure');
    expect(bookmarkCookie('0-1', false)).toBe('d1bm=0-1; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax');
  });
});
