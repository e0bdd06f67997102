/**
 * Who is calling, as Hono middleware: routes behind sign-in take `signedIn` and read `c.var.user`;
 * routes that also serve visitors take `maybeSignedIn` and read `c.var.user` as the user or null.
 * The services only ever see the user (services/accounts/sessions.ts's sessionUser reads the token). The checkout
 * routes take `claimsSignIn` instead: their service reads the session with its own rows
 * (services/accounts/signed-in.ts), one round trip fewer.
 */
import { createMiddleware } from 'hono/factory';
import { getCookie } from 'hono/cookie';
import { TOKEN_COOKIE, USER_ID_COOKIE } from '../config/request.ts';
import { DomainError } from '../domain/errors.ts';
import { sessionUser, type SessionUser } from '../services/accounts/sessions.ts';
import type { ClaimedUserScope, UserScope } from '../services/platform/scope.ts';
import { claimedSignIn } from '../services/accounts/signed-in.ts';
import type { ApiEnv } from './context.ts';

/** The env of a handler behind `signedIn`, for middleware that runs after it (a seller or operator check). */
export type SignedInEnv = ApiEnv & { Variables: { user: SessionUser; scope: UserScope } };

/** The signed-in user of the request's session cookie (and the scope with their id), or a 401 (which also clears the session cookies). */
export const signedIn = createMiddleware<SignedInEnv>(async (c, next) => {
  const user = await sessionUser(c.get('db'), getCookie(c, TOKEN_COOKIE), c.var.scope.now);
  if (!user) throw new DomainError('unauthorized');
  c.set('user', user);
  c.set('scope', { ...c.var.scope, userId: user.userId });
  await next();
});

/** The signed-in user, or null for a visitor (no error: these routes work signed out too). */
export const maybeSignedIn = createMiddleware<ApiEnv & { Variables: { user: SessionUser | null } }>(async (c, next) => {
  c.set('user', await sessionUser(c.get('db'), getCookie(c, TOKEN_COOKIE), c.var.scope.now));
  await next();
});

/**
 * A caller with a session cookie, whose service confirms the session in its own first read
 * (`c.var.scope` is a ClaimedUserScope); no plausible token is a 401 at once. As the session is read
 * with the service's rows, a bad input is refused before a dead session is.
 */
export const claimsSignIn = createMiddleware<ApiEnv & { Variables: { scope: ClaimedUserScope } }>(async (c, next) => {
  const { scope } = c.var;
  const claim = await claimedSignIn(scope.db, getCookie(c, TOKEN_COOKIE), getCookie(c, USER_ID_COOKIE), scope.now);
  if (!claim) throw new DomainError('unauthorized');
  c.set('scope', { ...scope, ...claim });
  await next();
});
