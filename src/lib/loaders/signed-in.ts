/**
 * What a page behind sign-in (checkout, payment and order pages) reads with: the signed-in buyer,
 * the database, the request context and the currency table, the table read once for both.
 */
import type { AstroGlobal } from 'astro';
import type { Db } from '../data/client.ts';
import type { CurrencyTable } from '../domain/money.ts';
import type { RequestContext } from '../domain/request-context.ts';
import { pageScope } from '../edge/page-scope.ts';
import { pageI18n } from '../i18n/page.ts';
import { pathTo } from '../routes.ts';
import type { ClaimedUserScope, UserScope } from '../services/platform/scope.ts';
import { PageExit } from './page-exit.ts';

export interface SignedInPage {
  userId: number;
  db: Db;
  ctx: RequestContext;
  currencies: CurrencyTable;
  /** The same, as the scope the services take (built as the API builds it, by pageScope). */
  scope: UserScope;
}

type PageAstro = Pick<AstroGlobal, 'locals'>;

/** Login, when no one is signed in (the middleware sends visitors of auth routes there first; this keeps a page from rendering without a user regardless). */
function toLogin(astro: PageAstro): PageExit {
  return PageExit.redirect(pageI18n(astro.locals).link(pathTo('loginPage')), 302);
}

/** The page's reading kit, or the exit to login when no one is signed in. */
export async function signedInPage(astro: PageAstro): Promise<SignedInPage | PageExit> {
  const user = astro.locals.user;
  if (!user) return toLogin(astro);
  const scope = { ...(await pageScope(astro)), userId: user.userId };
  return { userId: user.userId, db: scope.db, ctx: scope.ctx, currencies: scope.currencies, scope };
}

/**
 * The scope of a page that reads the session in its own first batch (RouteDef.sessionReadByPage):
 * the middleware's claim, which the page's service confirms (a DomainError `unauthorized` if not,
 * for the page to exit with PageExit.signIn), or the exit to login when there is none.
 */
export async function claimedPage(astro: PageAstro): Promise<ClaimedUserScope | PageExit> {
  const { claim } = astro.locals;
  if (!claim) return toLogin(astro);
  return { ...(await pageScope(astro)), ...claim };
}
