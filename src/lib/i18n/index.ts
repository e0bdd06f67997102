/**
 * Server-side translation: one i18next instance holding the three catalogues, initialised
 * synchronously at module load (resources are bundled, nothing is fetched).
 */
import i18next, { type TFunction } from 'i18next';
import { currencyName, intlCurrencyNamer, type CurrencyNamer } from '../domain/currency-names.ts';
import { catalogueOf, type Catalogue, type Locale } from './locales.ts';

import type { Messages } from './messages.ts';

/**
 * Each catalogue is one folder of JSON files, one file per feature (common.json, accounts.json...),
 * merged into one flat key space. Keys are prefixed by feature, so files never collide.
 */
const files = import.meta.glob<Messages>('./locales/*/*.json', { eager: true, import: 'default' });

function merge(catalogue: Catalogue): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [file, messages] of Object.entries(files)) {
    if (file.startsWith(`./locales/${catalogue}/`)) Object.assign(merged, messages);
  }
  return merged;
}

export const catalogues: Record<Catalogue, Record<string, string>> = {
  en: merge('en'),
  'zh-Hant': merge('zh-Hant'),
  'zh-Hans': merge('zh-Hans'),
};
export type { MessageKey } from './keys.ts';
import type { MessageKey } from './keys.ts';

const i18n = i18next.createInstance();
i18n.init({
  initAsync: false,
  resources: {
    en: { translation: catalogues.en },
    'zh-Hant': { translation: catalogues['zh-Hant'] },
    'zh-Hans': { translation: catalogues['zh-Hans'] },
  },
  lng: 'en',
  fallbackLng: 'en',
  keySeparator: false,
  nsSeparator: false,
  // Astro and React escape on output; escaping here too would double-escape.
  interpolation: { escapeValue: false },
});

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** The translate function of a locale. */
export function translator(locale: Locale): Translate {
  const fixed: TFunction = i18n.getFixedT(catalogueOf(locale));
  return (key, params) => fixed(key, params ?? {}) as string;
}

/** The messages of a locale whose keys start with one of the prefixes: what an island needs. */
export function messagesFor(locale: Locale, prefixes: readonly string[]): Messages {
  const catalogue = catalogues[catalogueOf(locale)];
  return Object.fromEntries(Object.entries(catalogue).filter(([key]) => prefixes.some((prefix) => key.startsWith(prefix))));
}

/**
 * A currency's name in a locale (domain/currency-names.ts): the runtime's, else the catalogue's
 * `currency.name.<code>`, else `description` (the currency table's English one).
 */
export function currencyNameIn(locale: Locale, code: string, description: string, namer: CurrencyNamer = intlCurrencyNamer): string {
  return currencyName(code, locale, catalogues[catalogueOf(locale)][`currency.name.${code}`] ?? description, namer);
}
