/**
 * What every call carries (SPEC.md section 7): language, currency, client type and city id.
 * Headers first, then the visitor's cookies (parsed once, domain/visitor.ts), then defaults; anything
 * malformed falls back silently.
 */
import { REQUEST_CONTEXT } from '../config/request.ts';
import { isLocale, type Locale } from '../i18n/locales.ts';
import type { Visitor } from './visitor.ts';

export interface RequestContext {
  locale: Locale;
  currency: string;
  clientType: number;
  /** -1 when the caller asked to ignore the city. */
  cityId: number;
}

export interface ContextSources {
  header: (name: string) => string | null | undefined;
  /** The visitor's language (cookie, then Accept-Language), currency and city. */
  visitor: Pick<Visitor, 'locale' | 'currency' | 'cityId'>;
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
  const { language, currency, clientType, cityId } = REQUEST_CONTEXT;
  const { visitor } = src;
  const headerLocale = src.header(language.header);
  const locale = isLocale(headerLocale) ? headerLocale : visitor.locale.locale;

  const currencyCandidates = [src.header(currency.header)?.trim().toUpperCase(), visitor.currency];
  const knownCurrency = currencyCandidates.find((c): c is string => !!c && src.knownCurrencies.has(c)) ?? currency.fallback;

  const city = src.ignoreCityId ? cityId.ignored : (positiveInt(src.header(cityId.header)) ?? visitor.cityId ?? cityId.fallback);

  return { locale, currency: knownCurrency, clientType: positiveInt(src.header(clientType.header)) ?? clientType.fallback, cityId: city };
}
