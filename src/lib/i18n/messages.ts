/**
 * Translations for islands. An island receives, as a prop, only the messages it uses (picked on
 * the server by key prefix), and formats them with `format`, so no catalogue or i18n library is
 * shipped to the browser.
 */
export type Messages = Readonly<Record<string, string>>;

/**
 * The key of the form a numeric `count` calls for, as i18next names plural forms on the server:
 * `key_one` for exactly one, `key_other` otherwise. English is the only catalogue language whose
 * words change with the number; the Chinese catalogues give both forms the same text.
 */
export function pluralKey(messages: Messages, key: string, count: unknown): string {
  if (key in messages || typeof count !== 'number') return key;
  return `${key}_${count === 1 ? 'one' : 'other'}`;
}

/** Replaces `{{name}}` placeholders, as the server catalogues write them; a `count` picks the plural form. */
export function format(messages: Messages, key: string, params: Record<string, string | number> = {}): string {
  const template = messages[pluralKey(messages, key, params.count)] ?? key;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** `format` for one feature's keys: `scoped(messages, 'gate.')('admit')` reads `gate.admit`. */
export function scoped(messages: Messages, prefix: string): (key: string, params?: Record<string, string | number>) => string {
  return (key, params) => format(messages, `${prefix}${key}`, params);
}
