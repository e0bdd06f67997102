/**
 * The rates provider: ExchangeRate-API's open access endpoint (https://www.exchangerate-api.com/docs/free),
 * no key, refreshed by them once a day. `GET {base}/v6/latest/{CODE}` answers
 * `{ "result": "success", "base_code": "HKD", "time_last_update_unix": 1585267200, "rates": { "HKD": 1, "USD": 0.1285, … } }`,
 * each rate the units of that currency one unit of the base buys; a failure answers
 * `{ "result": "error", "error-type": "unsupported-code" | "malformed-request" | … }`. Their terms ask
 * for attribution and at most one request an hour, which the job keeps (config/rates.ts).
 */
import { FX_RATES_TIMEOUT_MS } from '../../../config/rates.ts';

/** A provider's latest quotes for one base: per base unit, as it gave them (the refresh's rules judge them). */
export interface ProviderQuotes {
  base: string;
  /** When the provider last updated them. */
  asOf: number;
  quotes: Readonly<Record<string, unknown>>;
}

/** Why the provider gave no quotes: unreachable, an HTTP failure, or an answer that is not its documented shape. */
export class RatesProviderError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RatesProviderError';
  }
}

export interface RatesProvider {
  /** Where the rates come from, as the console names it. */
  readonly name: string;
  latest(base: string): Promise<ProviderQuotes>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The provider at `baseUrl` (its origin, or a double's), fetching with `fetcher`. */
export function exchangeRateApi(baseUrl: string, fetcher: typeof fetch = fetch): RatesProvider {
  return {
    name: 'ExchangeRate-API',
    async latest(base) {
      const url = new URL(`v6/latest/${encodeURIComponent(base)}`, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
      let response: Response;
      try {
        response = await fetcher(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(FX_RATES_TIMEOUT_MS) });
      } catch (error) {
        throw new RatesProviderError(`unreachable: ${String(error)}`);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new RatesProviderError(`HTTP ${response.status}, not JSON`);
      }
      if (!response.ok) throw new RatesProviderError(`HTTP ${response.status}`);
      if (!isRecord(body)) throw new RatesProviderError('not an object');
      if (body.result !== 'success') throw new RatesProviderError(`result ${String(body.result)}: ${String(body['error-type'])}`);
      if (body.base_code !== base) throw new RatesProviderError(`base ${String(body.base_code)}, asked ${base}`);
      if (!isRecord(body.rates)) throw new RatesProviderError('no rates');
      const asOf = typeof body.time_last_update_unix === 'number' ? body.time_last_update_unix * 1000 : Number.NaN;
      if (!Number.isFinite(asOf)) throw new RatesProviderError('no update time');
      return { base, asOf, quotes: body.rates };
    },
  };
}
