/**
 * Which page answers the edge may share between visitors, under what key, and for how long. Only an
 * anonymous GET of a browse or info page is shared: a session cookie, a channel to record (its cookie
 * is set by the render) or any other route renders afresh. The key holds everything such a page
 * varies by — language, currency, city, the two "hide" choices, the URL and the catalogue version —
 * and nothing that names a person.
 */
import {
  CITY_COOKIE,
  CURRENCY_COOKIE,
  HIDE_APP_INFO_COOKIE,
  HIDE_POP_BOX_COOKIE,
  LANGUAGE_COOKIE,
  TOKEN_COOKIE,
  USER_ID_COOKIE,
} from '../config.ts';
import { resolveLocale } from '../i18n/locales.ts';
import { routeFor, type RouteName } from '../routes.ts';
import { parseSitemapFilePath, SITEMAP_INDEX_PATH } from './sitemap.ts';

/** The pages every anonymous visitor of a language, currency and city sees alike. */
const SHARED_PAGES: ReadonlySet<RouteName> = new Set<RouteName>([
  'homePage',
  'categoryPage',
  'activityListPage',
  'detailPage',
  'aboutPage',
  'contactPage',
  'privacyPage',
  'userAgreement',
  'transferAgreement',
]);

/** A cookie value as a key part: the shapes the page reads, anything else as "-" (the page's fallback). */
const CURRENCY_SHAPE = /^[A-Za-z]{3}$/;
const CITY_SHAPE = /^\d{1,9}$/;
const FILE_NAME = /\.[A-Za-z0-9]+$/;

/** robots.txt and the sitemaps: one answer for every visitor, built from the whole catalogue. */
export function isCrawlerFile(pathname: string): boolean {
  return pathname === '/robots.txt' || pathname === SITEMAP_INDEX_PATH || parseSitemapFilePath(pathname) !== null;
}

export interface PageRequest {
  method: string;
  url: URL;
  cookie: (name: string) => string | undefined;
  acceptLanguage: string | null;
}

/**
 * The cache key of a shareable page request (an absolute URL, as the Cache API wants) as a function
 * of the catalogue version, or null when the answer must be rendered for this request alone: whether
 * it may be shared is known before the version is read, and the key then needs only the version.
 */
export function sharedPageKeyOf(request: PageRequest): ((catalogueVersion: number) => string) | null {
  if (request.method !== 'GET') return null;
  if (request.cookie(TOKEN_COOKIE) !== undefined || request.cookie(USER_ID_COOKIE) !== undefined) return null;
  const { url } = request;
  // Nothing of the visitor changes a crawler file, and its own window (config.ts) bounds its age, not the catalogue version.
  if (isCrawlerFile(url.pathname)) return url.search === '' ? () => `https://page-cache.invalid/crawler${url.pathname}` : null;
  // A file (a poster, appInfo.html) carries its own caching; a recorded channel sets a cookie.
  if (FILE_NAME.test(url.pathname) || url.searchParams.has('channel')) return null;
  const choice = resolveLocale(url.pathname, request.cookie(LANGUAGE_COOKIE), request.acceptLanguage);
  if (!SHARED_PAGES.has(routeFor(choice.path).name)) return null;

  const currency = request.cookie(CURRENCY_COOKIE)?.trim() ?? '';
  const city = request.cookie(CITY_COOKIE)?.trim() ?? '';
  const query = new URLSearchParams(url.searchParams);
  query.sort();
  const parts = [
    choice.locale,
    CURRENCY_SHAPE.test(currency) ? currency.toUpperCase() : '-',
    CITY_SHAPE.test(city) ? city : '-',
    request.cookie(HIDE_POP_BOX_COOKIE) === undefined ? 'pop' : 'nopop',
    request.cookie(HIDE_APP_INFO_COOKIE) === undefined ? 'app' : 'noapp',
  ].map(encodeURIComponent);
  const search = query.size > 0 ? `?${query}` : '';
  const rest = `${parts.join('/')}${url.pathname}${search}`;
  return (catalogueVersion) => `https://page-cache.invalid/${encodeURIComponent(`v${catalogueVersion}`)}/${rest}`;
}

export type CachedPageState = 'fresh' | 'stale' | 'expired';

/**
 * How a stored page may be used at `now`: fresh within `freshMs` of its render, then stale (served
 * while a new render replaces it) until `freshMs + staleMs`, then expired.
 */
export function cachedPageState(renderedAt: number, now: number, freshMs: number, staleMs: number): CachedPageState {
  const age = now - renderedAt;
  if (!Number.isFinite(age) || age < 0) return 'expired';
  if (age < freshMs) return 'fresh';
  return age < freshMs + staleMs ? 'stale' : 'expired';
}
