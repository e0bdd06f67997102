/**
 * What a page behind sign-in (checkout, payment and order pages) reads with: the signed-in buyer,
 * the database, the request context and the currency table, the table read once for both.
 */
import type { AstroGlobal } from 'astro';
import type { Db } from '../db/client.ts';
import type { CurrencyTable } from '../domain/money.ts';
import type { RequestContext } from '../domain/request-context.ts';
import { pageI18n } from '../i18n/page.ts';
import { pathTo } from '../routes.ts';
import { pageScope } from './context.ts';
import type { UserScope } from '../services/scope.ts';

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
