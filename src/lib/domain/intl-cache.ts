/**
 * Intl formatters are slow to build and immutable once built, and a page formats hundreds of prices
 * and dates with a handful of distinct options: keep one per locale and options.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A shared Intl.NumberFormat for these locale and options. */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** A shared Intl.DateTimeFormat for these locale and options. */
export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, format);
  }
  return format;
}

/**
 * What a formatting function answered for a key, kept while the isolate runs: a page formats the
 * same sessions' dates on every render, and formatting (formatToParts above all) costs more than the
 * rest of a card. Forgets everything once it holds `limit` answers, so it stays small.
 */
export class FormattedMemo<T> {
  readonly #answers = new Map<string, T>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(key: string, format: () => T): T {
    let answer = this.#answers.get(key);
    if (answer === undefined) {
      answer = format();
      if (this.#answers.size >= this.#limit) this.#answers.clear();
      this.#answers.set(key, answer);
    }
    return answer;
  }
}
