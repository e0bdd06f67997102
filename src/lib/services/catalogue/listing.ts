/**
 * The catch-all listing pages' data (SPEC.md section 3, list response): a category list or a
 * search result, filtered by city, category and dates, sorted, paged, as activity cards, with the
 * filter options and their URLs. Searching itself (the FTS index) lives in services/search/.
 */
import { LISTING_PAGE_SIZE } from '../../config/browse.ts';
import { DEFAULT_CITY_ID } from '../../config/request.ts';
import { calendarApiPath, daysBetween, localDate, MAX_CALENDAR_SPAN_DAYS } from '../../domain/calendar.ts';
import { dateBoundProblems, listingCity, pageCount } from '../../domain/listing-filters.ts';
import { ALL_CATEGORIES, type ListingProblem, type ListingQuery, type ParsedListing } from '../../domain/listing-url.ts';
import { localizedName } from '../../i18n/locales.ts';
import { hotCities, listCategories, type ActivityCard } from './catalogue.ts';
import type { CityRow } from './reference-data.ts';
import type { RequestScope } from '../platform/scope.ts';
import { type FilterOption, filterOptions } from './listing-filter-options.ts';
import { findPage } from './listing-page.ts';

export interface ListResponse {
  pageIndex: number;
  pageSize: number;
  totalPage: number;
  total: number;
  /**
   * True when a broad search counted only its first `total` matches (SEARCH_CANDIDATE_LIMIT) and
   * more exist: the page shows "500+ results" and pages through those first ones.
   */
  totalIsLowerBound: boolean;
  /** The search keyword; empty on a category list. */
  keyword: string;
  /** The calendar list (API path) of the listing's city and category over its dates. */
  calendarUrl: string;
  /**
   * The city the list shows: the one its URL names, else the current city of the request (city-id
   * header or cookie, default Hong Kong); null for every city (`city=all`, or `ignoreCityId=true`
   * without a city in the URL).
   */
  city: { cityId: number; cityName: string } | null;
  categoryFilters: FilterOption[];
  hotCityFilters: FilterOption[];
  timeFilters: FilterOption[];
  sortFilters: FilterOption[];
  result: ActivityCard[];
}

export type ListingOutcome =
  | { kind: 'list'; list: ListResponse; query: ListingQuery }
  /** The path names no category: the page answers 404. */
  | { kind: 'unknown_category' }
  /** Parameters that cannot be used: a clear empty state, never a query. */
  | { kind: 'invalid'; problems: ListingProblem[]; query: ListingQuery };

/** Loads a parsed listing URL for the request's language and currency. */
export async function loadListing(scope: RequestScope, parsed: ParsedListing): Promise<ListingOutcome> {
  const { ctx, now } = scope;
  const { query } = parsed;
  const slug = query.kind === 'category' ? query.category : (query.category ?? ALL_CATEGORIES);
  const categoryList = listCategories(scope);
  const cityRows = scope.reference.cities;
  const hot = hotCities(scope);
  const category = slug === ALL_CATEGORIES ? null : (categoryList.find((item) => item.slug === slug) ?? null);
  const problems = [...(parsed.problems ?? [])];
  if (slug !== ALL_CATEGORIES && !category) {
    if (query.kind === 'category') return { kind: 'unknown_category' };
    problems.push('category');
  }
  const cityId = listingCity(query.cityId, ctx.cityId, (id) => cityRows.some((row) => row.id === id));
  const city = cityId === null ? null : (cityRows.find((row) => row.id === cityId) ?? null);
  if (cityId !== null && !city) problems.push('city');
  const timeZone = (city ?? cityRows.find((row) => row.id === DEFAULT_CITY_ID))?.timeZone ?? 'Asia/Hong_Kong';
  const today = localDate(now, timeZone);
  problems.push(...dateBoundProblems(query, today));
  if (problems.length > 0) return { kind: 'invalid', problems: [...new Set(problems)], query };

  const calendarCity = city ?? cityRows.find((row) => row.id === ctx.cityId) ?? cityRows.find((row) => row.id === DEFAULT_CITY_ID);
  const page = await findPage(scope, query, { category, city, timeZone });
  const list: ListResponse = {
    pageIndex: query.page,
    pageSize: LISTING_PAGE_SIZE,
    totalPage: pageCount(page.total, LISTING_PAGE_SIZE),
    total: page.total,
    totalIsLowerBound: page.totalIsLowerBound,
    keyword: query.kind === 'search' ? query.keyword : '',
    calendarUrl: calendarUrl(calendarCity, slug, query),
    city: city && { cityId: city.id, cityName: localizedName(city, ctx.locale) },
    ...filterOptions(query, ctx, { categoryList, hot, category, city, today }),
    result: page.cards,
  };
  return { kind: 'list', list, query };
}

function calendarUrl(city: CityRow | undefined, slug: string, query: ListingQuery): string {
  const key = { cityCode: city?.cityCode ?? '', type: slug };
  const { from, to } = query;
  const fits = from !== undefined && to !== undefined && daysBetween(from, to) + 1 <= MAX_CALENDAR_SPAN_DAYS;
  return calendarApiPath(key, fits ? { start: from, end: to } : undefined);
}
