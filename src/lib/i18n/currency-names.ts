/**
 * A currency's name in the reader's language ("港幣", "新台币", "New Taiwan Dollar"), for every place
 * that names a currency rather than formatting an amount. The runtime's CLDR data comes first;
 * a runtime without currency display names (a trimmed ICU) falls back to the catalogues' names.
 */

/** What names a currency in a locale: undefined when the runtime has no name for it. */
export type CurrencyNamer = (code: string, locale: string) => string | undefined;

const displayNames = new Map<string, Intl.DisplayNames | null>();

/** Intl.DisplayNames, one per locale; null where the runtime lacks the API or the locale. */
export const intlCurrencyNamer: CurrencyNamer = (code, locale) => {
  let names = displayNames.get(locale);
  if (names === undefined) {
    try {
      names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(locale, { type: 'currency', fallback: 'none' }) : null;
    } catch {
      names = null;
    }
    displayNames.set(locale, names);
  }
  try {
    return names?.of(code) ?? undefined;
  } catch {
    return undefined;
  }
};

/**
 * The name of `code` in `locale`: the runtime's, else `fallback` (the catalogue's name, or the
 * currency table's English description). The runtime answers with the code itself when it has no
 * name, which is no name for a reader either.
 */
export function currencyName(code: string, locale: string, fallback: string, namer: CurrencyNamer = intlCurrencyNamer): string {
  const name = namer(code, locale)?.trim();
  return name && name.toUpperCase() !== code.toUpperCase() ? name : fallback;
}
