/** The request context of a rendered page: the page's locale, plus currency and city from the visitor the worker parsed. */
import type { AstroGlobal } from 'astro';
import { env } from 'cloudflare:workers';
import { readRequestContext } from '../domain/request-context.ts';
import { durableOnSaleObjects } from '../durable-objects/on-sale-objects.ts';
import { referenceData } from '../services/catalogue/reference-data.ts';
import type { RequestScope } from '../services/platform/scope.ts';

type PageAstro = Pick<AstroGlobal, 'locals'>;

async function buildPageScope(astro: PageAstro): Promise<RequestScope> {
  const { db } = astro.locals;
  const now = Date.now();
  const reference = await referenceData(db, now, astro.locals.edge.referenceVersion);
  const currencies = reference.currencyTable;
  const ctx = readRequestContext({
    // Pages take no API headers: the language is the page's own, the rest the visitor's cookies.
    header: () => undefined,
    visitor: astro.locals.visitor,
    ignoreCityId: false,
    knownCurrencies: new Set(currencies.keys()),
  });
  return { db, ctx: { ...ctx, locale: astro.locals.locale }, currencies, reference, now, env, onSales: durableOnSaleObjects(env) };
}

/**
 * The scope a page's service calls take: the page's database, request context, reference tables,
 * clock and the worker's env; built once per request however many components of the page ask.
 */
export function pageScope(astro: PageAstro): Promise<RequestScope> {
  astro.locals.scope ??= buildPageScope(astro);
  return astro.locals.scope;
}
