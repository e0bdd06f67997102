/**
 * Translations for islands. An island receives, as a prop, only the messages it uses (picked on
 * the server by key prefix), and formats them with `format`, so no catalogue or i18n library is
 * shipped to the browser.
 */
import type { MessageKey } from './keys.ts';

export type Messages = Readonly<Record<string, string>>;

/** The rest of each message key that starts with the prefix: what `scoped` takes. */
export type KeyUnder<Prefix extends string> = MessageKey extends infer Key ? (Key extends `${Prefix}${infer Rest}` ? Rest : never) : never;

/**
 * The page's locale for plural rules: the `<html lang>` in the browser. Rendering on the server has no
 * document and uses English rules; the Chinese catalogues give `_one` and `_other` the same text (a
 * unit test holds them to it), so either form reads the same there.
 */
function pageLocale(): string {
  return globalThis.document?.documentElement.lang || 'en';
}

const pluralRules = new Map<string, Intl.PluralRules>();

/** The plural category (`one`, `other`, …) a count takes in a locale, by the locale's own rules. */
export function pluralCategory(count: number, locale = pageLocale()): Intl.LDMLPluralRule {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules.select(count);
}

/**
 * The key of the form a numeric `count` calls for, as i18next names plural forms on the server:
 * `key_one`, `key_other`…, picked by `Intl.PluralRules` for the page's locale. A catalogue without
 * the category's form falls back to `_other`.
 */
export function pluralKey(messages: Messages, key: string, count: unknown, locale?: string): string {
  if (key in messages || typeof count !== 'number') return key;
  const exact = `${key}_${pluralCategory(count, locale)}`;
  return exact in messages ? exact : `${key}_other`;
}

/** Replaces `{{name}}` placeholders, as the server catalogues write them; a `count` picks the plural form. */
export function format(messages: Messages, key: MessageKey, params: Record<string, string | number> = {}): string {
  const template = messages[pluralKey(messages, key, params.count)] ?? key;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** `format` for one feature's keys: `scoped(messages, 'gate.')('admit')` reads `gate.admit`. */
export function scoped<Prefix extends string>(
  messages: Messages,
  prefix: Prefix,
): (key: KeyUnder<Prefix>, params?: Record<string, string | number>) => string {
  return (key, params) => format(messages, `${prefix}${key}` as MessageKey, params);
}
