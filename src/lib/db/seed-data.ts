/**
 * The demo catalogue's literal data (seed-data/*.json), checked and typed for the generator in
 * seed.ts: places, categories, venues, artists and their productions, sellers, coupons, the home
 * page's promotions and the texts activity names and descriptions are written from.
 * A malformed or dangling entry fails here, when the seed module loads, rather than as a broken row.
 */
import { z } from 'zod';
import artistsJson from './seed-data/artists.json' with { type: 'json' };
import categoriesJson from './seed-data/categories.json' with { type: 'json' };
import citiesJson from './seed-data/cities.json' with { type: 'json' };
import countriesJson from './seed-data/countries.json' with { type: 'json' };
import couponsJson from './seed-data/coupons.json' with { type: 'json' };
import currenciesJson from './seed-data/currencies.json' with { type: 'json' };
import homeJson from './seed-data/home.json' with { type: 'json' };
import languagesJson from './seed-data/languages.json' with { type: 'json' };
import popUpBoxesJson from './seed-data/pop-up-boxes.json' with { type: 'json' };
import sellersJson from './seed-data/sellers.json' with { type: 'json' };
import textsJson from './seed-data/texts.json' with { type: 'json' };
import tierLaddersJson from './seed-data/tier-ladders.json' with { type: 'json' };
import venuesJson from './seed-data/venues.json' with { type: 'json' };

/** One text in English, Traditional Chinese and Simplified Chinese, in that order. */
const names = z.tuple([z.string().min(1), z.string().min(1), z.string().min(1)]);
export type Names = z.infer<typeof names>;

const venueKind = z.enum(['arena', 'stadium', 'theatre', 'hall']);
export type VenueKind = z.infer<typeof venueKind>;

const language = z.object({ code: z.string(), name: z.string() });

/**
 * `perHkdMicros`: quote units one HKD buys (× 1e6); `topFace`: the top face value of a headline
 * concert, and `step`: the step prices round to, both in major units.
 */
const currency = z.object({
  code: z.string().length(3),
  description: z.string(),
  currencyType: z.number().int(),
  minorDigits: z.number().int().min(0),
  perHkdMicros: z.number().int().positive(),
  topFace: z.number().positive(),
  step: z.number().positive(),
});

const country = z.object({ id: z.number().int(), code: z.string().length(2), callingCode: z.string(), names });

/** `utcOffset`: hours ahead of UTC (none of these zones observes daylight saving); `tourWeight`: relative chance a touring production stops here. */
const city = z.object({
  id: z.number().int(),
  countryId: z.number().int(),
  names,
  code: z.string(),
  timeZone: z.string(),
  utcOffset: z.number(),
  currency: z.string(),
  longitude: z.number(),
  latitude: z.number(),
  isHot: z.boolean(),
  tourWeight: z.number().positive(),
  /** Chinese-opera troupes tour where audiences read Chinese surtitles. */
  hostsChineseOpera: z.boolean(),
});

/** `addressZh` is in Traditional script for Hong Kong, Macao and Taiwan, Simplified elsewhere, as locals write it. */
const venue = z.object({
  cityId: z.number().int(),
  kind: venueKind,
  names,
  addressEn: z.string(),
  addressZh: z.string(),
  longitude: z.number(),
  latitude: z.number(),
});

/** A tier's names and its share of the category's top face value; a ladder lists them most expensive first. */
const tier = z.object({ names, share: z.number().positive().max(1) });
export type Tier = z.infer<typeof tier>;

/** `priceFactor`: top face value relative to a headline concert; `title` names the template in texts.json. */
const category = z.object({
  id: z.number().int(),
  slug: z.string(),
  names,
  pinyin: z.string(),
  venueKinds: z.array(venueKind).min(1),
  ladder: z.string(),
  priceFactor: z.number().positive(),
  title: z.enum(['tour', 'show']),
  about: names,
});

/** `pinyin` of the Chinese name, empty when it has none; `shows`: the artist's productions. */
const artist = z.object({ category: z.string(), names, pinyin: z.string(), shows: z.array(names).min(1) });

const seller = z.object({ nickname: z.string(), cityId: z.number().int(), language: z.string(), currency: z.string() });

/** Amounts and minimum spends in minor units; `foldTenths` is a rate coupon's price in tenths (90 = 10% off). */
const coupon = z.object({
  code: z.string(),
  names,
  kind: z.enum(['amount', 'rate']),
  foldTenths: z.number().int().nullable(),
  amount: z.number().int().nullable(),
  currency: z.string().nullable(),
  minSpend: z.number().int(),
  newUserOnly: z.boolean(),
  bundleCount: z.number().int().positive(),
  purpose: z.enum(['general', 'invitee', 'inviter']),
  categoryId: z.number().int().nullable(),
});

const scriptTexts = z.object({ en: z.string(), 'zh-Hant': z.string(), 'zh-Hans': z.string() });
const popUpBox = z.object({ title: scriptTexts, body: scriptTexts, link: z.string() });

/** Templates filled with `{artist}`, `{show}`, `{city}` and `{venue}` names. */
const texts = z.object({
  titles: z.object({ tour: names, show: names }),
  /** One drawn per activity so descriptions do not all read alike. */
  closingLines: z.array(names).min(1),
  realNameLine: names,
  hotKeywordContent: names,
});

/** `hotKeywordArtistIds`: artists offered as hot search words, in display order; `bannerCounts`: home-page banners per city. */
const home = z.object({
  hotKeywordArtistIds: z.array(z.number().int().positive()),
  bannerCounts: z.array(z.object({ cityId: z.number().int(), count: z.number().int().positive() })),
});

export const LANGUAGES = z.array(language).parse(languagesJson);
export const CURRENCIES = z.array(currency).parse(currenciesJson);
export const COUNTRIES = z.array(country).parse(countriesJson);
export const CITIES = z.array(city).parse(citiesJson);
export const VENUES = z.array(venue).parse(venuesJson);
export const TIER_LADDERS = z.record(z.string(), z.array(tier).min(1)).parse(tierLaddersJson);
export const CATEGORIES = z.array(category).parse(categoriesJson);
export const ARTISTS = z.array(artist).parse(artistsJson);
export const SELLERS = z.array(seller).parse(sellersJson);
export const COUPONS = z.array(coupon).parse(couponsJson);
export const POP_UP_BOXES = z.array(popUpBox).parse(popUpBoxesJson);
export const TEXTS = texts.parse(textsJson);
export const HOME = home.parse(homeJson);

export type City = z.infer<typeof city>;
export type Venue = z.infer<typeof venue>;
export type Category = z.infer<typeof category>;

/** Throws when a reference names nothing in the data it points into. */
function expectKnown(kind: string, known: Iterable<string | number>, references: (string | number | null)[]): void {
  const set = new Set(known);
  const unknown = references.filter((reference) => reference !== null && !set.has(reference));
  if (unknown.length > 0) throw new Error(`Seed data names unknown ${kind}: ${unknown.join(', ')}`);
}

const currencyCodes = CURRENCIES.map((row) => row.code);
const cityIds = CITIES.map((row) => row.id);
expectKnown(
  'countries',
  COUNTRIES.map((row) => row.id),
  CITIES.map((row) => row.countryId),
);
expectKnown(
  'currencies',
  currencyCodes,
  [...CITIES, ...SELLERS, ...COUPONS].map((row) => row.currency),
);
expectKnown(
  'cities',
  cityIds,
  [...VENUES, ...SELLERS, ...HOME.bannerCounts].map((row) => row.cityId),
);
expectKnown(
  'tier ladders',
  Object.keys(TIER_LADDERS),
  CATEGORIES.map((row) => row.ladder),
);
expectKnown(
  'categories',
  CATEGORIES.map((row) => row.slug),
  ARTISTS.map((row) => row.category),
);
expectKnown(
  'categories',
  CATEGORIES.map((row) => row.id),
  COUPONS.map((row) => row.categoryId),
);
expectKnown(
  'languages',
  LANGUAGES.map((row) => row.code),
  SELLERS.map((row) => row.language),
);
expectKnown(
  'artists',
  ARTISTS.map((_, index) => index + 1),
  HOME.hotKeywordArtistIds,
);
