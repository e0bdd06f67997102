/**
 * What the page that lists an order's tickets for sale renders (auth route): the draft of the
 * transfer listing. An order that is malformed, missing or someone else's exits to the 404 page.
 */
import type { AstroGlobal } from 'astro';
import { parseOrderId } from '../domain/order-pages.ts';
import { messagesFor } from '../i18n/index.ts';
import { pageI18n } from '../i18n/page.ts';
import { orNotFound } from './not-found.ts';
import { pathTo } from '../routes.ts';
import { signedInPage } from './signed-in.ts';
import { transferDraft } from '../services/marketplace/transfer-listings.ts';
import { PageExit } from './page-exit.ts';

export async function loadOrderSell(astro: AstroGlobal) {
  const { locale, link } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;
  const { userId, db, ctx, currencies } = signedIn;
  const orderId = parseOrderId(astro.params.id);
  if (orderId === null) return PageExit.notFound;

  const draft = await orNotFound(transferDraft(db, ctx, currencies, userId, orderId, Date.now()));
  if (draft instanceof PageExit) return draft;
  const orderHref = link(pathTo('orderDetailPage', { id: draft.order.id }));
  const messages = messagesFor(locale, [
    'transfer.sell.',
    'error.transfer_',
    'error.currency_',
    'error.network',
    'error.timeout',
    'common.opensInNewTab',
  ]);
  return {
    draft,
    messages,
    orderHref,
  };
}
