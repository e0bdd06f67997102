/**
 * The four URL locales and the three catalogues behind them (zh-HK and zh-TW share Traditional).
 * Pure data and functions: used by the middleware, the API and the islands alike.
 */
export const LOCALES = ['en', 'zh-HK', 'zh-TW', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export type Catalogue = 'en' | 'zh-Hant' | 'zh-Hans';

const CATALOGUE_OF: Record<Locale, Catalogue> = {
  en: 'en',
  'zh-HK': 'zh-Hant',
  'zh-TW': 'zh-Hant',
  'zh-CN': 'zh-Hans',
};

/** Whether a string is one of our locale codes, compared exactly (URL prefixes are case-sensitive). */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The catalogue (script) a locale reads from. */
export function catalogueOf(locale: Locale): Catalogue {
  return CATALOGUE_OF[locale];
}

/** Picks the name in the locale's script from a row with nameEn / nameZhHant / nameZhHans. */
export function localizedName(row: { nameEn: string; nameZhHant: string; nameZhHans: string }, locale: Locale): string {
  const catalogue = catalogueOf(locale);
  if (catalogue === 'zh-Hant') return row.nameZhHant;
  if (catalogue === 'zh-Hans') return row.nameZhHans;
  return row.nameEn;
}

/** Picks the address in the locale's language from a row with addressEn / addressZh (one Chinese text serves both scripts). */
export function localizedAddress(row: { addressEn: string; addressZh: string }, locale: Locale): string {
  return catalogueOf(locale) === 'en' ? row.addressEn : row.addressZh;
}

/**
 * Best locale for an Accept-Language header, or null. Chinese tags map by script or region:
 * Hant/TW/HK/MO to Traditional (TW keeps zh-TW), everything else Chinese to zh-CN.
 */
export function matchAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part, order) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, order };
    })
    .filter((entry) => entry.tag && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.order - b.order);
  for (const { tag } of ranked) {
    const locale = localeForTag(tag);
    if (locale) return locale;
  }
  return null;
}

function localeForTag(tag: string): Locale | null {
  if (tag === 'en' || tag.startsWith('en-')) return 'en';
  if (tag !== 'zh' && !tag.startsWith('zh-')) return null;
  if (tag.includes('-tw')) return 'zh-TW';
  if (tag.includes('hant') || tag.includes('-hk') || tag.includes('-mo')) return 'zh-HK';
  return 'zh-CN';
}

export interface LocaleChoice {
  locale: Locale;
  /** True when the URL itself names the locale (`/zh-HK/...`). */
  fromPrefix: boolean;
  /** The path with the locale prefix removed, always starting with '/'. */
  path: string;
}

function hasValidEncoding(path: string): boolean {
  try {
    // The result is used so that the bundler cannot drop the call as side-effect free.
    return typeof decodeURI(path) === 'string';
  } catch {
    return false;
  }
}

/**
 * DESIGN.md's order: URL prefix, then the stored language cookie, then Accept-Language, then en.
 * An unknown first segment is an ordinary path, never a locale; so is a prefix on a path with broken
 * percent-encoding, which the catch-all page answers (it shows a listing's empty state or the 404 page).
 */
export function resolveLocale(pathname: string, cookieLanguage: string | undefined, acceptLanguage: string | null): LocaleChoice {
  const [, first = '', ...rest] = pathname.split('/');
  if (isLocale(first) && hasValidEncoding(pathname)) {
    return { locale: first, fromPrefix: true, path: `/${rest.join('/')}` };
  }
  const locale = (isLocale(cookieLanguage) ? cookieLanguage : null) ?? matchAcceptLanguage(acceptLanguage) ?? DEFAULT_LOCALE;
  return { locale, fromPrefix: false, path: pathname || '/' };
}

/** A path in a locale: `/zh-HK/about` for ('/about', 'zh-HK'). */
export function localizedPath(path: string, locale: Locale): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  return clean === '/' ? `/${locale}/` : `/${locale}${clean}`;
}
