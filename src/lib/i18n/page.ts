/** What a page or component needs to speak the request's language and keep its URL prefix. */
import { translator, type Translate } from './index.ts';
import { localizedPath, type Locale } from './locales.ts';

export interface PageI18n {
  locale: Locale;
  t: Translate;
  /** A link to a locale-free path, prefixed with the locale when the current URL is prefixed. */
  link: (path: string) => string;
}

export function pageI18n(locals: App.Locals): PageI18n {
  const { locale, localeFromPrefix } = locals;
  return {
    locale,
    t: translator(locale),
    link: (path) => (localeFromPrefix ? localizedPath(path, locale) : path),
  };
}
