/**
 * The console's exchange rates (/ops/rates): each currency's rate, source and age; its forms (posted
 * to the page itself) pin a rate, unpin it, or refresh from the provider now. A change that succeeds
 * comes back as a GET saying what it did; a refused pin re-shows what was typed with its error.
 */
import type { AstroGlobal } from 'astro';
import { statusOf } from '../api/errors.ts';
import { DomainError } from '../domain/errors.ts';
import { currencyCodeProblem } from '../domain/fx-rates.ts';
import { pageI18n } from '../i18n/page.ts';
import { pinRate, type RateView, ratesTable, unpinRate } from '../services/rates/rates.ts';
import { ratesProvider, refreshRates } from '../services/rates/refresh.ts';
import type { StaffScope } from '../services/platform/scope.ts';
import { PageExit } from './page-exit.ts';
import { staffPage } from './staff-page.ts';

export interface RatesPage {
  scope: StaffScope;
  rates: RateView[];
  notice: string | null;
  /** A refused pin: its currency, the message and what was typed. */
  error: { quote: string; message: string; typed: string } | null;
}

type PageAstro = Pick<AstroGlobal, 'locals' | 'request' | 'url' | 'response'>;

export async function ratesPage(astro: PageAstro): Promise<RatesPage | PageExit> {
  const page = await staffPage(astro, 'rates');
  if (page instanceof PageExit) return page;
  const { scope } = page;
  const { t, link } = pageI18n(astro.locals);
  let error: RatesPage['error'] = null;
  if (astro.request.method === 'POST') {
    const form = await astro.request.formData();
    const action = String(form.get('action') ?? '');
    const quote = String(form.get('quote') ?? '');
    const typed = String(form.get('rate') ?? '');
    const back = (query: Record<string, string>) => PageExit.redirect(`${link('/ops/rates')}?${new URLSearchParams(query)}`, 303);
    try {
      if (action === 'refresh') {
        const outcome = await refreshRates(scope.db, ratesProvider(scope.env), scope.now, scope);
        return outcome.outcome === 'updated'
          ? back({ done: 'refreshed', count: String(outcome.updated.length) })
          : back({ done: 'kept', reason: outcome.reason });
      }
      if (currencyCodeProblem(quote)) return PageExit.notFound;
      if (action === 'pin') {
        const pinned = await pinRate(scope, quote, typed);
        return back({ done: 'pinned', quote, rate: pinned.perHkd });
      }
      if (action === 'unpin') {
        await unpinRate(scope, quote);
        return back({ done: 'unpinned', quote });
      }
      return PageExit.notFound;
    } catch (cause) {
      if (!(cause instanceof DomainError)) throw cause;
      if (cause.code === 'rate_not_found') return PageExit.notFound;
      error = { quote, message: t(`error.${cause.code}`, cause.params), typed };
      astro.response.status = statusOf(cause);
    }
  }
  return { scope, rates: await ratesTable(scope.db, scope.now), notice: error ? null : noticeOf(astro.url.searchParams, t), error };
}

function noticeOf(query: URLSearchParams, t: ReturnType<typeof pageI18n>['t']): string | null {
  const quote = (query.get('quote') ?? '').slice(0, 3);
  switch (query.get('done')) {
    case 'pinned':
      return t('ops.rates.pinned', { quote, rate: (query.get('rate') ?? '').slice(0, 24) });
    case 'unpinned':
      return t('ops.rates.unpinned', { quote });
    case 'refreshed':
      return t('ops.rates.refreshed', { count: Number(query.get('count')) || 0 });
    case 'kept':
      return t('ops.rates.kept', { reason: (query.get('reason') ?? '').slice(0, 200) });
    default:
      return null;
  }
}
