/**
 * What the catch-all listing page renders (SPEC.md section 2, DESIGN.md): a category list
 * (`/{category}`) or the search page (`/s_{keyword}`), by the grammar of domain/listing-url.ts, with
 * its first page of cards; the feed island loads the next ones from GET /api/v1/list{path}. A path
 * that is no listing, or names no category, exits to the 404 page; a typed search to its own URL.
 */
import type { AstroGlobal } from 'astro';
import { env } from 'cloudflare:workers';
import { ALL_CATEGORIES, ALL_CITIES, listingUrl, MAX_KEYWORD_LENGTH, parseListingUrl, searchUrl } from '../domain/listing-url.ts';
import { imageDelivery } from '../domain/poster-images.ts';
import { listingStructuredData, pageOrigin } from '../edge/page-head.ts';
import { pageScope } from '../edge/page-scope.ts';
import { messagesFor } from '../i18n/index.ts';
import { localizedName } from '../i18n/locales.ts';
import { pageI18n } from '../i18n/page.ts';
import { currentCityRow } from '../services/catalogue/catalogue.ts';
import { loadListing, type ListingOutcome } from '../services/catalogue/listing.ts';
import { listHotKeywords } from '../services/search/hot-keywords.ts';
import { PageExit } from './page-exit.ts';

export async function loadListingPage(astro: Pick<AstroGlobal, 'locals' | 'url' | 'request' | 'response'>) {
  const { locale, t, link } = pageI18n(astro.locals);
  const params = astro.url.searchParams;
  // Astro hands pages a decoded path (a keyword's `%25` becomes a bare `%`, which no longer decodes); the
  // request keeps the path as sent, without its locale prefix when the worker took it off
  // (edge/locale-prefix.ts), which it only does when the path decodes cleanly (i18n/locales.ts resolveLocale).
  const requestPath = new URL(astro.request.url).pathname;
  const sentPath =
    astro.locals.localeFromPrefix && requestPath.startsWith(`/${locale}/`) ? requestPath.slice(locale.length + 1) : requestPath;
  const parsed = parseListingUrl(sentPath, params);
  if (!parsed) return PageExit.notFound;
  const { query } = parsed;

  const typed = params.get('q');
  if (query.kind === 'search' && typed !== null) {
    const keyword = typed.trim().slice(0, MAX_KEYWORD_LENGTH) || query.placeholder || '';
    return PageExit.redirect(link(searchUrl(keyword, query.placeholder)), 303);
  }

  const scope = await pageScope(astro);
  const searching = query.kind === 'search';
  // The bare search page (no keyword yet) shows history and hot words instead of results.
  const bareSearch = searching && query.keyword === '' && !parsed.invalid;
  let outcome: ListingOutcome | null = null;
  let failed = false;
  try {
    if (!bareSearch) outcome = await loadListing(scope, parsed);
  } catch (error) {
    console.error('Listing failed', astro.locals.path, error);
    failed = true;
    astro.response.status = 503;
  }
  if (outcome?.kind === 'unknown_category') return PageExit.notFound;

  const list = outcome?.kind === 'list' ? outcome.list : null;
  const hotWords = bareSearch ? listHotKeywords(scope.reference, locale, scope.now) : [];
  const prefix = astro.locals.localeFromPrefix ? `/${locale}` : '';
  const firstPage = listingUrl({ ...query, page: 1 });
  // The feed's calls name the list's city, so that its next pages are of the city this page shows
  // (a search's calls ask to ignore the current city, as the spec's search call does).
  const feedPath = list ? listingUrl({ ...query, page: 1, cityId: list.city?.cityId ?? ALL_CITIES }) : firstPage;
  // Which city the list shows, said in words, with the other scope one tap away: every city, or back to the current city.
  const currentCityName = localizedName(currentCityRow(scope.reference, scope.ctx.cityId), locale);
  const cityScope = list && {
    text: list.city ? t('listing.city.showing', { city: list.city.cityName }) : t('listing.city.showingAll'),
    other: list.city
      ? { label: t('listing.allCities'), url: listingUrl({ ...query, page: 1, cityId: ALL_CITIES }) }
      : { label: t('listing.city.only', { city: currentCityName }), url: listingUrl({ ...query, page: 1, cityId: undefined }) },
  };
  const cleared = query.kind === 'search' ? searchUrl(query.keyword, query.placeholder) : `/${query.category}`;
  const categoryName = list?.categoryFilters.find((option) => option.selected && option.id !== ALL_CATEGORIES)?.name;
  const heading = searching
    ? t('listing.searchHeading')
    : (categoryName ?? (query.category === ALL_CATEGORIES ? t('listing.allEvents') : t('title.categoryPage')));
  const title = searching ? (query.keyword ? t('listing.searchTitle', { keyword: query.keyword }) : heading) : heading;
  const count =
    list &&
    (searching
      ? t(list.totalIsLowerBound ? 'listing.resultsForAtLeast' : 'listing.resultsFor', { count: list.total, keyword: query.keyword })
      : t('listing.count', { count: list.total }));
  const feedMessages = messagesFor(locale, [
    'listing.more',
    'listing.loading',
    'listing.end',
    'listing.pull',
    'listing.release',
    'listing.refresh',
    'card.',
    'error.network',
    'error.timeout',
  ]);
  return {
    query,
    bareSearch,
    outcome,
    failed,
    list,
    hotWords,
    prefix,
    firstPage,
    feedPath,
    cityScope,
    cleared,
    heading,
    title,
    count,
    feedMessages,
    imageDelivery: imageDelivery(env.APP_ENV),
    structuredData: list ? listingStructuredData(pageOrigin(astro.url), locale, t, astro.locals.path, title) : [],
  };
}
