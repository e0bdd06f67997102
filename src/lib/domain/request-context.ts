/**
 * What every call carries (SPEC.md section 7): language, currency, client type and city id.
 * Headers first, then cookies, then defaults; anything malformed falls back silently.
 */
import {
  CITY_COOKIE,
  CLIENT_TYPE,
  CURRENCY_COOKIE,
  DEFAULT_CITY_ID,
  DEFAULT_CURRENCY,
  HEADER,
  IGNORED_CITY_ID,
  LANGUAGE_COOKIE,
} from '../config.ts';
import { DEFAULT_LOCALE, isLocale, matchAcceptLanguage, type Locale } from '../i18n/locales.ts';

export interface RequestContext {
  locale: Locale;
  currency: string;
  clientType: number;
  /** -1 when the caller asked to ignore the city. */
  cityId: number;
}

export interface ContextSources {
  header: (name: string) => string | null | undefined;
  cookie: (name: string) => string | undefined;
  ignoreCityId: boolean;
  knownCurrencies: ReadonlySet<string>;
}

function positiveInt(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,9}$/.test(value.trim())) return null;
  const parsed = Number(value.trim());
  return parsed > 0 ? parsed : null;
}

/** Builds the request context from headers, cookies and defaults. */
export function readRequestContext(src: ContextSources): RequestContext {
  const headerLocale = src.header(HEADER.language);
  const cookieLocale = src.cookie(LANGUAGE_COOKIE);
  const locale = isLocale(headerLocale)
    ? headerLocale
    : isLocale(cookieLocale)
      ? cookieLocale
      : (matchAcceptLanguage(src.header('accept-language')) ?? DEFAULT_LOCALE);

  const currencyCandidates = [src.header(HEADER.currency), src.cookie(CURRENCY_COOKIE)].map((c) => c?.trim().toUpperCase());
  const currency = currencyCandidates.find((c): c is string => !!c && src.knownCurrencies.has(c)) ?? DEFAULT_CURRENCY;

  const cityId = src.ignoreCityId
    ? IGNORED_CITY_ID
    : (positiveInt(src.header(HEADER.cityId)) ?? positiveInt(src.cookie(CITY_COOKIE)) ?? DEFAULT_CITY_ID);

  return { locale, currency, clientType: positiveInt(src.header(HEADER.clientType)) ?? CLIENT_TYPE, cityId };
}
