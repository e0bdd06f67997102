/**
 * The payment providers by name, built from the worker's configuration. Payments remember the
 * provider they were made with, so webhooks, polls and refunds reach the same one.
 */
import { SANDBOX_PROVIDER, STRIPE_DEFAULT_ACCOUNT_COUNTRY, STRIPE_PROVIDER } from '../../../config/orders.ts';
import type { Db } from '../../../data/client.ts';
import { DomainError } from '../../../domain/errors.ts';
import type { PaymentSetup } from '../../../domain/payment-provider-choice.ts';
import { currencyTable } from '../../catalogue/currency.ts';
import type { ServiceEnv } from '../../platform/env.ts';
import { sandboxProvider } from './sandbox.ts';
import { stripeProvider, type StripeConfig } from './stripe.ts';
import type { PaymentProvider } from './types.ts';

/** What the configuration says about providers. */
export function paymentSetup(config: ServiceEnv): PaymentSetup {
  return {
    appEnv: config.APP_ENV,
    stripeConfigured: Boolean(config.STRIPE_SECRET_KEY),
    stripeAccountCountry: config.STRIPE_ACCOUNT_COUNTRY || STRIPE_DEFAULT_ACCOUNT_COUNTRY,
  };
}

function stripeConfig(config: ServiceEnv): StripeConfig {
  if (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) {
    console.error('Stripe is used but STRIPE_SECRET_KEY or STRIPE_WEBHOOK_SECRET is not set.');
    throw new DomainError('payments_unavailable');
  }
  return { secretKey: config.STRIPE_SECRET_KEY, webhookSecret: config.STRIPE_WEBHOOK_SECRET, apiUrl: config.STRIPE_API_URL || undefined };
}

const PROVIDERS: Record<string, (db: Db, env: ServiceEnv) => PaymentProvider> = {
  [STRIPE_PROVIDER]: (db, env) => stripeProvider(stripeConfig(env), () => currencyTable(db, Date.now())),
};

/**
 * The provider called `name`; an unknown name (a webhook path, a stored payment) is a 404. The sandbox
 * is compiled into a local build only (integrations/local-build.ts), and is there only run as one
 * (APP_ENV=local): a local build deployed by mistake has no sandbox webhook either.
 */
export function paymentProvider(name: string, db: Db, env: ServiceEnv): PaymentProvider {
  if (LOCAL_BUILD && name === SANDBOX_PROVIDER && env.APP_ENV === 'local') return sandboxProvider(db, env);
  const make = Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name] : undefined;
  if (!make) throw new DomainError('not_found');
  return make(db, env);
}
