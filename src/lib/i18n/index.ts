/**
 * Server-side translation: one i18next instance holding the three catalogues, initialised
 * synchronously at module load (resources are bundled, nothing is fetched).
 */
import i18next, { type TFunction } from 'i18next';
import { currencyName, intlCurrencyNamer, type CurrencyNamer } from './currency-names.ts';
import { catalogueOf, type Catalogue, type Locale } from './locales.ts';

import { type Messages, pluralCategory } from './messages.ts';

/**
 * Each catalogue is one folder of JSON files, one file per feature (common.json, auth.json, orders.json...),
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

/** A message i18next would answer unchanged when given no parameters: no placeholder, no nested `$t(...)`. */
const PLAIN_MESSAGE = /^(?:(?!\{\{|\$t\().)*$/s;

function plainMessages(catalogue: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(catalogue).filter(([, message]) => PLAIN_MESSAGE.test(message)));
}

/** Per catalogue, its messages that need no i18next: a page asks for most texts without parameters, many times over. */
const plain: Record<Catalogue, Map<string, string>> = {
  en: plainMessages(catalogues.en),
  'zh-Hant': plainMessages(catalogues['zh-Hant']),
  'zh-Hans': plainMessages(catalogues['zh-Hans']),
};

/** A placeholder as the catalogues write them: `{{name}}`. */
const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;
/** A message whose only markup is such placeholders: no nested `$t(...)`, no `{{value, format}}`. */
const PLACEHOLDERS_ONLY = /^(?:(?!\{\{|\$t\().|\{\{\s*\w+\s*\}\})*$/s;

function placeholderMessages(catalogue: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(catalogue).filter(([, message]) => message.includes('{{') && PLACEHOLDERS_ONLY.test(message)));
}

/** Per catalogue, its messages with placeholders that can be filled without i18next (most texts with parameters). */
const withPlaceholders: Record<Catalogue, Map<string, string>> = {
  en: placeholderMessages(catalogues.en),
  'zh-Hant': placeholderMessages(catalogues['zh-Hant']),
  'zh-Hans': placeholderMessages(catalogues['zh-Hans']),
};

/**
 * The message i18next would pick for the parameters, or undefined when i18next must pick it: a
 * `count` takes the plural form Intl.PluralRules names for the catalogue (as i18next does), unless
 * the key has a `_zero` form (i18next's own rule for 0) or lacks that form; `context` picks keys
 * of its own.
 */
function messageFor(catalogue: Catalogue, key: string, params: Record<string, string | number>): string | undefined {
  const own = (name: string) => withPlaceholders[catalogue].get(name) ?? plain[catalogue].get(name);
  if ('context' in params) return undefined;
  if (!('count' in params)) return own(key);
  const { count } = params;
  if (typeof count !== 'number' || own(`${key}_zero`) !== undefined) return undefined;
  return own(`${key}_${pluralCategory(count, catalogue)}`);
}

/** The message with its placeholders filled in as i18next fills them, or null when one has no value (i18next's rules then). */
function filled(message: string | undefined, params: Record<string, string | number>): string | null {
  if (message === undefined) return null;
  let complete = true;
  const text = message.replace(PLACEHOLDER, (whole, name: string) => {
    const value: unknown = params[name];
    if (typeof value !== 'string' && typeof value !== 'number') {
      complete = false;
      return whole;
    }
    return String(value);
  });
  return complete ? text : null;
}

const translators = new Map<Catalogue, Translate>();

/** The translate function of a locale (one per catalogue, made once). */
export function translator(locale: Locale): Translate {
  const catalogue = catalogueOf(locale);
  let translate = translators.get(catalogue);
  if (!translate) {
    const fixed: TFunction = i18n.getFixedT(catalogue);
    const plainOfCatalogue = plain[catalogue];
    translate = (key, params) =>
      (params === undefined ? plainOfCatalogue.get(key) : filled(messageFor(catalogue, key, params), params)) ??
      (fixed(key, params ?? {}) as string);
    translators.set(catalogue, translate);
  }
  return translate;
}

/** Islands' messages by catalogue and prefixes: the same few sets are asked for on every page. */
const islandMessages = new Map<string, Messages>();

/** The messages of a locale whose keys start with one of the prefixes: what an island needs. */
export function messagesFor(locale: Locale, prefixes: readonly string[]): Messages {
  const catalogueName = catalogueOf(locale);
  const key = `${catalogueName}\n${prefixes.join('\n')}`;
  let messages = islandMessages.get(key);
  if (!messages) {
    const catalogue = catalogues[catalogueName];
    messages = Object.freeze(
      Object.fromEntries(Object.entries(catalogue).filter(([entry]) => prefixes.some((prefix) => entry.startsWith(prefix)))),
    );
    islandMessages.set(key, messages);
  }
  return messages;
}

/**
 * A currency's name in a locale (currency-names.ts): the runtime's, else the catalogue's
 * `currency.name.<code>`, else `description` (the currency table's English one).
 */
export function currencyNameIn(locale: Locale, code: string, description: string, namer: CurrencyNamer = intlCurrencyNamer): string {
  return currencyName(code, locale, catalogues[catalogueOf(locale)][`currency.name.${code}`] ?? description, namer);
}
