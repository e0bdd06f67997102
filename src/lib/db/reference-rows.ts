/**
 * The reference data a deployment needs before it sells anything: languages, currencies with their
 * first exchange rates, countries, cities (the default city among them) and categories, from
 * seed-data/*.json. Migration 0036 inserts these rows (its SQL printed by scripts/reference-data-sql.ts),
 * so a production database has them with its schema; the demo seed adds its catalogue on top.
 * tests/api/reference-data.test.ts holds a migrated database's reference tables to these rows.
 */
import { DEFAULT_CITY_ID } from '../config/request.ts';
import { insertStatements, type TableRows } from './insert-sql.ts';
import { CATEGORIES, CITIES, type City, COUNTRIES, CURRENCIES, LANGUAGES } from './seed-data.ts';

/** The reference tables in foreign-key order. */
export const REFERENCE_TABLES = ['languages', 'currencies', 'fx_rates', 'countries', 'cities', 'categories'];

/** When the first exchange rates were written (the migration's day): their age counts from here until the first refresh. */
export const FIRST_RATES_AT = Date.UTC(2026, 10, 29);

const MAINLAND_CHINA_ID = 4;

export const isMainlandChina = (city: City): boolean => city.countryId === MAINLAND_CHINA_ID;

if (!CITIES.some((city) => city.id === DEFAULT_CITY_ID)) throw new Error(`The reference cities lack the default city ${DEFAULT_CITY_ID}`);

/** The reference tables' rows. */
export function buildReferenceRows(): TableRows {
  return {
    languages: LANGUAGES.map(({ code, name }, index) => ({ id: index + 1, code, name, language_type: index + 1, sort: index + 1 })),
    currencies: CURRENCIES.map(({ code, description, currencyType, minorDigits }, index) => ({
      code,
      desc: description,
      currency_type: currencyType,
      minor_digits: minorDigits,
      sort: index + 1,
    })),
    fx_rates: CURRENCIES.map(({ code, perHkdMicros }) => ({
      quote: code,
      per_hkd_micros: perHkdMicros,
      updated_at: FIRST_RATES_AT,
      source: 'seed',
      fetched_at: null,
      pinned_by: null,
      pinned_at: null,
    })),
    countries: COUNTRIES.map(({ id, code, callingCode, names: [en, hant, hans] }) => ({
      id,
      code,
      calling_code: callingCode,
      name_en: en,
      name_zh_hant: hant,
      name_zh_hans: hans,
    })),
    cities: CITIES.map((city, index) => ({
      id: city.id,
      country_id: city.countryId,
      name_en: city.names[0],
      name_zh_hant: city.names[1],
      name_zh_hans: city.names[2],
      first_letter: city.names[0][0].toUpperCase(),
      is_hot_city: city.isHot ? 1 : 0,
      is_china: isMainlandChina(city) ? 1 : 0,
      city_code: city.code,
      time_zone: city.timeZone,
      longitude: city.longitude,
      latitude: city.latitude,
      sort: index + 1,
    })),
    categories: CATEGORIES.map((category) => ({
      id: category.id,
      slug: category.slug,
      name_en: category.names[0],
      name_zh_hant: category.names[1],
      name_zh_hans: category.names[2],
      pinyin: category.pinyin,
      sort: category.id,
    })),
  };
}

/**
 * A migration's SQL inserting the reference rows. `INSERT OR IGNORE`: a local database the demo seed
 * stocked before the reference data was a migration already has these rows, and keeps them.
 */
export function referenceDataSql(): string {
  const header = [
    '-- The reference data every deployment needs (languages, currencies and their first exchange rates,',
    '-- countries, cities, categories), apart from the demo catalogue: the rows of src/lib/db/seed-data/*.json,',
    '-- as `node scripts/reference-data-sql.ts` printed them.',
  ];
  const statements = insertStatements(buildReferenceRows(), REFERENCE_TABLES, 'INSERT OR IGNORE');
  return `${header.join('\n')}\n${statements.join('\n--> statement-breakpoint\n')}\n`;
}
