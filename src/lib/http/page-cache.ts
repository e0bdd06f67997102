/**
 * Which page answers the edge may share between visitors, under what key, and for how long. Only an
 * anonymous GET of a browse or info page is shared: a session cookie, a channel to record (its cookie
 * is set by the render) or any other route renders afresh. The key holds everything such a page
 * varies by — language, currency, city, the two "hide" choices, the URL and the catalogue version —
 * and nothing that names a person.
 */
import { routeFor, type RouteName } from '../routes.ts';
import { parseSitemapFilePath, SITEMAP_INDEX_PATH } from '../domain/sitemap.ts';
import type { Visitor } from '../domain/visitor.ts';

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

const FILE_NAME = /\.[A-Za-z0-9]+$/;

/** robots.txt and the sitemaps: one answer for every visitor, built from the whole catalogue. */
export function isCrawlerFile(pathname: string): boolean {
  return pathname === '/robots.txt' || pathname === SITEMAP_INDEX_PATH || parseSitemapFilePath(pathname) !== null;
}

export interface PageRequest {
  method: string;
  url: URL;
  /** The visitor as parsed once for this request, which the page renders from too. */
  visitor: Visitor;
}

/**
 * The cache key of a shareable page request (an absolute URL, as the Cache API wants) as a function
 * of the catalogue version, or null when the answer must be rendered for this request alone: whether
 * it may be shared is known before the version is read, and the key then needs only the version.
 */
export function sharedPageKeyOf(request: PageRequest): ((catalogueVersion: number) => string) | null {
  if (request.method !== 'GET') return null;
  const { url, visitor } = request;
  if (visitor.sessionClaimed) return null;
  // Nothing of the visitor changes a crawler file, and its own window (config/caching.ts) bounds its age, not the catalogue version.
  if (isCrawlerFile(url.pathname)) return url.search === '' ? () => `https://page-cache.invalid/crawler${url.pathname}` : null;
  // A file (a poster, appInfo.html) carries its own caching; a recorded channel sets a cookie.
  if (FILE_NAME.test(url.pathname) || visitor.channel !== null) return null;
  if (!SHARED_PAGES.has(routeFor(visitor.locale.path).name)) return null;

  const query = new URLSearchParams(url.searchParams);
  query.sort();
  // "-" for a choice the visitor did not make usably: the page renders its fallback for it.
  const parts = [
    visitor.locale.locale,
    visitor.currency ?? '-',
    visitor.cityId ?? '-',
    visitor.hidePopBox ? 'nopop' : 'pop',
    visitor.hideAppInfo ? 'noapp' : 'app',
  ].map(String);
  const search = query.size > 0 ? `?${query}` : '';
  const rest = `${parts.join('/')}${url.pathname}${search}`;
  return (catalogueVersion) => `https://page-cache.invalid/${encodeURIComponent(`v${catalogueVersion}`)}/${rest}`;
}

const HTML = /^text\/html\b/;

/**
 * Whether an answer is the visitor's own, to be kept by no cache: anything on a route behind sign-in,
 * and any page rendered for a visitor who sent a session cookie (its header shows their account).
 */
export function isPersonalAnswer(routeNeedsSignIn: boolean, visitor: Pick<Visitor, 'sessionClaimed'>, contentType: string | null): boolean {
  return routeNeedsSignIn || (visitor.sessionClaimed && HTML.test(contentType ?? ''));
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
