/**
 * What each outcome page does before rendering: load the order (the provider asked first) and send
 * the visitor to the page that tells the truth about it when this one does not (a "success" page
 * for an unpaid order, a "failed" page for a paid one...).
 */
import type { AstroGlobal } from 'astro';
import { payPageFor, payPagePath, type PayOutcome } from '../domain/payment-outcome.ts';
import { pageI18n } from '../i18n/page.ts';
import { paymentPageData, type PaymentPageData } from '../services/payments/payment-page.ts';
import { keepPrivate } from '../edge/page-request.ts';
import { PageExit } from './page-exit.ts';
import { signedInPage } from './signed-in.ts';

/** The page's data, or where it goes instead (another outcome's page, the 404 page, login). */
export async function loadOutcomePage(
  astro: Pick<AstroGlobal, 'locals' | 'url' | 'response'>,
  outcome: PayOutcome,
): Promise<PaymentPageData | PageExit> {
  const { link } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;
  const data = await paymentPageData(signedIn.scope, astro.url.searchParams.get('orderId'));
  if (!data) return PageExit.notFound;
  const belongs = payPageFor({ orderStatus: data.state.orderStatus, paymentStatus: data.state.paymentStatus }, outcome);
  if (belongs !== outcome) return PageExit.redirect(link(payPagePath(belongs, data.order.id)), 303);
  keepPrivate(astro);
  return data;
}
