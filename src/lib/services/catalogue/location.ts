/**
 * Where the user is and which city they browse: city autocomplete, the nearest city to a position,
 * the user's city, and the location history recorded whenever a city is chosen.
 */
import { asc, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { cities, countries, locationHistory, users } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { nearest, type Coordinates } from '../../domain/geo.ts';
import { cityView, currentCity, type CityView } from './catalogue.ts';
import type { RequestScope } from '../platform/scope.ts';
import { batch } from '../../data/batch.ts';

const AUTOCOMPLETE_LIMIT = 20;

/** Who is choosing: the signed-in user and/or the browser's device id (either may be missing). */
export interface Chooser {
  userId: number | null;
  deviceId: string | null;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function like(column: AnySQLiteColumn, pattern: string): SQL {
  return sql`${column} LIKE ${pattern} ESCAPE '\\'`;
}

/**
 * Cities whose name (in any script), code or country contains the keyword, case-insensitively;
 * cities whose own name starts with it come first. Typing a country lists its cities.
 */
export async function autocompleteCities(scope: RequestScope, keyword: string): Promise<CityView[]> {
  const { db } = scope;
  const escaped = escapeLike(keyword);
  const cityColumns = [cities.nameEn, cities.nameZhHant, cities.nameZhHans, cities.cityCode];
  const countryColumns = [countries.nameEn, countries.nameZhHant, countries.nameZhHans];
  const startsWith = or(...cityColumns.map((column) => like(column, `${escaped}%`)));
  const rows = await db
    .select({ city: cities })
    .from(cities)
    .innerJoin(countries, eq(countries.id, cities.countryId))
    .where(or(...[...cityColumns, ...countryColumns].map((column) => like(column, `%${escaped}%`))))
    .orderBy(sql`CASE WHEN ${startsWith} THEN 0 ELSE 1 END`, asc(cities.sort), asc(cities.id))
    .limit(AUTOCOMPLETE_LIMIT);
  return rows.map((row) => cityView(row.city, scope.ctx.locale));
}

/** The active city closest to a position. */
export async function nearestCity(scope: RequestScope, position: Coordinates): Promise<CityView | null> {
  const rows = await scope.db.select().from(cities).orderBy(asc(cities.sort), asc(cities.id));
  const closest = nearest(position, rows);
  return closest ? cityView(closest, scope.ctx.locale) : null;
}

/**
 * The city the server remembers for this user or device: the last one chosen (location history),
 * else the one on the account, else the city of the request (cookie or header, default Hong Kong).
 */
export async function userCity(scope: RequestScope, chooser: Chooser): Promise<CityView> {
  const { db } = scope;
  const owner =
    chooser.userId !== null
      ? eq(locationHistory.userId, chooser.userId)
      : chooser.deviceId !== null
        ? eq(locationHistory.deviceId, chooser.deviceId)
        : null;
  if (owner) {
    const [last] = await db
      .select({ cityId: locationHistory.cityId })
      .from(locationHistory)
      .where(owner)
      .orderBy(desc(locationHistory.createdAt), desc(locationHistory.id))
      .limit(1);
    if (last) return currentCity(scope, last.cityId);
  }
  if (chooser.userId !== null) {
    const [account] = await db.select({ cityId: users.cityId }).from(users).where(eq(users.id, chooser.userId));
    if (account?.cityId) return currentCity(scope, account.cityId);
  }
  return currentCity(scope, scope.ctx.cityId);
}

/** Records a chosen city in the location history (and on the account when signed in). */
export async function saveUserCity(scope: RequestScope, cityId: number, chooser: Chooser): Promise<CityView> {
  const { db, now } = scope;
  const [row] = await db.select().from(cities).where(eq(cities.id, cityId));
  if (!row) throw new DomainError('city_not_found', {}, 'cityId');
  const record = db.insert(locationHistory).values({ userId: chooser.userId, deviceId: chooser.deviceId, cityId, createdAt: now });
  if (chooser.userId !== null) {
    await batch(db, { record, userCity: db.update(users).set({ cityId }).where(eq(users.id, chooser.userId)) });
  } else {
    await record;
  }
  return cityView(row, scope.ctx.locale);
}
