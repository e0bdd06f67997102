/**
 * What each outcome page does before rendering: load the order (the provider asked first) and send
 * the visitor to the page that tells the truth about it when this one does not (a "success" page
 * for an unpaid order, a "failed" page for a paid one...).
 */
import type { AstroGlobal } from 'astro';
import { payPageFor, payPagePath, type PayOutcome } from '../domain/payment-outcome.ts';
import { pageI18n } from '../i18n/page.ts';
import { paymentPageData, type PaymentPageData } from '../services/payments/payment-page.ts';
import { signedInPage } from './signed-in.ts';

/** The page's data, or the response to answer instead (a redirect, or the 404 page). */
export async function loadOutcomePage(astro: AstroGlobal, outcome: PayOutcome): Promise<PaymentPageData | Response> {
  const { link } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof Response) return signedIn;
  const data = await paymentPageData(signedIn.scope, astro.url.searchParams.get('orderId'));
  // An empty 404 response makes Astro render src/pages/404.astro in the request's language.
  if (!data) return new Response(null, { status: 404 });
  const belongs = payPageFor({ orderStatus: data.state.orderStatus, paymentStatus: data.state.paymentStatus }, outcome);
  if (belongs !== outcome) return astro.redirect(link(payPagePath(belongs, data.order.id)), 303);
  astro.response.headers.set('Cache-Control', 'private, no-store');
  return data;
}
