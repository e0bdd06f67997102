/** The console's on-sales list (/ops/on-sales): its filter read from the URL (so a filtered list can be shared), and the sessions it finds. */
import type { AstroGlobal } from 'astro';
import { ON_SALE_WHEN, type OnSaleFilter, type OnSaleRow, type OnSaleWhen, onSaleSessions } from '../services/on-sale/on-sale-console.ts';
import type { StaffScope } from '../services/platform/scope.ts';
import { PageExit } from './page-exit.ts';
import { staffPage } from './staff-page.ts';

export interface OnSalesPage {
  scope: StaffScope;
  filter: OnSaleFilter;
  rows: OnSaleRow[];
}

/** The filter of the query: unknown values fall back to the whole list. */
function filterOf(query: URLSearchParams): OnSaleFilter {
  const when = query.get('when');
  return {
    when: (ON_SALE_WHEN as readonly string[]).includes(when ?? '') ? (when as OnSaleWhen) : 'all',
    highDemandOnly: query.get('highDemand') === '1',
    query: (query.get('q') ?? '').slice(0, 100),
  };
}

export async function onSalesPage(astro: Pick<AstroGlobal, 'locals' | 'url'>): Promise<OnSalesPage | PageExit> {
  const page = await staffPage(astro, 'on_sale');
  if (page instanceof PageExit) return page;
  const filter = filterOf(astro.url.searchParams);
  return { scope: page.scope, filter, rows: await onSaleSessions(page.scope, filter) };
}
