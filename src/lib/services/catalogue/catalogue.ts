/**
 * The browsing catalogue: cities and categories (from the reference tables), activity cards and
 * the home config, shaped for the request's locale and currency.
 */
import { UNPUBLISHED_STATUS } from '../../domain/catalogue-drafts.ts';
import { and, asc, desc, eq, gt, isNull, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { prefixed } from '../../data/batch-columns.ts';
import { type Bound, compiledSelect } from '../../data/compiled-select.ts';
import { read, readOne, type Read } from '../../data/read-together.ts';
import { activities, banners, venues } from '../../db/schema.ts';
import { cardTag, discountFold, discountPercent, type CardTag } from '../../domain/activity.ts';
import { formatDateRange } from '../../domain/datetime.ts';
import { convert, formatMoney } from '../../domain/money.ts';
import { fromPriceOf } from '../../domain/pricing.ts';
import { localizedName, type Locale } from '../../i18n/locales.ts';
import { DEFAULT_CITY_ID } from '../../config/request.ts';
import type { CategoryRow, CityRow, ReferenceData } from './reference-data.ts';
import type { RequestScope } from '../platform/scope.ts';

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
export function cityGroups(scope: RequestScope): { letter: string; cities: CityView[] }[] {
  const { locale } = scope.ctx;
  const groups = new Map<string, CityView[]>();
  for (const row of scope.reference.cities) {
    const group = groups.get(row.firstLetter) ?? [];
    group.push(cityView(row, locale));
    groups.set(row.firstLetter, group);
  }
  return [...groups].map(([letter, list]) => ({ letter, cities: list }));
}

/** Hot cities, in their own order; only ids above 0 count (SPEC.md section 9). */
export function hotCities(scope: RequestScope): CityView[] {
  return scope.reference.cities
    .filter((row) => row.isHotCity && row.id > 0)
    .sort((a, b) => a.sort - b.sort || a.id - b.id)
    .map((row) => cityView(row, scope.ctx.locale));
}

/** The row of a city id, or of the default city (Hong Kong) when the id is unknown or ignored. */
export function currentCityRow(reference: ReferenceData, cityId: number): CityRow {
  const wanted = cityId > 0 ? cityId : DEFAULT_CITY_ID;
  const chosen = reference.cities.find((row) => row.id === wanted) ?? reference.cities.find((row) => row.id === DEFAULT_CITY_ID);
  if (!chosen) throw new Error('The default city is missing: apply the migrations (0036 inserts the reference data)');
  return chosen;
}

/** The city of an id, or the default city (Hong Kong) when the id is unknown or ignored. */
export function currentCity(scope: RequestScope, cityId: number): CityView {
  return cityView(currentCityRow(scope.reference, cityId), scope.ctx.locale);
}

export interface CategoryView {
  id: number;
  slug: string;
  name: string;
  enName: string;
  pinyin: string;
}

export function listCategories(scope: RequestScope): CategoryView[] {
  const { locale } = scope.ctx;
  return scope.reference.categories.map((row) => ({
    id: row.id,
    slug: row.slug,
    name: localizedName(row, locale),
    enName: row.nameEn,
    pinyin: row.pinyin,
  }));
}

export interface ActivityCard {
  id: number;
  poster: string;
  name: string;
  timeRange: string;
  venueName: string;
  /**
   * What one ticket of the cheapest in-stock listing costs all-in (service fee included) in the
   * request currency, rounded up to whole units as a "from" price (domain/pricing.ts fromPrice).
   */
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
  price: number;
  currency: string;
  faceValue: number;
  inStock: number;
}

/**
 * A listing a buyer can pick now (`l`, of the session `s`): active, with tickets left, its session
 * still to come. The detail page's picker offers exactly these (domain/availability.ts listingOnSale
 * and sessionOpen), so a card's price and the list's price sort weigh only what checkout can charge.
 */
export const listingOnSaleSql = (now: Bound<number>) => sql`(l.status = 'active' AND l.quantity_available > 0 AND s.starts_at > ${now})`;

/**
 * A price (in minor units of the currency joined as `c`, with its rate as `fx`) as HKD major units:
 * how listings in different currencies are weighed against each other.
 */
const valueInHkd = (price: SQL) =>
  sql`${price} * 1000000.0 / (fx.per_hkd_micros * CASE c.minor_digits WHEN 0 THEN 1 WHEN 1 THEN 10 WHEN 2 THEN 100 ELSE 1000 END)`;

/**
 * The card's activity's cheapest listing on sale, else its cheapest listing of all (what a sold-out
 * card shows), as JSON. Cheapest by value in HKD, as the price sort of lists compares them
 * (cheapestValueHkd), so a listing in another currency is weighed at its rate. This live query
 * reads and sorts every listing of the activity (about 24); the inner select picks the listing by id
 * and only that one is made JSON, since SQLite evaluates what a sorted select returns for every row
 * it sorts. Cards read the pick kept by migration 0027 instead, and run this only where that pick
 * does not answer for `now`; the migration's view makes the same pick.
 */
export const liveCheapestListing = (now: Bound<number>, activityId: SQL) => sql`(
  SELECT json_object('price', l.price, 'currency', l.currency, 'faceValue', t.face_value, 'inStock', ${listingOnSaleSql(now)})
  FROM listings l
  JOIN ticket_tiers t ON t.id = l.tier_id
  JOIN activity_sessions s ON s.id = t.session_id
  WHERE l.id = (
    SELECT l.id
    FROM listings l
    JOIN ticket_tiers t ON t.id = l.tier_id
    JOIN activity_sessions s ON s.id = t.session_id
    JOIN currencies c ON c.code = l.currency
    JOIN fx_rates fx ON fx.quote = l.currency
    WHERE s.activity_id = ${activityId} AND l.status != 'withdrawn'
    ORDER BY NOT ${listingOnSaleSql(now)}, ${valueInHkd(sql`l.price`)}, l.id
    LIMIT 1
  )
)`;

/** The value in HKD of the activity's cheapest listing on sale, computed from every listing; null when none is on sale. */
export const liveCheapestValueHkd = (now: Bound<number>, activityId: SQL) => sql`(
  SELECT MIN(${valueInHkd(sql`l.price`)})
  FROM activity_sessions s
  JOIN ticket_tiers t ON t.session_id = s.id
  JOIN listings l ON l.tier_id = t.id
  JOIN currencies c ON c.code = l.currency
  JOIN fx_rates fx ON fx.quote = l.currency
  WHERE s.activity_id = ${activityId} AND ${listingOnSaleSql(now)}
)`;

/**
 * The value in HKD of the activity's cheapest listing on sale (null when none is): the key of the
 * lists' price sort, the listing a card's price is of. Read from the kept pick while it answers for
 * `now` (see cheapestListing), else from every listing (liveCheapestValueHkd).
 */
export const cheapestValueHkd = (now: Bound<number>, activityId: SQL) => sql`(
  SELECT CASE
    WHEN p.picked_at > ${now} OR p.on_sale_until <= ${now} THEN ${liveCheapestValueHkd(now, sql`p.activity_id`)}
    WHEN p.on_sale_until IS NULL THEN NULL
    ELSE ${valueInHkd(sql`p.price`)} END
  FROM activity_cheapest_listings p
  JOIN currencies c ON c.code = p.currency
  JOIN fx_rates fx ON fx.quote = p.currency
  WHERE p.activity_id = ${activityId}
)`;

/**
 * The card's cheapest listing (see liveCheapestListing) as one JSON column of the card's own row, so
 * a card needs no second query. It reads the activity's kept pick, one row by key (migration 0027):
 * the pick answers from the time it was made until its session starts (for ever when nothing was on
 * sale), and no row means no listing but withdrawn ones. Outside that range the live query runs.
 */
const cheapestListing = (now: Bound<number>) =>
  sql<CheapestListing | null>`(
  SELECT CASE WHEN p.picked_at <= ${now} AND (p.on_sale_until IS NULL OR p.on_sale_until > ${now})
    THEN json_object('price', p.price, 'currency', p.currency, 'faceValue', p.face_value, 'inStock', p.on_sale_until IS NOT NULL)
    ELSE ${liveCheapestListing(now, sql`p.activity_id`)} END
  FROM activity_cheapest_listings p
  WHERE p.activity_id = ${activities.id}
)`
    .mapWith((json: string) => JSON.parse(json) as CheapestListing)
    .as('cheapest_listing');

const NAMES = ['nameEn', 'nameZhHant', 'nameZhHans'] as const;

/**
 * What a card shows, each column named uniquely so that card queries can go into a batch
 * (data/batch-columns.ts). Its category's names and its city's time zone come from the reference
 * tables the request already holds (services/catalogue/reference-data.ts), by id.
 */
const cardColumns = (now: Bound<number>) => ({
  activity: prefixed('activity', activities, ['id', 'poster', ...NAMES, 'startsAt', 'endsAt', 'status', 'categoryId', 'cityId']),
  venue: prefixed('venue', venues, NAMES),
  cheapest: cheapestListing(now),
});

export type CardRow = {
  activity: Pick<
    typeof activities.$inferSelect,
    'id' | 'poster' | (typeof NAMES)[number] | 'startsAt' | 'endsAt' | 'status' | 'categoryId' | 'cityId'
  >;
  venue: Pick<typeof venues.$inferSelect, (typeof NAMES)[number]>;
  cheapest: CheapestListing | null;
};

interface ReferenceById {
  categories: Map<number, CategoryRow>;
  cities: Map<number, CityRow>;
}

/** The reference tables by id, made once per loaded copy of them. */
const referenceById = new WeakMap<ReferenceData, ReferenceById>();

function byId(reference: ReferenceData): ReferenceById {
  let maps = referenceById.get(reference);
  if (!maps) {
    maps = {
      categories: new Map(reference.categories.map((row) => [row.id, row])),
      cities: new Map(reference.cities.map((row) => [row.id, row])),
    };
    referenceById.set(reference, maps);
  }
  return maps;
}

/** Shapes activity rows as cards in the request's locale and currency. */
export function toCards(scope: RequestScope, rows: CardRow[]): ActivityCard[] {
  const { ctx, currencies: currencyTable } = scope;
  const digits = currencyTable.get(ctx.currency)?.minorDigits ?? 2;
  const reference = byId(scope.reference);
  return rows.map(({ activity, venue, cheapest: listing }) => {
    // An activity's category and city are required references (db/schema.ts): both are in the tables.
    const category = reference.categories.get(activity.categoryId)!;
    const { timeZone } = reference.cities.get(activity.cityId)!;
    const soldOut = !listing?.inStock;
    const low = listing ? fromPriceOf({ amount: listing.price, currency: listing.currency }, ctx.currency, currencyTable) : null;
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

/**
 * Activities joined with what their cards show at `now`, the cheapest listing on sale included;
 * callers add the where, order and limit.
 */
export function cardQuery(db: Db, now: Bound<number>) {
  return db.select(cardColumns(now)).from(activities).innerJoin(venues, eq(venues.id, activities.venueId));
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

type HomeValues = { cityId: number; now: number };

/** The city's banners live at `now`: started, not ended, not retired (domain/storefront-schedule.ts). */
const homeBannersSelect = (db: Db, cityId: Bound<number>, now: Bound<number>) =>
  db
    .select({ poster: banners.poster, url: banners.url })
    .from(banners)
    .where(
      and(
        eq(banners.cityId, cityId),
        lte(banners.startsAt, now),
        or(isNull(banners.endsAt), gt(banners.endsAt, now)),
        isNull(banners.retiredAt),
      ),
    )
    .orderBy(asc(banners.sort));

// An unpublished activity (a draft) is no buyer's.
const upcomingInCity = ({ cityId, now }: { [K in keyof HomeValues]: Bound<number> }) =>
  and(eq(activities.cityId, cityId), gt(activities.endsAt, now), ne(activities.status, UNPUBLISHED_STATUS));

const homeRareSelect = (db: Db, values: { [K in keyof HomeValues]: Bound<number> }) =>
  cardQuery(db, values.now)
    .where(and(upcomingInCity(values), eq(activities.isRare, true)))
    .orderBy(asc(activities.startsAt))
    .limit(HOME_LIST_SIZE);

const homeCandidatesSelect = (db: Db, values: { [K in keyof HomeValues]: Bound<number> }) =>
  cardQuery(db, values.now)
    .where(upcomingInCity(values))
    .orderBy(desc(activities.isHot), asc(activities.startsAt))
    .limit(HOME_LIST_SIZE * 6);

// Read by every rendered home page; their card columns are the most SQL a page builds, so it is built once (data/compiled-select.ts).
const homeBannersStatement = compiledSelect<{ cityId: number; now: number }, ReturnType<typeof homeBannersSelect>>(
  ['cityId', 'now'],
  (db, { cityId, now }) => homeBannersSelect(db, cityId, now),
);
const homeRareStatement = compiledSelect<HomeValues, ReturnType<typeof homeRareSelect>>(['cityId', 'now'], homeRareSelect);
const homeCandidatesStatement = compiledSelect<HomeValues, ReturnType<typeof homeCandidatesSelect>>(
  ['cityId', 'now'],
  homeCandidatesSelect,
);

/** The home config of SPEC.md section 3, for the request's city (falling back to Hong Kong). */
export function homeConfigRead(scope: RequestScope, tkd: HomeConfig['tkd']): Read<HomeConfig> {
  const { db, ctx, now } = scope;
  const city = currentCity(scope, ctx.cityId);
  const values = { cityId: city.cityId, now };
  return read(
    {
      banners: homeBannersStatement(db, values),
      rare: homeRareStatement(db, values),
      candidates: homeCandidatesStatement(db, values),
    },
    ({ banners, rare, candidates }) => {
      // The candidates on sale below face value, deepest discount first; only the ones shown become cards.
      const discounted = candidates
        .map((row) => ({ row, fold: row.cheapest?.inStock ? discountFold(row.cheapest.price, row.cheapest.faceValue) : null }))
        .filter((candidate): candidate is typeof candidate & { fold: number } => candidate.fold !== null)
        .sort((a, b) => a.fold - b.fold)
        .slice(0, HOME_LIST_SIZE);
      return {
        banners,
        categories: listCategories(scope),
        rareActivities: toCards(scope, rare),
        discountActivities: toCards(
          scope,
          discounted.map((candidate) => candidate.row),
        ),
        tkd,
        currentCity: city,
      };
    },
  );
}

export const homeConfig = (scope: RequestScope, tkd: HomeConfig['tkd']) => readOne(scope.db, homeConfigRead(scope, tkd));

/**
 * Picks again the kept cheapest listing of activities whose pick's session has started (migration
 * 0027), whose cards run the live query until then. The answers do not change, only where they are read from.
 */
export async function repickStartedCheapestListings(db: Db, now: number): Promise<void> {
  await db.run(sql`
    INSERT OR REPLACE INTO activity_cheapest_listings
    SELECT * FROM activity_cheapest_listing_picks
    WHERE activity_id IN (SELECT activity_id FROM activity_cheapest_listings WHERE on_sale_until <= ${now})`);
}
