/** The way back from a page behind sign-in without a live session, for the middleware's gate and the pages that check the session themselves. */
import type { APIContext } from 'astro';
import { TOKEN_COOKIE, USER_ID_COOKIE } from '../config/request.ts';
import { localizedPath } from '../i18n/locales.ts';
import { pathTo } from '../routes.ts';

/** src/pages/403.astro: a cross-site form's refusal, or a console page for other staff roles. */
export const FORBIDDEN_PAGE_PATH = '/403';

/** The session's cookies cleared, to login (the console's own sign-in for a console page), then back here. */
export function loginRedirect(astro: Pick<APIContext, 'cookies' | 'url' | 'redirect' | 'locals'>): Response {
  const { url, locals } = astro;
  if (locals.visitor.sessionClaimed) for (const name of [TOKEN_COOKIE, USER_ID_COOKIE]) astro.cookies.delete(name, { path: '/' });
  // The URL as the browser asked for it: a page sees it rewritten without its locale prefix.
  const back = (locals.localeFromPrefix ? localizedPath(locals.path, locals.locale) : url.pathname) + url.search;
  const signIn = locals.route.console ? pathTo('opsSignInPage') : pathTo('loginPage');
  return astro.redirect(`${localizedPath(signIn, locals.locale)}?redirect=${encodeURIComponent(back)}`, 302);
}
