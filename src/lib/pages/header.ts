/**
 * What the header shows on every page: the current city and the rotating hot search words. The
 * lists its two dialogs offer (cities, languages, currencies) are not in the page: they load when a
 * dialog first opens (headerChoices, served by GET /api/v1/header/choices).
 */
import { DEFAULT_CITY_ID, HOT_KEYWORDS_SHOWN } from '../config.ts';
import { isLocale, localizedName } from '../i18n/locales.ts';
import { listHotKeywords } from '../services/hot-keywords.ts';
import { currenciesIn, type CurrencyView, type ReferenceData } from '../services/reference-data.ts';
import type { RequestScope } from '../services/scope.ts';
import type { Locale } from '../i18n/locales.ts';

/** A city as the picker lists it: only what it renders, to keep the dialog's data small. */
export interface PickerCity {
  id: number;
  name: string;
  letter: string;
}

/** A language the preferences dialog offers: only those the storefront is translated into. */
export interface PickerLanguage {
  id: number;
  code: string;
  name: string;
}

export interface HeaderData {
  city: PickerCity;
  hotWords: string[];
}

/** The lists of the header's dialogs, in one locale: the same for every visitor. */
export interface HeaderChoices {
  /** Every city, by first letter. */
  cities: PickerCity[];
  /** The hot cities, in their own order; only ids above 0 count (SPEC.md section 9). */
  hotCityIds: number[];
  languages: PickerLanguage[];
  /** Each named in the locale. */
  currencies: CurrencyView[];
}

const pickerCities = (reference: ReferenceData, locale: Locale): PickerCity[] =>
  reference.cities.map((row) => ({ id: row.id, name: localizedName(row, locale), letter: row.firstLetter }));

/** Reads nothing: the reference tables in the scope hold all of it. */
export function headerData(scope: RequestScope): HeaderData {
  const { cityId, locale } = scope.ctx;
  const cities = pickerCities(scope.reference, locale);
  const city = cities.find((c) => c.id === cityId) ?? cities.find((c) => c.id === DEFAULT_CITY_ID);
  if (!city) throw new Error('The default city is missing: seed the database');
  return {
    city,
    hotWords: listHotKeywords(scope.reference, locale)
      .slice(0, HOT_KEYWORDS_SHOWN)
      .map((k) => k.keyword),
  };
}

/** Reads nothing either; depends on the locale alone, so its answer can be cached. */
export function headerChoices(reference: ReferenceData, locale: Locale): HeaderChoices {
  return {
    cities: pickerCities(reference, locale),
    hotCityIds: reference.cities
      .filter((row) => row.isHotCity && row.id > 0)
      .sort((a, b) => a.sort - b.sort || a.id - b.id)
      .map((row) => row.id),
    languages: reference.languages.filter((language) => isLocale(language.code)).map(({ id, code, name }) => ({ id, code, name })),
    currencies: currenciesIn(reference, locale),
  };
}
