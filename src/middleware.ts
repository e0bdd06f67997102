/**
 * Every page request: security headers, the visitor the worker parsed (language, currency, city,
 * session cookies: edge/page-request.ts), channel capture, the route's flags, the auth gate (a live session
 * in the database) and no caching of a personal page. A locale-prefixed URL arrives without its
 * prefix, which the worker took off (edge/locale-prefix.ts).
 */
import type { APIContext, MiddlewareNext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { env } from 'cloudflare:workers';
import { CHANNEL_COOKIE, CHANNEL_COOKIE_MAX_AGE_S, PERSONAL_CACHE_CONTROL, REPLICA_BOOKMARK_COOKIE } from './lib/config/request.ts';
import { localizedPath } from './lib/i18n/locales.ts';
import { handedEdgeContext, keepUnshared } from './lib/edge/page-request.ts';
import { routeFor } from './lib/routes.ts';
import { bookmarkOf, database } from './lib/data/client.ts';
import { isPersonalAnswer } from './lib/http/page-cache.ts';
import { bookmarkCookie, mayWrite, usableBookmark } from './lib/data/replica-bookmark.ts';
import { publicOrigin } from './lib/domain/public-origin.ts';
import { isAllowedOrigin, securityHeaders } from './lib/http/security.ts';
import { FORBIDDEN_PAGE_PATH, loginRedirect } from './lib/edge/login-redirect.ts';
import { userOfCookies } from './lib/services/accounts/sessions.ts';
import { claimedSignIn } from './lib/services/accounts/signed-in.ts';

/** The answer with our security headers added (a header the page chose itself stays, e.g. the voucher's referrer policy). */
function withSecurityHeaders(response: Response): Response {
  // A redirect made by Response.redirect has immutable headers: copy it first.
  const answer = response.status >= 300 && response.status < 400 ? new Response(response.body, response) : response;
  for (const [name, value] of Object.entries(securityHeaders({ production: env.APP_ENV !== 'local' }))) {
    if (!answer.headers.has(name)) answer.headers.set(name, value);
  }
  return answer;
}

export const onRequest = defineMiddleware(async (context, next) =>
  withSecurityHeaders(withReplicaBookmark(context, withConsoleHeaders(context, withPersonalCaching(context, await answer(context, next))))),
);

/** The staff console: no cache keeps any of its pages, its sign-in included, and no search engine lists them. */
function withConsoleHeaders(context: APIContext, response: Response): Response {
  if (!context.locals.route.console) return response;
  keepUnshared(context.locals);
  const answer = new Response(response.body, response);
  answer.headers.set('Cache-Control', PERSONAL_CACHE_CONTROL);
  answer.headers.set('X-Robots-Tag', 'noindex, nofollow');
  return answer;
}

/** A page behind sign-in, or any page rendered for a visitor who sent session cookies, is theirs: no cache keeps it. */
function withPersonalCaching(context: APIContext, response: Response): Response {
  const { route, visitor } = context.locals;
  if (!isPersonalAnswer(route.auth, visitor, response.headers.get('content-type'))) return response;
  keepUnshared(context.locals);
  // A redirect made by Response.redirect has immutable headers: copy it first.
  const answer = response.status >= 300 && response.status < 400 ? new Response(response.body, response) : response;
  answer.headers.set('Cache-Control', PERSONAL_CACHE_CONTROL);
  return answer;
}

/** After a page's form wrote, the browser keeps the bookmark, so its next reads see the write whichever replica answers. */
function withReplicaBookmark(context: APIContext, response: Response): Response {
  const bookmark = mayWrite(context.request.method) && context.locals.db ? bookmarkOf(context.locals.db) : null;
  if (!bookmark) return response;
  keepUnshared(context.locals);
  const answer = new Response(response.body, response);
  const secure = env.APP_ENV !== 'local' || context.url.protocol === 'https:';
  answer.headers.append('Set-Cookie', bookmarkCookie(bookmark, secure));
  return answer;
}

async function answer(context: APIContext, next: MiddlewareNext): Promise<Response> {
  const { url, cookies, request } = context;

  const edge = handedEdgeContext(context.locals.cfContext);
  context.locals.edge = edge;
  const { visitor } = edge;
  context.locals.visitor = visitor;
  const choice = visitor.locale;
  const route = routeFor(choice.path);
  context.locals.locale = choice.locale;
  context.locals.localeFromPrefix = choice.fromPrefix;
  context.locals.path = choice.path;
  // The path as the visitor asked for it, in Astro's form (decoded, with a trailing slash).
  context.locals.originPathname = choice.fromPrefix ? localizedPath(context.originPathname, choice.locale) : context.originPathname;
  context.locals.route = route;
  context.locals.db = database(env.DB, usableBookmark(cookies.get(REPLICA_BOOKMARK_COOKIE)?.value));

  // A write another site's form made: refused before anything acts on it, with the error page in the visitor's language.
  const fromAllowedOrigin = isAllowedOrigin({
    method: request.method,
    origin: request.headers.get('origin') ?? undefined,
    secFetchSite: request.headers.get('sec-fetch-site') ?? undefined,
    contentType: request.headers.get('content-type') ?? undefined,
    ownOrigins: [url.origin, publicOrigin(env, url)].filter((origin) => origin !== null),
  });
  if (!fromAllowedOrigin) {
    context.locals.route = routeFor(FORBIDDEN_PAGE_PATH);
    return next(FORBIDDEN_PAGE_PATH);
  }

  if (visitor.channel !== null) {
    keepUnshared(context.locals);
    cookies.set(CHANNEL_COOKIE, visitor.channel, {
      path: '/',
      maxAge: CHANNEL_COOKIE_MAX_AGE_S,
      sameSite: 'lax',
      secure: env.APP_ENV !== 'local' || url.protocol === 'https:',
    });
  }

  if (route.auth) {
    // Both cookies must be there and the token must be a live session of that user id: checked here,
    // or, for a page that reads the session with its own data, there (the claim is all it takes here).
    const { session } = visitor;
    if (route.sessionReadByPage) {
      const claim = await claimedSignIn(context.locals.db, session?.token, session?.userId, Date.now(), true);
      if (!claim) return loginRedirect(context);
      context.locals.claim = claim;
    } else {
      const user = await userOfCookies(context.locals.db, session, Date.now());
      if (!user) return loginRedirect(context);
      context.locals.user = user;
    }
  }

  return next();
}
