/**
 * What the header's two dialogs offer, in one locale: the cities of the picker, the languages and
 * currencies of the preferences. The same for every visitor; read from the reference tables in memory.
 */
import { isLocale, type Locale, localizedName } from '../../i18n/locales.ts';
import { currenciesIn, type CurrencyView, type ReferenceData } from './reference-data.ts';

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

export interface HeaderChoices {
  /** Every city, by first letter. */
  cities: PickerCity[];
  /** The hot cities, in their own order; only ids above 0 count (SPEC.md section 9). */
  hotCityIds: number[];
  languages: PickerLanguage[];
  /** Each named in the locale. */
  currencies: CurrencyView[];
}

export const pickerCities = (reference: ReferenceData, locale: Locale): PickerCity[] =>
  reference.cities.map((row) => ({ id: row.id, name: localizedName(row, locale), letter: row.firstLetter }));

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
