/**
 * robots.txt and the sitemaps (sitemaps.org protocol 0.9): which paths crawlers may visit, and the
 * XML of the index and of each locale's sitemap files, with every URL's alternates in the other
 * locales (hreflang) so that each file names the same page in every language. Pure: the service
 * (services/catalogue/sitemap.ts) reads the catalogue and passes the origin in; every URL is absolute on it.
 */
import { LOCALES, localizedPath, type Locale } from '../i18n/locales.ts';
import type { RouteDef } from '../routes.ts';

/**
 * URLs we put in one file: well under the protocol's limit of 50,000, because each URL carries its four language
 * alternates (about 500 bytes): a full 50,000-URL file is 24 MB and about 2 s of a worker's CPU to
 * build, 5,000 URLs are 2.4 MB and a tenth of that, within a Worker's CPU budget per request.
 */
export const SITEMAP_URLS_PER_FILE = 5_000;

/** The index every crawler is pointed to. */
export const SITEMAP_INDEX_PATH = '/sitemap.xml';
const FILE_PATH = /^\/sitemaps\/([A-Za-z-]+)-([1-9]\d{0,5})\.xml$/;

/** A page of the sitemap: its locale-free path and when it last changed (null: unknown). */
export interface SitemapEntry {
  path: string;
  lastModified: number | null;
}

/** One sitemap file: the `part`th (from 1) of a locale's list. */
export interface SitemapFile {
  locale: Locale;
  part: number;
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!);
}

/** A W3C datetime to the second, in UTC: what `lastmod` takes. */
export function w3cDatetime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function sitemapFilePath({ locale, part }: SitemapFile): string {
  return `/sitemaps/${locale}-${part}.xml`;
}

/** The file a path names, or null when it names none (an unknown locale, part 0, another shape). */
export function parseSitemapFilePath(path: string): SitemapFile | null {
  const match = FILE_PATH.exec(path);
  if (!match || !(LOCALES as readonly string[]).includes(match[1])) return null;
  return { locale: match[1] as Locale, part: Number(match[2]) };
}

/** How many files a locale's list of `urlCount` URLs takes. */
export function sitemapPartCount(urlCount: number, maxUrls = SITEMAP_URLS_PER_FILE): number {
  return Math.max(1, Math.ceil(urlCount / maxUrls));
}

/**
 * Which entries of a locale's list a part holds, as an offset and a count: the fixed pages first
 * (home, categories, info pages: `fixedCount` of them), then the activities. The service reads only
 * the activities of the part's window, so a part costs one bounded query however large the catalogue.
 */
export function partWindow(part: number, fixedCount: number, maxUrls = SITEMAP_URLS_PER_FILE) {
  const start = (part - 1) * maxUrls;
  const end = start + maxUrls;
  const fixed = { offset: Math.min(start, fixedCount), count: Math.max(0, Math.min(end, fixedCount) - start) };
  const activityStart = Math.max(0, start - fixedCount);
  return { fixed, activities: { offset: activityStart, count: Math.max(0, end - fixedCount - activityStart) } };
}

/** The absolute URL of a locale-free path in a locale. */
function localeUrl(origin: string, path: string, locale: Locale): string {
  return new URL(localizedPath(path, locale), origin).href;
}

/** One `<url>` with its alternates in every locale (itself included, as the protocol asks). */
function urlElement(origin: string, entry: SitemapEntry, locale: Locale): string {
  const alternates = LOCALES.map(
    (code) => `<xhtml:link rel="alternate" hreflang="${code}" href="${escapeXml(localeUrl(origin, entry.path, code))}"/>`,
  ).join('');
  const lastmod = entry.lastModified === null ? '' : `<lastmod>${w3cDatetime(entry.lastModified)}</lastmod>`;
  return `<url><loc>${escapeXml(localeUrl(origin, entry.path, locale))}</loc>${lastmod}${alternates}</url>`;
}

/** A sitemap file: a `urlset` of the entries in one locale. */
export function urlsetXml(origin: string, locale: Locale, entries: readonly SitemapEntry[]): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">' +
    entries.map((entry) => urlElement(origin, entry, locale)).join('\n') +
    '</urlset>\n'
  );
}

/** The index: every locale's parts, each with the catalogue's last change as its `lastmod`. */
export function sitemapIndexXml(origin: string, files: readonly SitemapFile[], lastModified: number | null): string {
  const lastmod = lastModified === null ? '' : `<lastmod>${w3cDatetime(lastModified)}</lastmod>`;
  const items = files.map((file) => `<sitemap><loc>${escapeXml(new URL(sitemapFilePath(file), origin).href)}</loc>${lastmod}</sitemap>`);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${items.join('\n')}</sitemapindex>\n`
  );
}

/**
 * The path prefixes crawlers are kept from: the API, the signed-in routes (checkout, orders, account)
 * and the pages reached only by a private link (the voucher, the sandbox's payment page), each bare
 * and under every locale prefix. A route's pattern is cut at its first parameter; a prefix another
 * one already covers (`/orders/` under `/orders`) is left out.
 */
export function disallowedPaths(routes: readonly RouteDef[], privatePatterns: readonly string[]): string[] {
  const patterns = [...routes.filter((route) => route.auth).map((route) => route.pattern), ...privatePatterns];
  const prefixes = [...new Set(patterns.map((pattern) => pattern.replace(/:.*$/, '')))];
  const needed = prefixes.filter((prefix) => !prefixes.some((other) => other !== prefix && prefix.startsWith(other)));
  const paths = needed.flatMap((prefix) => [prefix, ...LOCALES.map((locale) => `/${locale}${prefix}`)]);
  return ['/api/', ...paths];
}

/** robots.txt: everything else is open, and the index is named when the origin is known. */
export function robotsTxt(disallowed: readonly string[], origin: string | null): string {
  const lines = ['User-agent: *', ...disallowed.map((path) => `Disallow: ${path}`), 'Allow: /'];
  if (origin) lines.push('', `Sitemap: ${new URL(SITEMAP_INDEX_PATH, origin).href}`);
  return `${lines.join('\n')}\n`;
}
