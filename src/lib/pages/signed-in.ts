/**
 * What a page behind sign-in (checkout, payment and order pages) reads with: the signed-in buyer,
 * the database, the request context and the currency table, the table read once for both.
 */
import type { APIContext, AstroGlobal } from 'astro';
import { TOKEN_COOKIE, USER_ID_COOKIE } from '../config/request.ts';
import type { Db } from '../data/client.ts';
import type { CurrencyTable } from '../domain/money.ts';
import type { RequestContext } from '../domain/request-context.ts';
import { pageI18n } from '../i18n/page.ts';
import { pathTo } from '../routes.ts';
import { pageScope } from './context.ts';
import type { ClaimedUserScope, UserScope } from '../services/platform/scope.ts';
import { localizedPath } from '../i18n/locales.ts';

export interface SignedInPage {
  userId: number;
  db: Db;
  ctx: RequestContext;
  currencies: CurrencyTable;
  /** The same, as the scope the services take (built as the API builds it, by pageScope). */
  scope: UserScope;
}

/**
 * The page's reading kit, or the redirect to login when no one is signed in (the middleware sends
 * visitors of auth routes there first; this keeps a page from rendering without a user regardless).
 */
export async function signedInPage(astro: AstroGlobal): Promise<SignedInPage | Response> {
  const user = astro.locals.user;
  if (!user) return astro.redirect(pageI18n(astro.locals).link(pathTo('loginPage')), 302);
  const scope = { ...(await pageScope(astro)), userId: user.userId };
  return { userId: user.userId, db: scope.db, ctx: scope.ctx, currencies: scope.currencies, scope };
}

/** The way back from a page behind sign-in without a live session: its cookies cleared, to login, then back here. */
export function loginRedirect(astro: Pick<APIContext, 'cookies' | 'url' | 'redirect' | 'locals'>): Response {
  const { url, locals } = astro;
  if (locals.visitor.sessionClaimed) for (const name of [TOKEN_COOKIE, USER_ID_COOKIE]) astro.cookies.delete(name, { path: '/' });
  // The URL as the browser asked for it: a page sees it rewritten without its locale prefix.
  const back = (locals.localeFromPrefix ? localizedPath(locals.path, locals.locale) : url.pathname) + url.search;
  return astro.redirect(`${localizedPath('/login', locals.locale)}?redirect=${encodeURIComponent(back)}`, 302);
}

/**
 * The scope of a page that reads the session in its own first batch (RouteDef.sessionReadByPage):
 * the middleware's claim, which the page's service confirms (a DomainError `unauthorized` if not,
 * for the page to answer with loginRedirect), or the redirect to login when there is none.
 */
export async function claimedPage(astro: AstroGlobal): Promise<ClaimedUserScope | Response> {
  const { claim } = astro.locals;
  if (!claim) return astro.redirect(pageI18n(astro.locals).link(pathTo('loginPage')), 302);
  return { ...(await pageScope(astro)), ...claim };
}
