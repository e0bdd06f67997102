import { eq } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { collidingColumn, prefixed } from '../../src/lib/data/batch-columns.ts';
import { activities, venues } from '../../src/lib/db/schema.ts';

const qb = new QueryBuilder();

describe('columns of a batched select', () => {
  it('finds a column name two joined tables share', () => {
    const joined = qb.select({ activity: activities, venue: venues }).from(activities).innerJoin(venues, eq(venues.id, activities.venueId));
    expect(collidingColumn(joined)).toBe('id');
  });

  it('passes a join whose shared names are prefixed', () => {
    const joined = qb
      .select({ activity: prefixed('activity', activities, ['id', 'nameEn']), venue: prefixed('venue', venues, ['id', 'nameEn']) })
      .from(activities)
      .innerJoin(venues, eq(venues.id, activities.venueId));
    expect(collidingColumn(joined)).toBeNull();
    expect(joined.toSQL().sql).toContain('"activities"."id" as "activity.id"');
    expect(joined.toSQL().sql).toContain('"venues"."name_en" as "venue.name_en"');
  });

  it('passes a single table and statements that are not selects', () => {
    expect(collidingColumn(qb.select().from(activities))).toBeNull();
    expect(collidingColumn({})).toBeNull();
  });
});
