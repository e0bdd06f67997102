/**
 * Which provider new payments go to, and which methods the buyer is offered. A local build
 * (npm start, the tests) pays in the built-in sandbox; a deployed one only through a real provider
 * (Stripe, once its secret key is configured), never the sandbox: without one it opens no payment
 * at all rather than taking sandbox "money" for real tickets.
 */
import { SANDBOX_PROVIDER, STRIPE_PROVIDER } from '../config/orders.ts';
import { PAYMENT_METHODS, type PaymentMethod } from './payment-methods.ts';
import { stripeSupports } from './stripe.ts';

export type AppEnv = 'local' | 'production';

/** What decides the providers: the environment and what is configured for Stripe. */
export interface PaymentSetup {
  appEnv: AppEnv;
  stripeConfigured: boolean;
  /** The country of the Stripe account, which decides the methods Stripe can take. */
  stripeAccountCountry: string;
}

/** The provider's name, or null when payments cannot be taken in this environment. */
export function checkoutProvider(setup: PaymentSetup): string | null {
  if (LOCAL_BUILD && setup.appEnv === 'local') return SANDBOX_PROVIDER;
  return setup.stripeConfigured ? STRIPE_PROVIDER : null;
}

/**
 * The methods a buyer paying in `currency` is offered, in our display order: those the provider can
 * take for that currency (e.g. no PayPal for a Hong Kong Stripe account). The sandbox takes them all;
 * with no provider every method is listed and paying answers that payments are unavailable.
 */
export function offeredPaymentMethods(setup: PaymentSetup, currency: string): PaymentMethod[] {
  if (checkoutProvider(setup) !== STRIPE_PROVIDER) return [...PAYMENT_METHODS];
  return PAYMENT_METHODS.filter((method) => stripeSupports(method, currency, setup.stripeAccountCountry));
}
