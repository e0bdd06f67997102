import { env } from 'cloudflare:workers';
import { eq, type Placeholder } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { database, type Db } from '../../src/lib/data/client.ts';
import { compiledSelect } from '../../src/lib/data/compiled-select.ts';
import { read, readTogether } from '../../src/lib/data/read-together.ts';
import { listings, ticketTiers } from '../../src/lib/db/schema.ts';
import { showQuery } from '../../src/lib/services/catalogue/show-query.ts';
import { seed } from './helpers.ts';

const listingWithShow = (db: Db, listingId: number | Placeholder<'listingId', number>) =>
  showQuery(db, { listingId: listings.id, price: listings.price })
    .innerJoin(listings, eq(listings.tierId, ticketTiers.id))
    .where(eq(listings.id, listingId));

const compiled = compiledSelect<{ listingId: number }, ReturnType<typeof listingWithShow>>(['listingId'], (db, { listingId }) =>
  listingWithShow(db, listingId),
);

let ids: number[];

beforeAll(async () => {
  await seed();
  ids = (await env.DB.prepare('SELECT id FROM listings ORDER BY id LIMIT 3').all<{ id: number }>()).results.map((row) => row.id);
});

describe('a compiled select', () => {
  it('answers each call with its own values, row for row as the select built anew, awaited or batched', async () => {
    const db = database(env.DB);
    expect(ids).toHaveLength(3);
    for (const listingId of ids) {
      const built = await listingWithShow(db, listingId);
      expect(built).toHaveLength(1);
      expect(await compiled(db, { listingId })).toEqual(built);
    }
    const batched = await readTogether(db, {
      first: read({ rows: compiled(db, { listingId: ids[0] }) }, ({ rows }) => rows),
      last: read({ rows: compiled(db, { listingId: ids[2] }) }, ({ rows }) => rows),
    });
    expect(batched.first).toEqual(await listingWithShow(db, ids[0]));
    expect(batched.last).toEqual(await listingWithShow(db, ids[2]));
    expect(batched.first[0].listingId).toBe(ids[0]);
  });
});
