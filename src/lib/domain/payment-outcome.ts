/**
 * Which payment page tells the truth about an order: the payment page while it can still be paid,
 * else one of the outcome pages (SPEC.md section 6: success, cancelled, failed). The pages, the
 * provider's return and the payment page's polling all decide with `payPageFor`, so they agree.
 */
import { PAYMENT_METHODS, QR_PAYMENT_METHODS, type PaymentMethod } from './payment-methods.ts';
import { pathTo, type RouteName } from '../routes.ts';
import type { Money } from './money.ts';
import type { OrderStatus } from './order-state.ts';

/** Our record of one payment attempt. */
export type PaymentStatus = 'created' | 'succeeded' | 'failed' | 'cancelled' | 'refunded';
/** What a provider reports about a payment when asked. */
export type ProviderPaymentStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled' | 'refunded';
export type PayOutcome = 'success' | 'fail' | 'cancel';
export type PayPage = 'pay' | PayOutcome;

/** The route name of each outcome page (src/lib/routes.ts). */
export const OUTCOME_ROUTES: Record<PayOutcome, RouteName> = {
  success: 'orderPaySuccessPage',
  fail: 'orderPayFailPage',
  cancel: 'orderPayCancelPage',
};

/** Whether a string names one of our payment methods. */
export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return typeof value === 'string' && (PAYMENT_METHODS as readonly string[]).includes(value);
}

/** Methods paid by scanning a QR code; the others open the provider's page in a new window. */
export function isQrMethod(method: PaymentMethod): boolean {
  return QR_PAYMENT_METHODS.includes(method);
}

/** Our payment status for what the provider reports. */
export function paymentStatusOf(reported: ProviderPaymentStatus): PaymentStatus {
  return reported === 'pending' ? 'created' : reported;
}

/**
 * Whether the money a provider reports is exactly what the payment was opened for. Any other amount
 * or currency (a tampered session, a partial capture, a bug in a conversion) must never settle it.
 */
export function reportedMoneyMatches(recorded: Money, reported: Money): boolean {
  return reported.amount === recorded.amount && reported.currency.toUpperCase() === recorded.currency.toUpperCase();
}

/** Whether the order has been paid (whatever happened to it after). */
export function isPaidStatus(status: OrderStatus): boolean {
  return status !== 'pending_payment' && status !== 'cancelled';
}

export interface PaymentView {
  orderStatus: OrderStatus;
  /** The status of the payment the visitor just made; null when there is none to speak of. */
  paymentStatus: PaymentStatus | null;
}

/**
 * The page a visitor belongs on. `from` is where they are: the payment page, the provider's return
 * to it ('returned'), or an outcome page. A paid order always ends on success and a closed one on
 * cancel. An order still waiting for payment keeps its payment page; anywhere else it shows how its
 * latest payment ended (declined: fail, cancelled: cancel), and otherwise goes back to paying, so
 * "success" is never shown before the money is in.
 */
export function payPageFor(view: PaymentView, from: PayPage | 'returned'): PayPage {
  if (isPaidStatus(view.orderStatus)) return 'success';
  if (view.orderStatus === 'cancelled') return 'cancel';
  if (from === 'pay') return 'pay';
  if (view.paymentStatus === 'failed') return 'fail';
  if (view.paymentStatus === 'cancelled') return 'cancel';
  return 'pay';
}

/** The locale-free path of a payment page of an order: `/order/7/pay`, `/paySuccess?orderId=7`... */
export function payPagePath(page: PayPage, orderId: number): string {
  return page === 'pay' ? pathTo('orderPayPage', { id: orderId }) : `${pathTo(OUTCOME_ROUTES[page])}?orderId=${orderId}`;
}
