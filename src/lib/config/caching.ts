/** What is kept and for how long: reference tables, shared pages, crawler files, the catalogue version, header lists. */

/**
 * How long an isolate reuses the reference tables (cities, categories, currencies and FX rates, hot
 * words: services/catalogue/reference-data.ts) when the request read no version to check them against (API
 * answers, signed-in pages). Every request needs them while they change a few times a day: a minute
 * saves a D1 read per request and bounds how stale a rate can be there.
 */
export const REFERENCE_DATA_TTL_MS = 60_000;
/**
 * Shared browse pages (http/page-cache.ts): served as rendered for PAGE_CACHE_FRESH_MS, then once
 * more while a new render replaces them, up to PAGE_CACHE_STALE_MS later. A write that changes the
 * catalogue retires them at once (its version is in their key).
 */
export const PAGE_CACHE_FRESH_MS = 30_000;
export const PAGE_CACHE_STALE_MS = 60_000;
/**
 * The bodies of shared pages an isolate keeps in its own memory besides the Cache API
 * (http/page-memory.ts): a hot page then costs no cache lookup. A page is about 35–75 KB of HTML,
 * so this holds a few hundred of the most recently used, a small part of an isolate's 128 MB.
 */
export const PAGE_MEMORY_BYTES = 16 * 1024 * 1024;
/**
 * robots.txt and the sitemaps: a crawler reads them now and then, and a 50,000-URL part takes about
 * 2 s to build at 100,000 activities, so the edge keeps them an hour whatever the catalogue does
 * (their key has no version), then serves them a day more while a new build replaces them.
 */
export const CRAWLER_FILE_FRESH_MS = 3_600_000;
export const CRAWLER_FILE_STALE_MS = 86_400_000;
/**
 * How long an isolate reuses the catalogue version it read (edge/shared-page-cache.ts). A hot page
 * is asked for many times a second: reading the version once a second instead of per request takes
 * the only D1 round trip off a cached answer, and a catalogue write (a price, stock running out)
 * shows on shared pages at most this long after it commits, plus the replica's lag.
 */
export const CATALOGUE_VERSION_REUSE_MS = 1_000;
/** How long a browser may reuse the header dialogs' lists (cities, languages, currencies) without asking again. */
export const HEADER_CHOICES_MAX_AGE_S = 300;
