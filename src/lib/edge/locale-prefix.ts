/**
 * A locale-prefixed page URL (`/zh-HK/concerts`) reaches Astro without its prefix: the worker takes
 * it off before Astro routes the request, and the page reads its locale from the visitor the worker
 * parsed (domain/visitor.ts). The middleware used to do this with Astro's rewrite (`next(url)`), after
 * which Astro builds a fresh page object for every component instance it renders: about a tenth of a
 * rendered home page's CPU.
 */
import type { LocaleChoice } from '../i18n/locales.ts';

/** The request as Astro should route it: at the path the locale choice leaves once its prefix is off. */
export function withoutLocalePrefix(request: Request, choice: LocaleChoice): Request {
  if (!choice.fromPrefix) return request;
  const url = new URL(request.url);
  url.pathname = choice.path;
  return new Request(url.href, request);
}
