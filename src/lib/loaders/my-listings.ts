/**
 * What the seller's listings page renders (auth route): their transfer listings, their payouts and the
 * currencies a price may be set in.
 */
import type { AstroGlobal } from 'astro';
import { formatOrderTime } from '../domain/order-pages.ts';
import { messagesFor } from '../i18n/index.ts';
import { pageI18n } from '../i18n/page.ts';
import { signedInPage } from './signed-in.ts';
import { listMyTransferListings } from '../services/marketplace/transfer-views.ts';
import { myPayouts } from '../services/marketplace/seller-payouts.ts';
import { PageExit } from './page-exit.ts';

export async function loadMyListings(astro: AstroGlobal) {
  const { locale } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;
  const { currencies } = signedIn;

  const [listings, payouts] = await Promise.all([listMyTransferListings(signedIn.scope), myPayouts(signedIn.scope)]);
  const time = (ms: number) => formatOrderTime(ms, locale);
  const currencyChoices = [...currencies.values()].map(({ code, minorDigits }) => ({ code, minorDigits }));
  const messages = messagesFor(locale, [
    'transfer.mine.',
    'transfer.sell.currency',
    'transfer.sell.priceInvalid',
    'error.network',
    'error.timeout',
  ]);
  return {
    listings,
    payouts,
    currencyChoices,
    messages,
    time,
  };
}
