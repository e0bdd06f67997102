/**
 * Where a page goes instead of rendering, as its loader says it: elsewhere (a redirect), the 404
 * page, the 403 page of a console page the caller's staff roles do not cover, or back through login. The page answers it with answerExit; loaders return it as a value
 * beside their data, and know nothing of Astro's responses.
 */
import type { APIContext } from 'astro';
import { FORBIDDEN_PAGE_PATH, loginRedirect } from '../edge/login-redirect.ts';

type Exit = { kind: 'redirect'; location: string; status: 302 | 303 } | { kind: 'notFound' } | { kind: 'staffOnly' } | { kind: 'signIn' };

export class PageExit {
  private constructor(readonly exit: Exit) {}

  /** To `location` (already localized), 302 for a GET's detour, 303 after a form's POST or to another outcome page. */
  static redirect(location: string, status: 302 | 303 = 302): PageExit {
    return new PageExit({ kind: 'redirect', location, status });
  }

  /** What the page is about is missing, malformed or someone else's. */
  static readonly notFound = new PageExit({ kind: 'notFound' });

  /** A console page that the caller's staff roles do not cover (or a caller who is no staff at all). */
  static readonly staffOnly = new PageExit({ kind: 'staffOnly' });

  /** The session did not hold: its cookies cleared, to login, then back here. */
  static readonly signIn = new PageExit({ kind: 'signIn' });
}

/**
 * The response of an exit. An empty 404 response makes Astro render src/pages/404.astro in the
 * request's language; the staff-only exit renders src/pages/403.astro with the console's words.
 */
export function answerExit(
  astro: Pick<APIContext, 'cookies' | 'url' | 'redirect' | 'rewrite' | 'locals'>,
  { exit }: PageExit,
): Response | Promise<Response> {
  if (exit.kind === 'notFound') return new Response(null, { status: 404 });
  if (exit.kind === 'staffOnly') {
    astro.locals.refusal = 'staffOnly';
    return astro.rewrite(FORBIDDEN_PAGE_PATH);
  }
  if (exit.kind === 'signIn') return loginRedirect(astro);
  return astro.redirect(exit.location, exit.status);
}
