/** The api project's global setup: the Stripe, Turnstile and exchange-rates doubles, up for the whole run, their URLs given to the pool's bindings. */
import type { TestProject } from 'vitest/node';
import { startStripeDouble } from '../doubles/stripe-api.ts';
import { startTurnstileDouble } from '../doubles/turnstile-api.ts';
import { startExchangeRateDouble } from '../doubles/exchange-rate-api.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    stripeApiUrl: string;
    turnstileApiUrl: string;
    fxRatesApiUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stripe = await startStripeDouble();
  const turnstile = await startTurnstileDouble();
  const rates = await startExchangeRateDouble();
  project.provide('stripeApiUrl', stripe.url);
  project.provide('turnstileApiUrl', turnstile.url);
  project.provide('fxRatesApiUrl', rates.url);
  return async () => {
    await Promise.all([stripe.close(), turnstile.close(), rates.close()]);
  };
}
