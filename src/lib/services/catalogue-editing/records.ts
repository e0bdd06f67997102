/** What every catalogue edit shares: the next id of a table, and the checks of the rows a draft points at. */
import { eq, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../data/client.ts';
import { artists, categories, venues } from '../../db/schema.ts';
import type { DraftProblem } from '../../domain/catalogue-drafts.ts';
import { DomainError } from '../../domain/errors.ts';
import type { RequestScope } from '../platform/scope.ts';

/**
 * The id a new row of the table takes. The catalogue's ids are chosen, not autoincremented (the seed
 * writes its own), and the audit row written in the same batch needs it; two editors creating at the
 * same moment make the second insert fail on the key rather than overwrite.
 */
export async function nextId(db: Db, table: SQLiteTable & { id: unknown }): Promise<number> {
  const [row] = await db.select({ next: sql<number>`coalesce(max(${table.id}), 0) + 1` }).from(table);
  return row?.next ?? 1;
}

export function requireCity(scope: RequestScope, cityId: number) {
  const city = scope.reference.cities.find((row) => row.id === cityId);
  if (!city) throw new DomainError('city_not_found', {}, 'cityId');
  return city;
}

/** Read from D1, not the reference copy in memory: a category made a moment ago counts. */
export async function requireCategory(db: Db, categoryId: number): Promise<void> {
  const [category] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, categoryId));
  if (!category) throw new DomainError('category_not_found', {}, 'categoryId');
}

/** The venue, which must lie in the activity's city. */
export async function requireVenueIn(db: Db, venueId: number, cityId: number): Promise<void> {
  const [venue] = await db.select({ cityId: venues.cityId }).from(venues).where(eq(venues.id, venueId));
  if (!venue) throw new DomainError('venue_not_found', {}, 'venueId');
  if (venue.cityId !== cityId) throw new DomainError('venue_other_city', {}, 'venueId');
}

export async function requireArtist(db: Db, artistId: number | null): Promise<void> {
  if (artistId === null) return;
  const [artist] = await db.select({ id: artists.id }).from(artists).where(eq(artists.id, artistId));
  if (!artist) throw new DomainError('artist_not_found', {}, 'artistId');
}

/** Whether a failed write broke a foreign key: something still points at the row it removed. */
export function brokeForeignKey(error: unknown): boolean {
  return String(error instanceof Error && error.cause instanceof Error ? error.cause.message : error).includes('FOREIGN KEY');
}

/** Throws the first problem as the error its field answers with; the console's forms show them all. */
export function refuseProblems(problems: readonly DraftProblem[]): void {
  const [first] = problems;
  if (first) throw new DomainError(first.code, {}, first.field);
}
