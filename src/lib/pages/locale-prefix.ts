/**
 * A locale-prefixed page URL (`/zh-HK/concerts`) reaches Astro without its prefix, which the worker
 * takes off before Astro routes the request and names in a header for the middleware. The middleware
 * used to do this with Astro's rewrite (`next(url)`), after which Astro builds a fresh page object for
 * every component instance it renders: about a tenth of a rendered home page's CPU.
 */
import { isLocale, type Locale } from '../i18n/locales.ts';

/** The prefix the worker took off the URL. Only the worker sets it: a request that arrives with it loses it. */
const LOCALE_PREFIX_HEADER = 'X-Locale-Prefix';

function hasValidEncoding(path: string): boolean {
  try {
    // The result is used so that the bundler cannot drop the call as side-effect free.
    return typeof decodeURI(path) === 'string';
  } catch {
    return false;
  }
}

/**
 * The request as Astro should route it: without its locale prefix, which the header then names. A
 * path with broken percent-encoding keeps its prefix and falls to the catch-all page, which reads
 * locals.path and shows a listing's empty state or the 404 page.
 */
export function withoutLocalePrefix(request: Request): Request {
  const url = new URL(request.url);
  const first = url.pathname.split('/', 2)[1];
  const strip = isLocale(first) && hasValidEncoding(url.pathname);
  if (!strip && !request.headers.has(LOCALE_PREFIX_HEADER)) return request;
  if (strip) url.pathname = url.pathname.slice(first.length + 1) || '/';
  const routed = new Request(url.href, request);
  if (strip) routed.headers.set(LOCALE_PREFIX_HEADER, first);
  else routed.headers.delete(LOCALE_PREFIX_HEADER);
  return routed;
}

/** The locale prefix the worker took off this request's URL, or null when it took none. */
export function strippedLocalePrefix(request: Request): Locale | null {
  const prefix = request.headers.get(LOCALE_PREFIX_HEADER);
  return isLocale(prefix) ? prefix : null;
}
