/**
 * The browsing catalogue: languages, cities, categories and activity cards, read from D1 and
 * shaped for the request's locale and currency.
 */
import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { activities, banners, categories, cities, languages, venues } from '../db/schema.ts';
import { cardTag, discountFold, discountPercent, type CardTag } from '../domain/activity.ts';
import { formatDateRange } from '../domain/datetime.ts';
import { convert, formatMoney } from '../domain/money.ts';
import { localizedName, type Locale } from '../i18n/locales.ts';
import { DEFAULT_CITY_ID } from '../config.ts';
import type { RequestScope } from './scope.ts';

export interface LanguageView {
  id: number;
  code: string;
  name: string;
  languageType: number;
}

export async function listLanguages(db: Db): Promise<LanguageView[]> {
  return db
    .select({ id: languages.id, code: languages.code, name: languages.name, languageType: languages.languageType })
    .from(languages)
    .orderBy(asc(languages.sort));
}

export interface CityView {
  cityId: number;
  countryId: number;
  cityName: string;
  cityEnName: string;
  firstLetter: string;
  isHotCity: boolean;
  isChina: boolean;
  cityCode: string;
  longitude: number;
  latitude: number;
}

type CityRow = typeof cities.$inferSelect;

export function cityView(row: CityRow, locale: Locale): CityView {
  return {
    cityId: row.id,
    countryId: row.countryId,
    cityName: localizedName(row, locale),
    cityEnName: row.nameEn,
    firstLetter: row.firstLetter,
    isHotCity: row.isHotCity,
    isChina: row.isChina,
    cityCode: row.cityCode,
    longitude: row.longitude,
    latitude: row.latitude,
  };
}

/** Active cities grouped by first letter, letters in order (the city picker's list). */
export async function cityGroups(scope: RequestScope): Promise<{ letter: string; cities: CityView[] }[]> {
  const { locale } = scope.ctx;
  const rows = await scope.db.select().from(cities).orderBy(asc(cities.firstLetter), asc(cities.sort), asc(cities.nameEn));
  const groups = new Map<string, CityView[]>();
  for (const row of rows) {
    const group = groups.get(row.firstLetter) ?? [];
    group.push(cityView(row, locale));
    groups.set(row.firstLetter, group);
  }
  return [...groups].map(([letter, list]) => ({ letter, cities: list }));
}

/** Hot cities; only ids above 0 count (SPEC.md section 9). */
export async function hotCities(scope: RequestScope): Promise<CityView[]> {
  const rows = await scope.db
    .select()
    .from(cities)
    .where(and(eq(cities.isHotCity, true), gt(cities.id, 0)))
    .orderBy(asc(cities.sort), asc(cities.id));
  return rows.map((row) => cityView(row, scope.ctx.locale));
}

/** The city of an id, or the default city (Hong Kong) when the id is unknown or ignored. */
export async function currentCity(scope: RequestScope, cityId: number): Promise<CityView> {
  const wanted = cityId > 0 ? cityId : DEFAULT_CITY_ID;
  const rows = await scope.db
    .select()
    .from(cities)
    .where(inArray(cities.id, [wanted, DEFAULT_CITY_ID]));
  const chosen = rows.find((r) => r.id === wanted) ?? rows[0];
  if (!chosen) throw new Error('The default city is missing: seed the database');
  return cityView(chosen, scope.ctx.locale);
}

export interface CategoryView {
  id: number;
  slug: string;
  name: string;
  enName: string;
  pinyin: string;
}

export async function listCategories(scope: RequestScope): Promise<CategoryView[]> {
  const { locale } = scope.ctx;
  const rows = await scope.db.select().from(categories).orderBy(asc(categories.sort), asc(categories.id));
  return rows.map((row) => ({ id: row.id, slug: row.slug, name: localizedName(row, locale), enName: row.nameEn, pinyin: row.pinyin }));
}

export interface ActivityCard {
  id: number;
  poster: string;
  name: string;
  timeRange: string;
  venueName: string;
  /** Cheapest in-stock listing, converted to the request currency, in its minor units. */
  lowPrice: number | null;
  /** Face value of that listing's tier, converted likewise. */
  originPrice: number | null;
  lowPriceView: string | null;
  originPriceView: string | null;
  /** Fold of the discount (8.5 = 15% off), null when the low price is not below face value. */
  discountRate: number | null;
  discountPercent: number | null;
  status: number;
  soldOut: boolean;
  tag: CardTag;
  currency: string;
  /** Poster width over height. */
  ratio: number;
  categoryId: number;
  activityCategoryName: string;
}

const POSTER_RATIO = 0.75;

interface CheapestListing {
  activityId: number;
  price: number;
  currency: string;
  faceValue: number;
  inStock: number;
}

/** For each activity, its cheapest in-stock listing, else its cheapest listing of all. */
async function cheapestListings(db: Db, activityIds: number[]): Promise<Map<number, CheapestListing>> {
  if (activityIds.length === 0) return new Map();
  const rows = await db.all<CheapestListing>(sql`
    SELECT activityId, price, currency, faceValue, inStock FROM (
      SELECT s.activity_id AS activityId, l.price AS price, l.currency AS currency, t.face_value AS faceValue,
             l.quantity_available > 0 AS inStock,
             ROW_NUMBER() OVER (PARTITION BY s.activity_id ORDER BY l.quantity_available = 0, l.price) AS rank
      FROM listings l
      JOIN ticket_tiers t ON t.id = l.tier_id
      JOIN activity_sessions s ON s.id = t.session_id
      WHERE s.activity_id IN (${sql.join(
        activityIds.map((id) => sql`${id}`),
        sql`, `,
      )}) AND l.status != 'withdrawn'
    ) WHERE rank = 1`);
  return new Map(rows.map((row) => [row.activityId, row]));
}

const cardColumns = {
  activity: activities,
  venue: venues,
  category: categories,
  timeZone: cities.timeZone,
};

type CardRow = {
  activity: typeof activities.$inferSelect;
  venue: typeof venues.$inferSelect;
  category: typeof categories.$inferSelect;
  timeZone: string;
};

/** Shapes activity rows as cards in the request's locale and currency. */
export async function toCards(scope: RequestScope, rows: CardRow[]): Promise<ActivityCard[]> {
  const { db, ctx, currencies: currencyTable } = scope;
  const cheapest = await cheapestListings(
    db,
    rows.map((r) => r.activity.id),
  );
  const digits = currencyTable.get(ctx.currency)?.minorDigits ?? 2;
  return rows.map(({ activity, venue, category, timeZone }) => {
    const listing = cheapest.get(activity.id);
    const soldOut = !listing?.inStock;
    const low = listing ? convert({ amount: listing.price, currency: listing.currency }, ctx.currency, currencyTable) : null;
    const origin = listing ? convert({ amount: listing.faceValue, currency: listing.currency }, ctx.currency, currencyTable) : null;
    const fold = listing ? discountFold(listing.price, listing.faceValue) : null;
    return {
      id: activity.id,
      poster: activity.poster,
      name: localizedName(activity, ctx.locale),
      timeRange: formatDateRange(activity.startsAt, activity.endsAt, ctx.locale, timeZone),
      venueName: localizedName(venue, ctx.locale),
      lowPrice: low?.amount ?? null,
      originPrice: origin?.amount ?? null,
      lowPriceView: low ? `${formatMoney(low, ctx.locale, digits)}+` : null,
      originPriceView: origin ? formatMoney(origin, ctx.locale, digits) : null,
      discountRate: fold,
      discountPercent: fold === null ? null : discountPercent(fold),
      status: activity.status,
      soldOut,
      tag: cardTag(activity.status, soldOut),
      currency: ctx.currency,
      ratio: POSTER_RATIO,
      categoryId: category.id,
      activityCategoryName: localizedName(category, ctx.locale),
    };
  });
}

/** Activities joined with what their cards show; callers add the where, order and limit. */
export function cardQuery(db: Db) {
  return db
    .select(cardColumns)
    .from(activities)
    .innerJoin(venues, eq(venues.id, activities.venueId))
    .innerJoin(categories, eq(categories.id, activities.categoryId))
    .innerJoin(cities, eq(cities.id, activities.cityId));
}

const HOME_LIST_SIZE = 10;

export interface BannerView {
  poster: string;
  url: string;
}

export interface HomeConfig {
  banners: BannerView[];
  categories: CategoryView[];
  rareActivities: ActivityCard[];
  discountActivities: ActivityCard[];
  tkd: { title: string; keywords: string; description: string };
  currentCity: CityView;
}

/** The home config of SPEC.md section 3, for the request's city (falling back to Hong Kong). */
export async function homeConfig(scope: RequestScope, tkd: HomeConfig['tkd']): Promise<HomeConfig> {
  const { db, ctx, now } = scope;
  const city = await currentCity(scope, ctx.cityId);
  const inCity = and(eq(activities.cityId, city.cityId), gt(activities.endsAt, now));
  const [bannerRows, categoryList, rareRows, candidateRows] = await Promise.all([
    db.select({ poster: banners.poster, url: banners.url }).from(banners).where(eq(banners.cityId, city.cityId)).orderBy(asc(banners.sort)),
    listCategories(scope),
    cardQuery(db)
      .where(and(inCity, eq(activities.isRare, true)))
      .orderBy(asc(activities.startsAt))
      .limit(HOME_LIST_SIZE),
    cardQuery(db)
      .where(inCity)
      .orderBy(desc(activities.isHot), asc(activities.startsAt))
      .limit(HOME_LIST_SIZE * 6),
  ]);
  const [rareActivities, candidates] = await Promise.all([toCards(scope, rareRows), toCards(scope, candidateRows)]);
  const discountActivities = candidates
    .filter((card) => card.discountRate !== null && !card.soldOut)
    .sort((a, b) => (a.discountRate ?? 10) - (b.discountRate ?? 10))
    .slice(0, HOME_LIST_SIZE);
  return { banners: bannerRows, categories: categoryList, rareActivities, discountActivities, tkd, currentCity: city };
}
