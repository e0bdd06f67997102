/**
 * Translations for islands. An island receives, as a prop, only the messages it uses (picked on
 * the server by key prefix), and formats them with `format`, so no catalogue or i18n library is
 * shipped to the browser.
 */
export type Messages = Readonly<Record<string, string>>;

/** Replaces `{{name}}` placeholders, as the server catalogues write them. */
export function format(messages: Messages, key: string, params: Record<string, string | number> = {}): string {
  const template = messages[key] ?? key;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
