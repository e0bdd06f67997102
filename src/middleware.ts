/**
 * Every page request: security headers, language (prefix, cookie, Accept-Language), channel capture,
 * the route's flags and the auth gate (a live session in the database). A locale-prefixed URL arrives without
 * its prefix, which the worker took off and names in a header (pages/locale-prefix.ts).
 */
import type { APIContext, MiddlewareNext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { env } from 'cloudflare:workers';
import { CHANNEL_COOKIE, LANGUAGE_COOKIE, REPLICA_BOOKMARK_COOKIE, TOKEN_COOKIE, USER_ID_COOKIE } from './lib/config.ts';
import { localizedPath, resolveLocale, type LocaleChoice } from './lib/i18n/locales.ts';
import { strippedLocalePrefix } from './lib/pages/locale-prefix.ts';
import { routeFor } from './lib/routes.ts';
import { bookmarkOf, database } from './lib/db/client.ts';
import { bookmarkCookie, mayWrite, usableBookmark } from './lib/domain/replica-bookmark.ts';
import { publicOrigin } from './lib/domain/public-origin.ts';
import { isAllowedOrigin, securityHeaders } from './lib/domain/security.ts';
import { loginRedirect } from './lib/pages/signed-in.ts';
import { userOfCookies } from './lib/services/auth.ts';
import { claimedSignIn } from './lib/services/signed-in.ts';

const CHANNEL_MAX_AGE_S = 30 * 24 * 3600;
const CHANNEL_PATTERN = /^[\w.-]{1,64}$/;
/** src/pages/403.astro. */
const FORBIDDEN_PAGE_PATH = '/403';

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
  withSecurityHeaders(withReplicaBookmark(context, await answer(context, next))),
);

/** After a page's form wrote, the browser keeps the bookmark, so its next reads see the write whichever replica answers. */
function withReplicaBookmark(context: APIContext, response: Response): Response {
  const bookmark = mayWrite(context.request.method) && context.locals.db ? bookmarkOf(context.locals.db) : null;
  if (!bookmark) return response;
  const answer = new Response(response.body, response);
  const secure = env.APP_ENV !== 'local' || context.url.protocol === 'https:';
  answer.headers.append('Set-Cookie', bookmarkCookie(bookmark, secure));
  return answer;
}

async function answer(context: APIContext, next: MiddlewareNext): Promise<Response> {
  const { url, cookies, request } = context;

  const prefix = strippedLocalePrefix(request);
  const choice: LocaleChoice = prefix
    ? { locale: prefix, fromPrefix: true, path: url.pathname }
    : resolveLocale(url.pathname, cookies.get(LANGUAGE_COOKIE)?.value, request.headers.get('accept-language'));
  const route = routeFor(choice.path);
  context.locals.locale = choice.locale;
  context.locals.localeFromPrefix = choice.fromPrefix;
  context.locals.path = choice.path;
  // The path as the visitor asked for it, in Astro's form (decoded, with a trailing slash).
  context.locals.originPathname = prefix ? localizedPath(context.originPathname, prefix) : context.originPathname;
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

  const channel = url.searchParams.get('channel');
  if (channel && CHANNEL_PATTERN.test(channel)) {
    cookies.set(CHANNEL_COOKIE, channel, {
      path: '/',
      maxAge: CHANNEL_MAX_AGE_S,
      sameSite: 'lax',
      secure: env.APP_ENV !== 'local' || url.protocol === 'https:',
    });
  }

  if (route.auth) {
    // Both cookies must be there and the token must be a live session of that user id: checked here,
    // or, for a page that reads the session with its own data, there (the claim is all it takes here).
    const token = cookies.get(TOKEN_COOKIE)?.value;
    const userId = cookies.get(USER_ID_COOKIE)?.value;
    if (route.sessionReadByPage) {
      const claim = await claimedSignIn(context.locals.db, token, userId, Date.now(), true);
      if (!claim) return loginRedirect(context);
      context.locals.claim = claim;
    } else {
      const user = await userOfCookies(context.locals.db, token, userId, Date.now());
      if (!user) return loginRedirect(context);
      context.locals.user = user;
    }
  }

  return next();
}
