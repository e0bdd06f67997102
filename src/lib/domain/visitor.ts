/**
 * What a page request says about its visitor — language, currency, city, the "hide for today"
 * choices, the session cookies and a channel to record — parsed once per request. The shared page
 * cache keys a page by these values and the page renders from the very same ones (the worker hands
 * them to Astro): were the key and the render to parse cookies each their own way, a quoted,
 * repeated or malformed cookie could store one visitor's page under another choice's key.
 *
 * Cookie values are taken as sent (no quotes stripped, no percent-decoding) and must have the shape
 * we set them in; a cookie sent twice is ambiguous. Either way the choice is ignored (the fallback
 * renders), except a session cookie, whose mere presence makes the page the visitor's own.
 */
import {
  CITY_COOKIE,
  CURRENCY_COOKIE,
  HIDE_APP_INFO_COOKIE,
  HIDE_POP_BOX_COOKIE,
  LANGUAGE_COOKIE,
  TOKEN_COOKIE,
  USER_ID_COOKIE,
} from '../config/request.ts';
import { isLocale, type Locale, type LocaleChoice, resolveLocale } from '../i18n/locales.ts';

const CURRENCY_SHAPE = /^[A-Za-z]{3}$/;
const CITY_SHAPE = /^[1-9]\d{0,8}$/;
/** A session token is base64url (domain/password.ts randomToken); sessions' lookups refuse longer than 128. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;
const USER_ID_SHAPE = /^[1-9]\d{0,15}$/;
const CHANNEL_SHAPE = /^[\w.-]{1,64}$/;

/** Both session cookies, each sent once in its shape: a claim still to be checked against the database. */
export interface SessionCookies {
  token: string;
  userId: string;
}

export interface Visitor {
  /** The page's language: the URL's prefix, else the language cookie, else Accept-Language, else en. */
  locale: LocaleChoice;
  /** The currency cookie, upper-cased; null without a usable one (the page's fallback). */
  currency: string | null;
  /** The city cookie; null without a usable one (the page's fallback). */
  cityId: number | null;
  hidePopBox: boolean;
  hideAppInfo: boolean;
  /** The session the cookies claim, or null when they do not both claim one usable session. */
  session: SessionCookies | null;
  /** Whether any session cookie came at all, usable or not: such a visitor's page is theirs alone. */
  sessionClaimed: boolean;
  /** The `channel` query parameter when it is one to record (a cookie the render sets). */
  channel: string | null;
}

export interface VisitorRequest {
  url: URL;
  cookieHeader: string | null;
  acceptLanguage: string | null;
}

/** A cookie sent more than once: which of its values a reader takes differs between parsers, so none is used. */
const REPEATED = Symbol('repeated');
type CookieValues = Map<string, string | typeof REPEATED>;

/** The Cookie header's name=value pairs, spaces and tabs trimmed, values as sent; a name sent twice maps to REPEATED. */
function cookieValues(header: string): CookieValues {
  const values: CookieValues = new Map();
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1) continue;
    const name = pair.slice(0, equals).trim();
    values.set(name, values.has(name) ? REPEATED : pair.slice(equals + 1).trim());
  }
  return values;
}

/** The cookie's value when it was sent once in the shape given, else null. */
function shaped(values: CookieValues, name: string, shape: RegExp): string | null {
  const value = values.get(name);
  return typeof value === 'string' && shape.test(value) ? value : null;
}

/** The language cookie when it was sent once and names one of our locales exactly. */
function languageOf(values: CookieValues): Locale | undefined {
  const value = values.get(LANGUAGE_COOKIE);
  return isLocale(value) ? value : undefined;
}

/** The visitor of a page request, from its URL, Cookie and Accept-Language headers. */
export function visitorOf({ url, cookieHeader, acceptLanguage }: VisitorRequest): Visitor {
  const cookies = cookieValues(cookieHeader ?? '');
  const currency = shaped(cookies, CURRENCY_COOKIE, CURRENCY_SHAPE);
  const cityId = shaped(cookies, CITY_COOKIE, CITY_SHAPE);
  const token = shaped(cookies, TOKEN_COOKIE, TOKEN_SHAPE);
  const userId = shaped(cookies, USER_ID_COOKIE, USER_ID_SHAPE);
  const channel = url.searchParams.get('channel');
  return {
    locale: resolveLocale(url.pathname, languageOf(cookies), acceptLanguage),
    currency: currency?.toUpperCase() ?? null,
    cityId: cityId === null ? null : Number(cityId),
    hidePopBox: cookies.has(HIDE_POP_BOX_COOKIE),
    hideAppInfo: cookies.has(HIDE_APP_INFO_COOKIE),
    session: token !== null && userId !== null ? { token, userId } : null,
    sessionClaimed: cookies.has(TOKEN_COOKIE) || cookies.has(USER_ID_COOKIE),
    channel: channel !== null && CHANNEL_SHAPE.test(channel) ? channel : null,
  };
}
