/**
 * What the header shows on every page: the current city and the cities of its picker, the
 * rotating hot search words, and the languages and currencies of its popup.
 */
import { DEFAULT_CITY_ID, HOT_KEYWORDS_SHOWN } from '../config.ts';
import { localizedName } from '../i18n/locales.ts';
import { listHotKeywords } from '../services/hot-keywords.ts';
import { currenciesIn, type CurrencyView, type LanguageView } from '../services/reference-data.ts';
import type { RequestScope } from '../services/scope.ts';

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

/** Reads nothing: the reference tables in the scope hold all of it. */
export function headerData(scope: RequestScope): HeaderData {
  const { cityId, locale } = scope.ctx;
  const { cities: cityRows, languages } = scope.reference;
  const keywords = listHotKeywords(scope.reference, locale);
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
    // The popup names each currency in the page's language.
    currencies: currenciesIn(scope.reference, locale),
  };
}
