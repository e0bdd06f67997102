/**
 * What the order list renders (auth route): one page of the buyer's orders, filtered as the URL says.
 */
import type { AstroGlobal } from 'astro';
import { orderListSearch, pageCount, parseOrderListQuery, statusKeys, type OrderListQuery } from '../domain/order-pages.ts';
import { pageI18n } from '../i18n/page.ts';
import { pathTo } from '../routes.ts';
import { listOrders } from '../services/orders/queries.ts';
import { signedInPage } from './signed-in.ts';
import { PageExit } from './page-exit.ts';

export async function loadOrderList(astro: AstroGlobal) {
  const { t, link } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;

  const query = parseOrderListQuery(astro.url.searchParams);
  const list = await listOrders(signedIn.scope, query);
  const pages = pageCount(list.total, list.pageSize);

  const listPath = link(pathTo('orderListPage'));
  const hrefOf = (change: Partial<OrderListQuery>) => listPath + orderListSearch({ ...query, ...change });
  const statusText = (order: (typeof list.items)[number]) =>
    statusKeys(order.status, order.paymentSubstatus)
      .map((key) => t(key))
      .join(' · ');
  return {
    hrefOf,
    list,
    listPath,
    pages,
    query,
    statusText,
  };
}
