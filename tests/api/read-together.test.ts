/**
 * readTogether's batch (data/read-together.ts) shapes rows itself, once per statement rather than per
 * row: on real D1 its answers must be exactly Drizzle's own batch's, for plain columns, prefixed
 * (aliased) columns, SQL with a decoder, a subquery column and a left join whose table is missing.
 */
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { prefixed } from '../../src/lib/data/batch-columns.ts';
import { database } from '../../src/lib/data/client.ts';
import { read, readTogether } from '../../src/lib/data/read-together.ts';
import { activities, activitySessions, orders, users, venues } from '../../src/lib/db/schema.ts';
import { cardQuery } from '../../src/lib/services/catalogue/catalogue.ts';
import { REFERENCE_TIME, seed } from './helpers.ts';

beforeAll(async () => {
  await seed();
});

describe('reads together', () => {
  it("answers every statement exactly as Drizzle's own batch does", async () => {
    const db = database(env.DB);
    const statements = () =>
      [
        db.select().from(venues).limit(3),
        db
          .select({
            activity: prefixed('activity', activities, ['id', 'nameEn', 'startsAt']),
            venue: prefixed('venue', venues, ['nameEn']),
          })
          .from(activities)
          .innerJoin(venues, eq(venues.id, activities.venueId))
          .limit(5),
        db
          .select({
            id: activities.id,
            sessions: sql<number>`(SELECT count(*) FROM activity_sessions s WHERE s.activity_id = ${activities.id})`.mapWith(Number),
          })
          .from(activities)
          .limit(4),
        db
          .select({ order: { id: orders.id, status: orders.status }, seller: { nickname: users.nickname, email: users.email } })
          .from(orders)
          .leftJoin(users, eq(users.id, orders.sellerId))
          .limit(3),
        db
          .select({ session: { id: activitySessions.id, startsAt: activitySessions.startsAt }, activity: { name: activities.nameEn } })
          .from(activitySessions)
          .leftJoin(activities, eq(activities.id, -1))
          .limit(2),
        db
          .select({ session: { id: activitySessions.id }, activity: { name: activities.nameEn } })
          .from(activitySessions)
          .leftJoin(activities, eq(activities.id, activitySessions.activityId))
          .limit(2),
        cardQuery(db, REFERENCE_TIME).limit(6),
      ] as const;
    const own = await db.batch(statements());
    const together = await readTogether(db, { all: read({ all: statements() }, ({ all }) => all) });
    expect(together.all).toEqual(own);
    // The left join that found nothing reads as null, the one that did as its row.
    expect(together.all[4].length).toBeGreaterThan(0);
    expect(together.all[4].every((row) => row.activity === null)).toBe(true);
    expect(together.all[5].every((row) => row.activity !== null)).toBe(true);
    expect(together.all[6].length).toBeGreaterThan(0);
  });
});
