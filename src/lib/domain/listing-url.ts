/**
 * The URL grammar of the catch-all listing pages (DESIGN.md leaves it to us). Every filter
 * round-trips through the URL, so a listing can be shared and reloaded as it was.
 *
 *   /{category}                 category list: a category slug, or `all` for every category
 *   /s_{keyword}                search: the keyword, URL-encoded, in the path (the spec's `/s_`)
 *   query: city={id}|all  from=YYYY-MM-DD  to=YYYY-MM-DD  sort=time|price|hot|relevance  page={n}
 *          category={slug} (search only)  placeholder={hot word} (search only: used for an empty input)
 *          q={keyword} (search only: what a plain form submits; the page redirects it to /s_{keyword})
 *
 * Without `city` a listing follows the visitor's current city (domain/listing-filters.ts, listingCity);
 * `city=all` asks for every city, so "All cities" is a URL like any other filter.
 *
 * A search is ranked by relevance unless it asks for another sort; a category list has no keyword to
 * rank by, so it sorts by time and `relevance` is not one of its sorts.
 *
 * Parsing never throws: anything malformed is dropped (and named in `problems`, which sets `invalid`),
 * so a garbled URL shows an empty state rather than an error.
 */
export const SORTS = ['time', 'price', 'hot', 'relevance'] as const;
export type Sort = (typeof SORTS)[number];
export type ListingKind = 'category' | 'search';
export const ALL_CATEGORIES = 'all';
export const SEARCH_PREFIX = 's_';
/** The query parameter of the listing's city. */
export const CITY_PARAM = 'city';
/** The `city` value of a listing over every city. */
export const ALL_CITIES = 'all';

export interface ListingFilters {
  /** A city id, every city (`all`), or, when absent, the current city. */
  cityId?: number | typeof ALL_CITIES;
  /** Inclusive local dates, YYYY-MM-DD. */
  from?: string;
  to?: string;
  sort: Sort;
  page: number;
}

export type ListingQuery =
  | ({ kind: 'category'; category: string } & ListingFilters)
  | ({ kind: 'search'; keyword: string; category?: string; placeholder?: string } & ListingFilters);

/** A query parameter (or the keyword in the path) that could not be used; `range` is a backwards date range. */
export type ListingProblem = 'city' | 'from' | 'to' | 'range' | 'sort' | 'page' | 'keyword' | 'category';

export interface ParsedListing {
  query: ListingQuery;
  /** Something in the URL could not be used (bad date, backwards range, bad page...). */
  invalid: boolean;
  /** What could not be used; present only when `invalid`. */
  problems?: ListingProblem[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const SLUG = /^[a-z0-9-]{1,40}$/;
export const MAX_PAGE = 1000;
export const MAX_KEYWORD_LENGTH = 100;

function isRealDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** The sort a listing has when its URL names none. */
export function defaultSort(kind: ListingKind): Sort {
  return kind === 'search' ? 'relevance' : 'time';
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** Reads a locale-free listing path and its query string. Returns null for a path that is not a listing. */
export function parseListingUrl(path: string, params: URLSearchParams): ParsedListing | null {
  const segments = path.split('/').filter(Boolean);
  const searchIndex = segments.findIndex((segment) => segment.startsWith(SEARCH_PREFIX));
  const kind: ListingKind = searchIndex >= 0 ? 'search' : 'category';
  if (kind === 'category' && (segments.length !== 1 || !SLUG.test(segments[0]))) return null;

  const problems: ListingProblem[] = [];
  const filters: ListingFilters = { sort: defaultSort(kind), page: 1 };

  const city = params.get(CITY_PARAM);
  if (city !== null) {
    if (city === ALL_CITIES) filters.cityId = ALL_CITIES;
    else if (/^\d{1,9}$/.test(city) && Number(city) > 0) filters.cityId = Number(city);
    else problems.push('city');
  }
  for (const key of ['from', 'to'] as const) {
    const value = params.get(key);
    // A date field left blank in the filter form means no bound.
    if (value === null || value === '') continue;
    if (isRealDate(value)) filters[key] = value;
    else problems.push(key);
  }
  if (filters.from && filters.to && filters.from > filters.to) problems.push('range');
  const sort = params.get('sort');
  if (sort !== null) {
    if ((SORTS as readonly string[]).includes(sort) && (kind === 'search' || sort !== 'relevance')) filters.sort = sort as Sort;
    else problems.push('sort');
  }
  const page = params.get('page');
  if (page !== null) {
    if (/^\d{1,4}$/.test(page) && Number(page) >= 1 && Number(page) <= MAX_PAGE) filters.page = Number(page);
    else problems.push('page');
  }
  const result = (query: ListingQuery): ParsedListing =>
    problems.length > 0 ? { query, invalid: true, problems } : { query, invalid: false };

  if (kind === 'search') {
    const decoded = safeDecode(segments[searchIndex].slice(SEARCH_PREFIX.length));
    if (decoded === null) problems.push('keyword');
    const keyword = (decoded ?? '').trim().slice(0, MAX_KEYWORD_LENGTH);
    const category = params.get('category');
    const placeholder = params.get('placeholder')?.trim().slice(0, MAX_KEYWORD_LENGTH) || undefined;
    const query: ListingQuery = { kind: 'search', keyword, placeholder, ...filters };
    if (category !== null) {
      if (SLUG.test(category)) query.category = category;
      else problems.push('category');
    }
    return result(query);
  }
  return result({ kind: 'category', category: segments[0], ...filters });
}

/** Builds the locale-free URL (path and query) of a listing; the inverse of parseListingUrl. */
export function listingUrl(query: ListingQuery): string {
  const params = new URLSearchParams();
  if (query.kind === 'search' && query.category) params.set('category', query.category);
  if (query.cityId !== undefined) params.set(CITY_PARAM, String(query.cityId));
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  if (query.sort !== defaultSort(query.kind)) params.set('sort', query.sort);
  if (query.page > 1) params.set('page', String(query.page));
  if (query.kind === 'search' && query.placeholder) params.set('placeholder', query.placeholder);
  const path = query.kind === 'search' ? `/${SEARCH_PREFIX}${encodeURIComponent(query.keyword)}` : `/${query.category}`;
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The search page, optionally seeded with a hot word to use when the input is left empty. */
export function searchUrl(keyword = '', placeholder?: string): string {
  return listingUrl({ kind: 'search', keyword, placeholder, sort: defaultSort('search'), page: 1 });
}
