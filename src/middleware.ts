/**
 * Every page request: language (prefix, cookie, Accept-Language), channel capture, the route's
 * flags and the auth gate. A locale-prefixed URL is rewritten to the same page without the prefix.
 */
import { defineMiddleware } from 'astro:middleware';
import { CHANNEL_COOKIE, LANGUAGE_COOKIE, TOKEN_COOKIE, USER_ID_COOKIE } from './lib/config.ts';
import { localizedPath, resolveLocale } from './lib/i18n/locales.ts';
import { routeFor } from './lib/routes.ts';

const CHANNEL_MAX_AGE_S = 30 * 24 * 3600;
const CHANNEL_PATTERN = /^[\w.-]{1,64}$/;

export const onRequest = defineMiddleware(async (context, next) => {
  const { url, cookies, request } = context;
  if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return next();

  const choice = resolveLocale(url.pathname, cookies.get(LANGUAGE_COOKIE)?.value, request.headers.get('accept-language'));
  const route = routeFor(choice.path);
  context.locals.locale = choice.locale;
  context.locals.localeFromPrefix = choice.fromPrefix;
  context.locals.path = choice.path;
  context.locals.route = route;

  const channel = url.searchParams.get('channel');
  if (channel && CHANNEL_PATTERN.test(channel)) {
    cookies.set(CHANNEL_COOKIE, channel, { path: '/', maxAge: CHANNEL_MAX_AGE_S, sameSite: 'lax' });
  }

  const signedIn = cookies.has(TOKEN_COOKIE) && cookies.has(USER_ID_COOKIE);
  if (route.auth && !signedIn) {
    const target = `${localizedPath('/login', choice.locale)}?redirect=${encodeURIComponent(url.pathname + url.search)}`;
    return context.redirect(target, 302);
  }

  if (choice.fromPrefix) return next(new URL(choice.path + url.search, url));
  return next();
});
