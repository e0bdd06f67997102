/**
 * What the header shows on every page: the current city and the cities of its picker, the
 * rotating hot search words, and the languages and currencies of its popup.
 */
import { asc } from 'drizzle-orm';
import { DEFAULT_CITY_ID, HOT_KEYWORDS_SHOWN } from '../config.ts';
import type { Db } from '../db/client.ts';
import { cities } from '../db/schema.ts';
import { localizedName, type Locale } from '../i18n/locales.ts';
import { listLanguages, type LanguageView } from '../services/catalogue.ts';
import { listCurrencies, type CurrencyView } from '../services/currency.ts';
import { listHotKeywords } from '../services/hot-keywords.ts';

/** A city as the picker lists it: only what it renders, to keep the island's props small. */
export interface PickerCity {
  id: number;
  name: string;
  letter: string;
}

export interface HeaderData {
  city: PickerCity;
  /** Every city, by first letter. */
  cities: PickerCity[];
  /** The hot cities, in their own order; only ids above 0 count (SPEC.md section 9). */
  hotCityIds: number[];
  hotWords: string[];
  languages: LanguageView[];
  currencies: CurrencyView[];
}

export async function headerData(db: Db, cityId: number, locale: Locale): Promise<HeaderData> {
  const [cityRows, keywords, languages, currencies] = await Promise.all([
    db.select().from(cities).orderBy(asc(cities.firstLetter), asc(cities.sort), asc(cities.nameEn)),
    listHotKeywords(db, locale),
    listLanguages(db),
    listCurrencies(db),
  ]);
  const pickerCities = cityRows.map((row) => ({ id: row.id, name: localizedName(row, locale), letter: row.firstLetter }));
  const hotCityIds = cityRows
    .filter((row) => row.isHotCity && row.id > 0)
    .sort((a, b) => a.sort - b.sort || a.id - b.id)
    .map((row) => row.id);
  const city = pickerCities.find((c) => c.id === cityId) ?? pickerCities.find((c) => c.id === DEFAULT_CITY_ID);
  if (!city) throw new Error('The default city is missing: seed the database');
  return {
    city,
    cities: pickerCities,
    hotCityIds,
    hotWords: keywords.slice(0, HOT_KEYWORDS_SHOWN).map((k) => k.keyword),
    languages,
    currencies,
  };
}
