/**
 * The worker's configuration that services read: the app secret, the payment provider's keys, the
 * message providers' settings, the high-demand threshold and the rates provider's address. The edge hands it in from the worker's env (the API's middleware, a page's
 * scope, the cron handler), so no service reads the `cloudflare:workers` global.
 */
import type { ProviderConfig } from '../messages/providers/index.ts';

export type ServiceEnv = ProviderConfig &
  Pick<
    Cloudflare.Env,
    | 'APP_ENV'
    | 'APP_SECRET'
    | 'PUBLIC_ORIGIN'
    | 'STRIPE_SECRET_KEY'
    | 'STRIPE_WEBHOOK_SECRET'
    | 'STRIPE_ACCOUNT_COUNTRY'
    | 'STRIPE_API_URL'
    | 'TURNSTILE_SITE_KEY'
    | 'TURNSTILE_SECRET_KEY'
    | 'TURNSTILE_API_URL'
    | 'TURNSTILE_SCRIPT_URL'
    | 'HIGH_DEMAND_ORDERS_PER_MINUTE'
    | 'FX_RATES_API_URL'
  >;
