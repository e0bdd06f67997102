/** The exchange rates' refresh from the rates provider (services/rates/refresh.ts) and how the console judges their age. */

/**
 * The cron expression of wrangler.toml that runs the rates job (src/worker.ts dispatches on it):
 * hourly, at a minute the every-minute sweep's busiest second is not, so a failed refresh is tried
 * again within the hour, while the job itself fetches only once the rates are a day old.
 */
export const FX_RATES_CRON = '17 * * * *';
/** A refresh is due once the provider's rates are this old: a little under a day, so an hourly job keeps a daily rhythm. */
export const FX_RATES_REFRESH_AFTER_MS = 23 * 3_600_000;
/** A rate older than this is shown as stale in the console (two missed daily refreshes). */
export const FX_RATES_STALE_AFTER_MS = 48 * 3_600_000;
/**
 * The sanity band of a refresh: a quote more than this factor above or below the provider's previous
 * one is nonsense (no currency the marketplace sells in moves that much in a day), and the whole
 * refresh is refused.
 */
export const FX_RATES_BAND_FACTOR = 1.5;
/** The rates provider: ExchangeRate-API's open access endpoint (no key, daily rates, HKD as base); FX_RATES_API_URL overrides it. */
export const FX_RATES_API_URL = 'https://open.er-api.com';
/** How long the job waits for the provider's answer. */
export const FX_RATES_TIMEOUT_MS = 10_000;
