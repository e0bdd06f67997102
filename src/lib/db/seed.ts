/**
 * The demo catalogue: a generated but believable marketplace (venues, artists on tour, sessions,
 * ticket tiers, seller listings, promotions) over the reference data the migrations insert
 * (reference-rows.ts: languages, currencies, places, categories).
 *
 * Everything is derived from one seeded PRNG and `referenceTime`, so a given day always yields the
 * same rows, and the random draws never depend on `referenceTime`: another day only moves the dates.
 * The module is pure (no I/O, no clock) so it runs in Node scripts and in workerd alike.
 */
import { createHash } from 'node:crypto';
import { getTableColumns } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import {
  activityDates,
  type ActivityDraft,
  activityProblems,
  activityRow as activityColumns,
  type DraftProblem,
  type SessionDraft,
  sessionProblems,
  sessionRow,
  type TierDraft,
  tierProblems,
  tierRow,
} from '../domain/catalogue-drafts.ts';
import { activities as activityTable, activitySessions, ticketTiers } from './schema.ts';
import { mulberry32 } from '../domain/random.ts';
import { posterPath } from '../domain/poster-images.ts';
import { DEFAULT_CITY_ID } from '../config/request.ts';
import { DELIVERY_TYPES, type DeliveryType } from '../domain/delivery.ts';
import {
  ARTISTS as ARTIST_DATA,
  CATEGORIES as CATEGORY_DATA,
  type Category as CategoryData,
  CITIES,
  type City,
  COUPONS,
  CURRENCIES,
  HOME,
  type Names,
  POP_UP_BOXES,
  SELLERS,
  TEXTS,
  TIER_LADDERS,
  type Tier,
  type Venue as VenueData,
  VENUES as VENUE_DATA,
} from './seed-data.ts';
import { insertStatements, type SqlRow as SeedRow, type SqlValue as SeedValue, type TableRows } from './insert-sql.ts';
import { isMainlandChina } from './reference-rows.ts';

export type SeedData = TableRows;

/** Tables in foreign-key order: every table comes after the tables it references (the reference tables come before all). */
export const SEED_TABLES: string[] = [
  'venues',
  'artists',
  'users',
  'activities',
  'activity_sessions',
  'ticket_tiers',
  'listings',
  'lotteries',
  'coupons',
  'hot_keywords',
  'banners',
  'pop_up_boxes',
];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PRNG_SEED = 0x5eed_2024;
/** Sessions fall between one day and this many days after the reference time. */
const HORIZON_DAYS = 180;
/** The home page lists shows of the next 15 days, so each city needs some starting that soon. */
const SOON_DAYS = 14;
const HONG_KONG_SOON_COUNT = 28;
const FIRST_ACTIVITY_ID = 1000;
const HOT_COUNT = { hongKong: 8, elsewhere: 22 };
const RARE_COUNT = { hongKong: 8, elsewhere: 22 };
const SOLD_OUT_COUNT = { hongKongSoon: 2, elsewhere: 6 };

// ---------------------------------------------------------------------------------------------
// Randomness

function makeRandom(seed: number) {
  const next = mulberry32(seed);
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const shuffle = <T>(items: readonly T[]): T[] => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  return {
    next,
    int,
    shuffle,
    chance: (probability: number): boolean => next() < probability,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    /** Draws `count` distinct items, each draw weighted by `weight`. */
    weightedSample: <T>(items: readonly T[], count: number, weight: (item: T) => number): T[] => {
      const pool = items.filter((item) => weight(item) > 0);
      const chosen: T[] = [];
      while (chosen.length < count && pool.length > 0) {
        let target = next() * pool.reduce((sum, item) => sum + weight(item), 0);
        const index = pool.findIndex((item) => {
          target -= weight(item);
          return target < 0;
        });
        chosen.push(pool.splice(index === -1 ? pool.length - 1 : index, 1)[0]);
      }
      return chosen;
    },
  };
}

type Random = ReturnType<typeof makeRandom>;

// ---------------------------------------------------------------------------------------------
// The catalogue's literal data is in seed-data/*.json (read and checked by seed-data.ts);
// here it gets its ids and the links between its parts.

const CURRENCY = new Map(CURRENCIES.map(({ code, minorDigits, topFace, step }) => [code, { minorUnit: 10 ** minorDigits, topFace, step }]));
const CURRENCY_CODES = CURRENCIES.map(({ code }) => code);

interface Venue extends VenueData {
  id: number;
}

const VENUES: Venue[] = VENUE_DATA.map((venue, index) => ({ id: index + 1, ...venue }));

interface Category extends Omit<CategoryData, 'ladder' | 'title'> {
  ladder: readonly Tier[];
  title: Names;
}

const CATEGORIES: Category[] = CATEGORY_DATA.map((category) => ({
  ...category,
  ladder: TIER_LADDERS[category.ladder],
  title: TEXTS.titles[category.title],
}));

const CATEGORY_BY_SLUG = new Map(CATEGORIES.map((category) => [category.slug, category]));

interface Artist {
  id: number;
  category: Category;
  names: Names;
  pinyin: string;
  shows: readonly Names[];
}

const ARTISTS: Artist[] = ARTIST_DATA.map(({ category: slug, names, pinyin, shows }, index) => {
  const category = CATEGORY_BY_SLUG.get(slug);
  if (!category) throw new Error(`Unknown category ${slug}`);
  return { id: index + 1, category, names, pinyin, shows };
});

/**
 * The demo sellers' shared password, so `npm run demo:fulfil` and the tests sign in as a seller
 * without an email code (codes are limited to one a minute per address). Only the local demo
 * database holds these accounts; production is never seeded.
 */
export const DEMO_SELLER_PASSWORD = 'DemoSeller2026';
/** PBKDF2-SHA256 of DEMO_SELLER_PASSWORD (100,000 iterations, this salt), checked by tests/unit/seed.test.ts. */
export const DEMO_SELLER_PASSWORD_HASH = {
  hash: 'HCOelArX9A0Q1WFCO1YZax1dFk3ipvTpcguwd-Rxv5M',
  salt: 'dGlja2V0d2luZy1kZW1vLQ',
  iterations: 100_000,
};

// ---------------------------------------------------------------------------------------------
// Generation

interface Session {
  startsAt: number;
  endsAt: number;
}

interface Activity {
  id: number;
  artist: Artist;
  show: Names;
  city: City;
  venue: Venue;
  soon: boolean;
  status: number;
  isHot: boolean;
  isRare: boolean;
  isSoldOut: boolean;
  realNameRequired: boolean;
  numMax: number;
  sessions: Session[];
  tiers: readonly Tier[];
  saleStartsAt: number;
  createdAt: number;
}

/** Fills `{name}` placeholders. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => values[key]);
}

/** Localized strings built from one template per script. */
function localize(templates: Names, parts: Record<string, Names>): Names {
  const script = (index: 0 | 1 | 2) =>
    fill(templates[index], Object.fromEntries(Object.entries(parts).map(([key, names]) => [key, names[index]])));
  return [script(0), script(1), script(2)];
}

/** Epoch ms of a local wall-clock time, `day` days after the reference UTC midnight. */
function localTime(referenceTime: number, city: City, day: number, minutesOfDay: number): number {
  return referenceTime + day * DAY + (minutesOfDay - city.utcOffset * 60) * MINUTE;
}

/** Each production tours 2–5 cities; Hong Kong is weighted heaviest. */
function planTourStops(rand: Random): { artist: Artist; show: Names; city: City }[] {
  const stops = ARTISTS.flatMap((artist) =>
    artist.shows.flatMap((show) => {
      const weight = (city: City) => (artist.category.slug === 'chinese-opera' && !city.hostsChineseOpera ? 0 : city.tourWeight);
      return rand.weightedSample(CITIES, rand.int(2, 5), weight).map((city) => ({ artist, show, city }));
    }),
  );
  return rand.shuffle(stops);
}

/** Picks a venue of a kind that suits the category, falling back to any venue in the city. */
function pickVenue(rand: Random, city: City, category: Category): Venue {
  const inCity = VENUES.filter((venue) => venue.cityId === city.id);
  const suitable = inCity.filter((venue) => category.venueKinds.includes(venue.kind));
  return rand.pick(suitable.length > 0 ? suitable : inCity);
}

/**
 * Chooses the first session day within [first, last], moving off nights the venue is already booked
 * (two shows in one hall on one night would look wrong), and books the chosen nights.
 */
function bookNights(booked: Set<string>, venue: Venue, offsets: number[], first: number, last: number, preferred: number): number {
  const span = last - first + 1;
  const isFree = (day: number) => offsets.every((offset) => !booked.has(`${venue.id}:${day + offset}`));
  let start = preferred;
  for (let step = 0; step < span; step++) {
    const day = first + ((preferred - first + step) % span);
    if (isFree(day)) {
      start = day;
      break;
    }
  }
  for (const offset of offsets) booked.add(`${venue.id}:${start + offset}`);
  return start;
}

function buildActivities(rand: Random, referenceTime: number): Activity[] {
  const stops = planTourStops(rand);
  const soonQuota = new Map(
    CITIES.map((city) => {
      const count = stops.filter((stop) => stop.city.id === city.id).length;
      return [city.id, city.id === DEFAULT_CITY_ID ? HONG_KONG_SOON_COUNT : Math.max(4, Math.ceil(count / 4))];
    }),
  );
  const booked = new Set<string>();

  return stops.map(({ artist, show, city }, index) => {
    const quota = soonQuota.get(city.id) ?? 0;
    const soon = quota > 0;
    soonQuota.set(city.id, quota - 1);

    const venue = pickVenue(rand, city, artist.category);
    const sessionCount = rand.pick([1, 1, 2, 2, 3, 4]);
    const gap = rand.pick([1, 1, 2, 7]);
    const offsets = Array.from({ length: sessionCount }, (_, i) => i * gap);
    const lastStart = HORIZON_DAYS - offsets[offsets.length - 1];
    // Later dates thin out, as a real calendar does.
    const preferred = soon ? rand.int(1, SOON_DAYS) : 1 + Math.floor(rand.next() ** 1.15 * lastStart);
    const firstDay = bookNights(booked, venue, offsets, 1, soon ? SOON_DAYS : lastStart, preferred);

    const minutesOfDay = rand.pick([19 * 60 + 30, 20 * 60]);
    const duration = rand.pick([120, 150, 180]) * MINUTE;
    const sessions = offsets.map((offset) => {
      const startsAt = localTime(referenceTime, city, firstDay + offset, minutesOfDay);
      return { startsAt, endsAt: startsAt + duration };
    });

    const statusDraw = rand.next();
    const status = !soon && firstDay > 40 && statusDraw < 0.3 ? 6 : statusDraw > 0.88 ? 4 : 1;
    const saleStartsAt =
      status === 6 ? localTime(referenceTime, city, rand.int(3, 25), 10 * 60) : localTime(referenceTime, city, -rand.int(7, 60), 10 * 60);
    // Not-yet-on-sale events are announced already, so every activity exists before the reference time.
    const createdAt = Math.min(saleStartsAt, referenceTime) - rand.int(5, 30) * DAY - rand.int(0, 1439) * MINUTE;

    const ladder = artist.category.ladder;
    const tierCount = rand.int(2, ladder.length);
    const tiers = rand
      .shuffle(ladder.map((_, i) => i))
      .slice(0, tierCount)
      .sort((a, b) => a - b)
      .map((i) => ladder[i]);

    return {
      id: FIRST_ACTIVITY_ID + index,
      artist,
      show,
      city,
      venue,
      soon,
      status,
      isHot: false,
      isRare: false,
      isSoldOut: false,
      realNameRequired: rand.chance(isMainlandChina(city) ? 0.3 : 0.02),
      numMax: rand.int(4, 8),
      sessions,
      tiers,
      saleStartsAt,
      createdAt,
    };
  });
}

/** Marks `hongKong` Hong Kong activities and `elsewhere` others, chosen at random. */
function markSome(
  rand: Random,
  activities: Activity[],
  counts: { hongKong: number; elsewhere: number },
  mark: (activity: Activity) => void,
): void {
  const inHongKong = activities.filter((activity) => activity.city.id === DEFAULT_CITY_ID);
  const elsewhere = activities.filter((activity) => activity.city.id !== DEFAULT_CITY_ID);
  rand.shuffle(inHongKong).slice(0, counts.hongKong).forEach(mark);
  rand.shuffle(elsewhere).slice(0, counts.elsewhere).forEach(mark);
}

function markHighlights(rand: Random, activities: Activity[]): void {
  markSome(rand, activities, HOT_COUNT, (activity) => (activity.isHot = true));
  markSome(rand, activities, RARE_COUNT, (activity) => (activity.isRare = true));
  // Sold-out cards need on-sale events; two starting soon in Hong Kong so the home page shows the tag.
  const onSale = activities.filter((activity) => activity.status === 1);
  const soonInHongKong = onSale.filter((activity) => activity.soon && activity.city.id === DEFAULT_CITY_ID);
  const others = onSale.filter((activity) => activity.city.id !== DEFAULT_CITY_ID);
  for (const activity of [
    ...rand.shuffle(soonInHongKong).slice(0, SOLD_OUT_COUNT.hongKongSoon),
    ...rand.shuffle(others).slice(0, SOLD_OUT_COUNT.elsewhere),
  ]) {
    activity.isSoldOut = true;
  }
}

/** Rounds a major-unit amount to the currency's price step and returns minor units. */
function toMinor(currency: string, major: number): number {
  const { minorUnit, step } = CURRENCY.get(currency)!;
  return Math.max(step, Math.round(major / step) * step) * minorUnit;
}

/** A comma-separated, never empty subset of the delivery types, in their canonical order. */
function pickDeliveryTypes(rand: Random): string {
  const odds: Record<DeliveryType, number> = { e_ticket: 0.7, on_site: 0.35, self_pickup: 0.3, courier: 0.4 };
  const chosen = DELIVERY_TYPES.filter((type) => rand.chance(odds[type]));
  return (chosen.length > 0 ? chosen : ['e_ticket']).join(',');
}

/** Resale price factor: about a quarter of listings undercut face value, rare events rarely do. */
function resaleFactor(rand: Random, activity: Activity): number {
  if (rand.chance(activity.isRare ? 0.08 : 0.28)) return 0.6 + rand.next() * 0.3;
  const premium = activity.isRare ? 0.3 + rand.next() * 1.1 : 0.1 + rand.next() ** 2 * 1.4;
  return 1 + premium;
}

function makeInviteCode(rand: Random, taken: Set<string>): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let code = '';
  while (code === '' || taken.has(code)) {
    code = Array.from({ length: 8 }, () => rand.pick([...alphabet])).join('');
  }
  taken.add(code);
  return code;
}

function buildUsers(rand: Random, referenceTime: number): SeedRow[] {
  const inviteCodes = new Set<string>();
  return SELLERS.map(({ nickname, cityId, language, currency }, index) => ({
    id: index + 1,
    phone_country_code: null,
    phone: null,
    email: `seller${index + 1}@demo.ticketwing.test`,
    nickname,
    password_hash: DEMO_SELLER_PASSWORD_HASH.hash,
    password_salt: DEMO_SELLER_PASSWORD_HASH.salt,
    password_iterations: DEMO_SELLER_PASSWORD_HASH.iterations,
    is_seller: 1,
    invite_code: makeInviteCode(rand, inviteCodes),
    invited_by: null,
    language_code: language,
    currency_code: currency,
    city_id: cityId,
    // Sellers predate every activity, so no listing is older than its seller.
    created_at: referenceTime - rand.int(400, 900) * DAY - rand.int(0, 1439) * MINUTE,
  }));
}

/** A row of `table` under its SQL column names, from the values under the schema's keys (booleans as 0 and 1). */
function sqlRow(table: SQLiteTable, values: Record<string, SeedValue>): SeedRow {
  const columns = getTableColumns(table);
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => {
      const column = columns[key];
      if (!column) throw new Error(`No column ${key}`);
      return [column.name, typeof value === 'boolean' ? Number(value) : value];
    }),
  );
}

/** The demo is made through the console's own rules: a row that breaks one fails here as it would there. */
function followingRules(what: string, problems: DraftProblem[]): void {
  if (problems.length > 0) throw new Error(`Seed ${what}: ${problems.map((problem) => `${problem.field} ${problem.code}`).join(', ')}`);
}

const names = ([en, zhHant, zhHans]: readonly [string, string, string] | readonly string[]) => ({ en, zhHant, zhHans });

function activityRow(rand: Random, activity: Activity): SeedRow {
  const { artist, show, city, venue } = activity;
  const category = artist.category;
  const parts = { artist: artist.names, show, city: city.names, venue: venue.names };
  const name = localize(category.title, parts);
  const about = localize(category.about, parts);
  const closing = activity.realNameRequired ? TEXTS.realNameLine : rand.pick(TEXTS.closingLines);
  const description = (index: 0 | 1 | 2) => `${about[index]}${index === 0 ? ' ' : ''}${closing[index]}`;
  const draft: ActivityDraft = {
    categoryId: category.id,
    cityId: city.id,
    venueId: venue.id,
    artistId: artist.id,
    // The demo's tickets are its sellers' listings.
    boxOfficeSellerId: null,
    names: names(name),
    descriptions: names([description(0), description(1), description(2)]),
    buyingNotes: names(['', '', '']),
    realNameRequired: activity.realNameRequired,
    poster: posterPath('activity', activity.id),
    saleStatus: activity.status,
    numMax: activity.numMax,
  };
  followingRules(`activity ${activity.id}`, activityProblems(draft));
  // Every demo activity is published, from the day it was announced.
  return sqlRow(activityTable, {
    id: activity.id,
    ...activityColumns(draft),
    status: activity.status,
    publishedAt: activity.createdAt,
    isHot: activity.isHot,
    isRare: activity.isRare,
    ...activityDates(activity.sessions.map(({ startsAt }) => ({ startsAt, onSaleAt: activity.saleStartsAt }))),
    createdAt: activity.createdAt,
  });
}

/** Sessions, their tiers and the sellers' listings for every activity. */
function buildInventory(rand: Random, activities: Activity[], referenceTime: number, sellerIds: number[]) {
  const sessions: SeedRow[] = [];
  const tiers: SeedRow[] = [];
  const listings: SeedRow[] = [];
  for (const activity of activities) {
    const { currency } = activity.city;
    const { topFace, minorUnit } = CURRENCY.get(currency)!;
    for (const session of activity.sessions) {
      const sessionId = sessions.length + 1;
      // On sale from the activity's sale start until the show begins, at the default cap per account (ACCOUNT_TICKET_CAP).
      const sessionDraft: SessionDraft = {
        startsAt: session.startsAt,
        endsAt: session.endsAt,
        onSaleAt: activity.saleStartsAt,
        offSaleAt: session.startsAt,
        accountTicketCap: null,
        highDemand: false,
      };
      followingRules(`session ${sessionId}`, sessionProblems(sessionDraft));
      sessions.push(
        sqlRow(activitySessions, {
          id: sessionId,
          activityId: activity.id,
          ...sessionRow(sessionDraft),
          status: 'scheduled',
          changedAt: null,
          originalStartsAt: null,
          refundUntil: null,
        }),
      );
      activity.tiers.forEach(({ names: tierNames, share }, sort) => {
        const tierId = tiers.length + 1;
        const faceValue = toMinor(currency, topFace * activity.artist.category.priceFactor * share);
        const listed = listings.length;
        for (const sellerId of rand.shuffle(sellerIds).slice(0, rand.int(2, 4))) {
          const quantityTotal = 1 + Math.floor(rand.next() ** 2 * 12);
          const quantityAvailable = activity.isSoldOut ? 0 : quantityTotal;
          listings.push({
            id: listings.length + 1,
            tier_id: tierId,
            seller_id: sellerId,
            price: toMinor(currency, (faceValue / minorUnit) * resaleFactor(rand, activity)),
            currency,
            quantity_total: quantityTotal,
            quantity_available: quantityAvailable,
            seating: rand.chance(0.7) ? 'together' : 'not_adjacent',
            delivery_types: pickDeliveryTypes(rand),
            status: quantityAvailable === 0 ? 'sold_out' : 'active',
            source_order_id: null,
            created_at: referenceTime - Math.floor(rand.next() * ((referenceTime - activity.createdAt) / MINUTE)) * MINUTE,
          });
        }
        // The tier's quota is the tickets its sellers list.
        const quota = listings.slice(listed).reduce((sum, listing) => sum + (listing.quantity_total as number), 0);
        const tierDraft: TierDraft = { names: names(tierNames), faceValue, currency, quota, sort: sort + 1 };
        followingRules(`tier ${tierId}`, tierProblems(tierDraft, { currencies: CURRENCY_CODES, sold: 0 }));
        tiers.push(sqlRow(ticketTiers, { id: tierId, sessionId, ...tierRow(tierDraft), highDemand: false }));
      });
    }
  }
  return { sessions, tiers, listings };
}

/**
 * The demo's hot on-sale: the first session of the Hong Kong show whose sale opens
 * soonest, so its waiting room shows the early group until the opening and the line after it. A show
 * not yet on sale, so that no journey buying on-sale tickets meets its waiting room.
 */
function markHighDemand(activities: Activity[], sessions: SeedRow[]): void {
  const [hot] = activities
    .filter((activity) => activity.city.id === DEFAULT_CITY_ID && activity.status === 6 && !activity.isSoldOut)
    .sort((a, b) => a.saleStartsAt - b.saleStartsAt || a.id - b.id);
  if (!hot) return;
  const session = sessions.find((row) => row.activity_id === hot.id);
  if (session) session.high_demand = 1;
}

function buildCoupons(referenceTime: number): SeedRow[] {
  const validFrom = referenceTime - 90 * DAY;
  const validTo = referenceTime + 90 * DAY;
  return COUPONS.map(
    (
      { code, names: [en, hant, hans], kind, foldTenths, amount, currency, minSpend, newUserOnly, bundleCount, purpose, categoryId },
      index,
    ) => ({
      id: index + 1,
      code,
      name_en: en,
      name_zh_hant: hant,
      name_zh_hans: hans,
      kind,
      fold_tenths: foldTenths,
      amount,
      currency,
      min_spend: minSpend,
      new_user_only: newUserOnly ? 1 : 0,
      bundle_count: bundleCount,
      valid_from: validFrom,
      valid_to: validTo,
      purpose,
      category_id: categoryId,
    }),
  );
}

function buildHotKeywords(): SeedRow[] {
  const locales = ['en', 'zh-Hant', 'zh-Hans'] as const;
  return locales.flatMap((locale, script) =>
    HOME.hotKeywordArtistIds.map((artistId, index) => {
      const artist = ARTISTS[artistId - 1];
      return {
        id: script * HOME.hotKeywordArtistIds.length + index + 1,
        locale,
        keyword: artist.names[script],
        landing_page_type: 1,
        landing_page_params: '',
        content: localize(TEXTS.hotKeywordContent, { show: artist.shows[0] })[script],
        sort: index + 1,
        // Live from the start, never ending, until an editor schedules or retires them.
        starts_at: 0,
        ends_at: null,
        retired_at: null,
      };
    }),
  );
}

/** Banners feature each city's hot activities first. */
function buildBanners(activities: Activity[]): SeedRow[] {
  return HOME.bannerCounts
    .flatMap(({ cityId, count }) =>
      activities
        .filter((activity) => activity.city.id === cityId)
        .sort((a, b) => Number(b.isHot) - Number(a.isHot) || a.id - b.id)
        .slice(0, count)
        .map((activity, sort) => ({ activityId: activity.id, cityId, sort: sort + 1 })),
    )
    .map(({ activityId, cityId, sort }, index) => ({
      id: index + 1,
      city_id: cityId,
      activity_id: activityId,
      poster: posterPath('banner', activityId),
      url: `/activity/${activityId}`,
      sort,
      starts_at: 0,
      ends_at: null,
      retired_at: null,
    }));
}

function buildPopUpBoxes(referenceTime: number): SeedRow[] {
  return POP_UP_BOXES.map((content, index) => ({
    id: index + 1,
    scene_type: 'HOME',
    content: JSON.stringify(content),
    currency: 'HKD',
    valid_from: referenceTime - 30 * DAY,
    valid_to: referenceTime + 60 * DAY,
    retired_at: null,
  }));
}

/** The demo lotteries: prizes, codes allowed per entry, and the day of the draw after the reference time. */
const LOTTERY_PLANS = [
  { prizeCount: 3, ticketsPerPrize: 2, maxCodesPerEntry: 5, drawDay: 3 },
  { prizeCount: 2, ticketsPerPrize: 1, maxCodesPerEntry: 5, drawDay: 5 },
  { prizeCount: 5, ticketsPerPrize: 1, maxCodesPerEntry: 10, drawDay: 7 },
] as const;
/** A lottery draws at least this long before its show, so the winners' tickets can still be issued. */
const LOTTERY_LEAD_DAYS = 5;

/**
 * Free-ticket lotteries on upcoming Hong Kong shows on sale, each on a tier whose e-ticket listings
 * hold every prize. The draw seed comes from the demo PRNG (demo data only: a real lottery's seed
 * must come from crypto.getRandomValues); only its SHA-256 is published before the draw.
 */
function buildLotteries(
  rand: Random,
  activities: Activity[],
  inventory: ReturnType<typeof buildInventory>,
  referenceTime: number,
): SeedRow[] {
  const tiersOf = (sessionId: number) => inventory.tiers.filter((tier) => tier.session_id === sessionId);
  const prizeStock = (tierId: number) =>
    inventory.listings
      .filter(
        (listing) =>
          listing.tier_id === tierId && listing.status === 'active' && String(listing.delivery_types).split(',').includes('e_ticket'),
      )
      .reduce((sum, listing) => sum + (listing.quantity_available as number), 0);
  const candidates = activities.filter(
    (activity) =>
      activity.city.id === DEFAULT_CITY_ID &&
      activity.status === 1 &&
      !activity.isSoldOut &&
      !activity.realNameRequired &&
      activity.saleStartsAt <= referenceTime &&
      activity.sessions[0].startsAt > referenceTime + (LOTTERY_PLANS[2].drawDay + LOTTERY_LEAD_DAYS) * DAY,
  );
  const rows: SeedRow[] = [];
  for (const activity of candidates) {
    const plan = LOTTERY_PLANS[rows.length];
    if (!plan) break;
    const session = inventory.sessions.find((row) => row.activity_id === activity.id)!;
    const tier = tiersOf(session.id as number).find((row) => prizeStock(row.id as number) >= plan.prizeCount * plan.ticketsPerPrize);
    if (!tier) continue;
    const seed = Array.from({ length: 32 }, () => rand.int(0, 255).toString(16).padStart(2, '0')).join('');
    rows.push({
      id: rows.length + 1,
      activity_id: activity.id,
      tier_id: tier.id,
      prize_count: plan.prizeCount,
      max_codes_per_entry: plan.maxCodesPerEntry,
      draw_at: referenceTime + plan.drawDay * DAY + 12 * HOUR,
      seed_commitment: createHash('sha256').update(seed, 'utf8').digest('hex'),
      seed,
      status: 'open',
      tickets_per_prize: plan.ticketsPerPrize,
      drawn_at: null,
      // Entries open at once and close at the draw.
      entry_opens_at: 0,
      entry_closes_at: null,
      retired_at: null,
    });
  }
  return rows;
}

/** The whole demo catalogue for a reference time (epoch ms, UTC midnight of the day to seed for). */
export function buildSeed(referenceTime: number): SeedData {
  const rand = makeRandom(PRNG_SEED);
  const users = buildUsers(rand, referenceTime);
  const activities = buildActivities(rand, referenceTime);
  markHighlights(rand, activities);
  const activityRows = activities.map((activity) => activityRow(rand, activity));
  const inventory = buildInventory(
    rand,
    activities,
    referenceTime,
    users.map((user) => user.id as number),
  );
  markHighDemand(activities, inventory.sessions);

  return {
    venues: VENUES.map((venue) => ({
      id: venue.id,
      city_id: venue.cityId,
      name_en: venue.names[0],
      name_zh_hant: venue.names[1],
      name_zh_hans: venue.names[2],
      address_en: venue.addressEn,
      address_zh: venue.addressZh,
      longitude: venue.longitude,
      latitude: venue.latitude,
      // The link is made from the coordinates (domain/venue.ts).
      map_url: null,
    })),
    artists: ARTISTS.map((artist) => ({
      id: artist.id,
      name_en: artist.names[0],
      name_zh_hant: artist.names[1],
      name_zh_hans: artist.names[2],
      pinyin: artist.pinyin,
    })),
    users,
    activities: activityRows,
    activity_sessions: inventory.sessions,
    ticket_tiers: inventory.tiers,
    listings: inventory.listings,
    lotteries: buildLotteries(rand, activities, inventory, referenceTime),
    coupons: buildCoupons(referenceTime),
    hot_keywords: buildHotKeywords(),
    banners: buildBanners(activities),
    pop_up_boxes: buildPopUpBoxes(referenceTime),
  };
}

// ---------------------------------------------------------------------------------------------
// SQL

/** Multi-row INSERT statements for `data`, tables in foreign-key order; plain SQL that D1 accepts. */
export function seedStatements(data: SeedData): string[] {
  return insertStatements(data, SEED_TABLES);
}
