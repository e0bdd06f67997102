/**
 * The URL grammar of the catch-all listing pages (DESIGN.md leaves it to us). Every filter
 * round-trips through the URL, so a listing can be shared and reloaded as it was.
 *
 *   /{category}                 category list: a category slug, or `all` for every category
 *   /s_{keyword}                search: the keyword, URL-encoded, in the path (the spec's `/s_`)
 *   query: city={id}  from=YYYY-MM-DD  to=YYYY-MM-DD  sort=time|price|hot  page={n}
 *          category={slug} (search only)  placeholder={hot word} (search only: used for an empty input)
 *
 * Parsing never throws: anything malformed is dropped (or flagged `invalid`), so a garbled URL shows
 * an empty state rather than an error.
 */
export const SORTS = ['time', 'price', 'hot'] as const;
export type Sort = (typeof SORTS)[number];
export const ALL_CATEGORIES = 'all';
export const SEARCH_PREFIX = 's_';

export interface ListingFilters {
  cityId?: number;
  /** Inclusive local dates, YYYY-MM-DD. */
  from?: string;
  to?: string;
  sort: Sort;
  page: number;
}

export type ListingQuery =
  | ({ kind: 'category'; category: string } & ListingFilters)
  | ({ kind: 'search'; keyword: string; category?: string; placeholder?: string } & ListingFilters);

export interface ParsedListing {
  query: ListingQuery;
  /** Something in the URL could not be used (bad date, backwards range, bad page...). */
  invalid: boolean;
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
  let invalid = false;
  const filters: ListingFilters = { sort: 'time', page: 1 };

  const city = params.get('city');
  if (city !== null) {
    if (/^\d{1,9}$/.test(city) && Number(city) > 0) filters.cityId = Number(city);
    else invalid = true;
  }
  for (const key of ['from', 'to'] as const) {
    const value = params.get(key);
    if (value === null) continue;
    if (isRealDate(value)) filters[key] = value;
    else invalid = true;
  }
  if (filters.from && filters.to && filters.from > filters.to) invalid = true;
  const sort = params.get('sort');
  if (sort !== null) {
    if ((SORTS as readonly string[]).includes(sort)) filters.sort = sort as Sort;
    else invalid = true;
  }
  const page = params.get('page');
  if (page !== null) {
    if (/^\d{1,4}$/.test(page) && Number(page) >= 1 && Number(page) <= MAX_PAGE) filters.page = Number(page);
    else invalid = true;
  }

  const searchIndex = segments.findIndex((segment) => segment.startsWith(SEARCH_PREFIX));
  if (searchIndex >= 0) {
    const decoded = safeDecode(segments[searchIndex].slice(SEARCH_PREFIX.length));
    if (decoded === null) invalid = true;
    const keyword = (decoded ?? '').trim().slice(0, MAX_KEYWORD_LENGTH);
    const category = params.get('category');
    const placeholder = params.get('placeholder')?.trim().slice(0, MAX_KEYWORD_LENGTH) || undefined;
    const query: ListingQuery = { kind: 'search', keyword, placeholder, ...filters };
    if (category !== null) {
      if (SLUG.test(category)) query.category = category;
      else invalid = true;
    }
    return { query, invalid };
  }

  if (segments.length !== 1 || !SLUG.test(segments[0])) return null;
  return { query: { kind: 'category', category: segments[0], ...filters }, invalid };
}

/** Builds the locale-free URL (path and query) of a listing; the inverse of parseListingUrl. */
export function listingUrl(query: ListingQuery): string {
  const params = new URLSearchParams();
  if (query.kind === 'search' && query.category) params.set('category', query.category);
  if (query.cityId) params.set('city', String(query.cityId));
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  if (query.sort !== 'time') params.set('sort', query.sort);
  if (query.page > 1) params.set('page', String(query.page));
  if (query.kind === 'search' && query.placeholder) params.set('placeholder', query.placeholder);
  const path = query.kind === 'search' ? `/${SEARCH_PREFIX}${encodeURIComponent(query.keyword)}` : `/${query.category}`;
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The search page, optionally seeded with a hot word to use when the input is left empty. */
export function searchUrl(keyword = '', placeholder?: string): string {
  return listingUrl({ kind: 'search', keyword, placeholder, sort: 'time', page: 1 });
}
