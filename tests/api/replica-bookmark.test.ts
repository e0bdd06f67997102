import { beforeAll, describe, expect, it } from 'vitest';
import { REPLICA_BOOKMARK_COOKIE } from '../../src/lib/config/request.ts';
import { usableBookmark } from '../../src/lib/data/replica-bookmark.ts';
import type { CityView } from '../../src/lib/services/catalogue/catalogue.ts';
import { call, seed } from './helpers.ts';

beforeAll(() => seed());

const bookmarkCookie = (headers: Headers) => headers.getSetCookie().find((line) => line.startsWith(`${REPLICA_BOOKMARK_COOKIE}=`));

describe('D1 read replication: the bookmark cookie', () => {
  it('hands the browser the bookmark of its write, HttpOnly, and nothing after a read', async () => {
    const read = await call('/api/');
    expect(read.status).toBe(200);
    expect(bookmarkCookie(read.headers)).toBeUndefined();

    const write = await call<CityView>('/api/v1/cities/user/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cityId: 343 }),
    });
    expect(write.status).toBe(200);
    const line = bookmarkCookie(write.headers);
    expect(line).toMatch(/; HttpOnly/i);
    expect(line).toMatch(/; Max-Age=3600/i);
    const bookmark = line?.split(';')[0].split('=')[1];
    expect(usableBookmark(bookmark)).toBe(bookmark);
  });

  it('reads with the bookmark the browser sends, and ignores one that is not a bookmark', async () => {
    const write = await call('/api/v1/cities/user/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cityId: 342 }),
    });
    const bookmark = bookmarkCookie(write.headers)?.split(';')[0].split('=')[1];
    const dvid = write.headers
      .getSetCookie()
      .find((line) => line.startsWith('dvid='))
      ?.split(';')[0];
    const after = await call<CityView>('/api/v1/cities/userCity', {
      headers: { cookie: `${dvid}; ${REPLICA_BOOKMARK_COOKIE}=${bookmark}` },
    });
    expect(after.body.data.cityId).toBe(342);
    const forged = await call('/api/', { headers: { cookie: `${REPLICA_BOOKMARK_COOKIE}=../../etc` } });
    expect(forged.status).toBe(200);
  });
});
