/** The request context of a rendered page: the page's locale, plus currency and city from cookies. */
import type { AstroGlobal } from 'astro';
import type { Db } from '../db/client.ts';
import type { CurrencyTable } from '../domain/money.ts';
import { readRequestContext, type RequestContext } from '../domain/request-context.ts';
import { loadCurrencyTable } from './currency.ts';

/** `currencies`, when the page has loaded the table already, saves reading it twice. */
export async function pageContext(
  db: Db, astro: Pick<AstroGlobal, 'cookies' | 'locals' | 'request'>, currencies?: CurrencyTable,
): Promise<RequestContext> {
  const table = currencies ?? (await loadCurrencyTable(db));
  const ctx = readRequestContext({
    // Pages take no API headers: the language is the page's own, the rest comes from cookies.
    header: () => undefined,
    cookie: (name) => astro.cookies.get(name)?.value,
    ignoreCityId: false,
    knownCurrencies: new Set(table.keys()),
  });
  return { ...ctx, locale: astro.locals.locale };
}
