/**
 * The language and currency the user chose (SPEC.md section 3: local storage keys language,
 * currencyCode, languageList). Confirming the popup follows SPEC.md section 4: forget the location
 * city, save the currency on the server, then the language; the caller switches the URL prefix.
 */
import { api, unwrap } from './api-client.ts';
import { currencyToSave } from '../domain/preferences.ts';
import { forgetLocationCity } from './city.ts';

const LANGUAGE_KEY = 'language';
const CURRENCY_KEY = 'currencyCode';
const LANGUAGE_LIST_KEY = 'languageList';

export interface LanguageOption {
  id: number;
  code: string;
  name: string;
}

export interface CurrencyOption {
  code: string;
  desc: string;
  currencyType: number;
}

/** Keeps the language list the popup offers, as the spec's clients do. */
export function rememberLanguageList(languages: readonly LanguageOption[]): void {
  localStorage.setItem(LANGUAGE_LIST_KEY, JSON.stringify(languages));
}

/**
 * Applies the popup's choice. The server sets the `currencyCode` and `language` cookies that pages
 * render with; `shownCurrency` is the currency the page was rendered in.
 */
export async function confirmPreferences(language: LanguageOption, currency: CurrencyOption, shownCurrency: string): Promise<void> {
  forgetLocationCity();
  const code = currencyToSave(currency.code, shownCurrency, localStorage.getItem(CURRENCY_KEY));
  if (code !== null) {
    await unwrap(api.v1.currency.save.$post({ json: { currencyType: currency.currencyType } }));
    localStorage.setItem(CURRENCY_KEY, code);
  }
  await unwrap(api.v1.user.language.save.$post({ json: { languageId: language.id } }));
  localStorage.setItem(LANGUAGE_KEY, language.code);
}
