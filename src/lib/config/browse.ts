/** Browsing: search, suggestions, lists, the home page and the city picker. */

export const SEARCH_HISTORY_MAX = 20;
export const SEARCH_HISTORY_TTL_DAYS = 90;
export const SUGGESTION_DELAY_MS = 300;
export const CITY_SEARCH_DELAY_MS = 100;
/** Longest text the city picker's autocomplete accepts. */
export const CITY_KEYWORD_MAX_LENGTH = 50;
export const PULL_TO_REFRESH_CLOSE_MS = 300;
/** Activities per page of a category list or search result. */
export const LISTING_PAGE_SIZE = 20;
/** Suggestions shown under the search box. */
export const SUGGESTION_LIMIT = 8;
/**
 * Keys the suggestion table keeps per typed word or character (migration 0022, whose triggers hold
 * the same number, 32; docs/search.md): the soonest buyable matches, a few suggestion lists deep so
 * that shows ending between two sweeps rarely leave a prefix with fewer than SUGGESTION_LIMIT to show.
 */
export const SUGGESTION_PREFIX_DEPTH = 4 * SUGGESTION_LIMIT;
/**
 * The most matches a search ranks or counts (docs/search.md). A query with no more matches than
 * this in the whole index is ranked by bm25 as a full ranking would; a broader one lists its first
 * this-many matches in index order (buyable, soonest first) and shows "500+ results", so its cost
 * stays that of this many rows however large the catalogue grows.
 */
export const SEARCH_CANDIDATE_LIMIT = 500;
export const HOT_WORD_ROTATION_MS = 2000;
export const HOME_POPUP_SCENE = 'HOME';
export const HOT_KEYWORDS_SHOWN = 5;
export const RECENT_SHOWS_DAYS = 15;
export const GEOLOCATION_OPTIONS = { enableHighAccuracy: true, timeout: 5000, maximumAge: 0 } as const;
export const SLOW_PAGE_THRESHOLD_MS = 10_000;
export const MAX_PAGE_WIDTH_PX = 600;
