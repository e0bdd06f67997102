/**
 * What the payment page of an order renders (auth route): the order, the methods offered for its
 * currency and the outcome pages' links. An order this page no longer tells the truth about (paid,
 * failed, cancelled) goes to the outcome page that does; a return from the provider, to this page
 * without its return mark.
 */
import type { AstroGlobal } from 'astro';
import { inAppBrowserOf } from '../domain/payment-browser.ts';
import { offeredPaymentMethods } from '../domain/payment-provider-choice.ts';
import { isPaymentMethod, isQrMethod, payPageFor, payPagePath } from '../domain/payment-outcome.ts';
import { messagesFor } from '../i18n/index.ts';
import { pageI18n } from '../i18n/page.ts';
import { paymentSetup } from '../services/payments/providers/index.ts';
import { paymentPageData } from '../services/payments/payment-page.ts';
import { signedInPage } from './signed-in.ts';
import { keepPrivate } from '../edge/page-request.ts';
import { PageExit } from './page-exit.ts';

export async function loadOrderPay(astro: AstroGlobal) {
  const { locale, t, link } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;

  const { now } = signedIn.scope;
  const data = await paymentPageData(signedIn.scope, astro.params.id);
  if (!data) return PageExit.notFound;
  const { state, order } = data;

  const returned = astro.url.searchParams.get('returned') === '1';
  const belongs = payPageFor({ orderStatus: state.orderStatus, paymentStatus: state.paymentStatus }, returned ? 'returned' : 'pay');
  if (belongs !== 'pay') return PageExit.redirect(link(payPagePath(belongs, order.id)), 303);
  // Leave the provider's return address: a reload must not count as another return.
  if (returned) return PageExit.redirect(link(payPagePath('pay', order.id)), 303);

  const offered = offeredPaymentMethods(paymentSetup(signedIn.scope.env), order.total.currency);
  const methods = offered.map((id) => ({ id, label: t(`payment.${id}`), qr: isQrMethod(id) }));
  const initialMethod = isPaymentMethod(order.paymentMethod) && offered.includes(order.paymentMethod) ? order.paymentMethod : offered[0];
  const outcomeHrefs = {
    success: link(payPagePath('success', order.id)),
    fail: link(payPagePath('fail', order.id)),
    cancel: link(payPagePath('cancel', order.id)),
  };
  const inApp = inAppBrowserOf(astro.request.headers.get('user-agent'));
  const messages = messagesFor(locale, ['payment.page.', 'common.opensInNewTab', 'error.network', 'error.timeout']);
  // The page shows the time left as it was rendered; it must never be cached and replayed.
  keepPrivate(astro);
  return {
    inApp,
    initialMethod,
    messages,
    methods,
    now,
    order,
    outcomeHrefs,
  };
}
