/** The request context of a rendered page: the page's locale, plus currency and city from cookies. */
import type { AstroGlobal } from 'astro';
import { env } from 'cloudflare:workers';
import { database, type Db } from '../db/client.ts';
import type { CurrencyTable } from '../domain/money.ts';
import { readRequestContext, type RequestContext } from '../domain/request-context.ts';
import { currencyTable } from '../services/currency.ts';
import type { RequestScope } from '../services/scope.ts';

type PageAstro = Pick<AstroGlobal, 'cookies' | 'locals' | 'request'>;

/** The currency table, read once per request however many components of the page ask for it. */
export function pageCurrencies(db: Db, astro: Pick<AstroGlobal, 'locals'>): Promise<CurrencyTable> {
  astro.locals.currencies ??= currencyTable(db, Date.now());
  return astro.locals.currencies;
}

export async function pageContext(db: Db, astro: PageAstro): Promise<RequestContext> {
  const table = await pageCurrencies(db, astro);
  const ctx = readRequestContext({
    // Pages take no API headers: the language is the page's own, the rest comes from cookies.
    header: () => undefined,
    cookie: (name) => astro.cookies.get(name)?.value,
    ignoreCityId: false,
    knownCurrencies: new Set(table.keys()),
  });
  return { ...ctx, locale: astro.locals.locale };
}

/** The scope a page's service calls take: the page's database, request context, currency table, clock and the worker's env. */
export async function pageScope(astro: PageAstro): Promise<RequestScope> {
  const db = database(env.DB);
  const [ctx, currencies] = await Promise.all([pageContext(db, astro), pageCurrencies(db, astro)]);
  return { db, ctx, currencies, now: Date.now(), env };
}
