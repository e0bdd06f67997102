/** The way back from a page behind sign-in without a live session, for the middleware's gate and the pages that check the session themselves. */
import type { APIContext } from 'astro';
import { TOKEN_COOKIE, USER_ID_COOKIE } from '../config/request.ts';
import { localizedPath } from '../i18n/locales.ts';

/** The session's cookies cleared, to login, then back here. */
export function loginRedirect(astro: Pick<APIContext, 'cookies' | 'url' | 'redirect' | 'locals'>): Response {
  const { url, locals } = astro;
  if (locals.visitor.sessionClaimed) for (const name of [TOKEN_COOKIE, USER_ID_COOKIE]) astro.cookies.delete(name, { path: '/' });
  // The URL as the browser asked for it: a page sees it rewritten without its locale prefix.
  const back = (locals.localeFromPrefix ? localizedPath(locals.path, locals.locale) : url.pathname) + url.search;
  return astro.redirect(`${localizedPath('/login', locals.locale)}?redirect=${encodeURIComponent(back)}`, 302);
}
