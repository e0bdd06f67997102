/**
 * What the coupon list renders (auth route): the user's coupons under the URL's tab, with what each
 * offers and until when.
 */
import type { AstroGlobal } from 'astro';
import { parseCouponTab } from '../domain/coupons.ts';
import { formatCouponDate } from '../domain/confirm-query.ts';
import { pageI18n } from '../i18n/page.ts';
import { pathTo } from '../routes.ts';
import { couponAmountText, listCoupons, type CouponCard } from '../services/orders/coupons.ts';
import { signedInPage } from './signed-in.ts';
import { PageExit } from './page-exit.ts';

export async function loadCouponList(astro: AstroGlobal) {
  const { locale, t, link } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;

  const tab = parseCouponTab(astro.url.searchParams.get('tab'));
  const list = await listCoupons(signedIn.scope, tab);
  const listPath = link(pathTo('couponListPage'));
  const date = (ms: number) => formatCouponDate(ms, locale);
  const offer = (card: CouponCard) =>
    card.kind === 'rate'
      ? t('coupons.rate', { fold: card.fold ?? '', percent: card.percentOff ?? 0 })
      : t('coupons.amountOff', { amount: card.amount ? couponAmountText(card.amount, card.amountInUserCurrency, t) : '' });
  const minSpend = (card: CouponCard) =>
    card.minSpend
      ? t('coupons.minSpend', { amount: couponAmountText(card.minSpend, card.minSpendInUserCurrency, t) })
      : t('coupons.noMinimum');
  return {
    minSpend,
    date,
    list,
    listPath,
    offer,
    tab,
  };
}
