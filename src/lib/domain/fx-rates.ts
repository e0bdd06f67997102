/**
 * The rules of the exchange rates' refresh: when it is due, which answers of the provider are
 * believed (every quote present, positive and within a sanity band of the previous provider rate;
 * otherwise none is taken and the last good rates stay), and when a rate is stale. Time is passed in.
 */

/** Every price is converted through HKD: one HKD buys `perHkdMicros / 1e6` units of the quote. */
export const RATES_BASE = 'HKD';

export type RateSource = 'seed' | 'provider' | 'manual';

/** A stored rate as the refresh weighs it. */
export interface StoredRate {
  quote: string;
  perHkdMicros: number;
  source: RateSource;
  /** Pinned by an operator: the refresh leaves it alone. */
  pinned: boolean;
}

/** Why a provider's answer was not taken, and the quote at fault. */
export type RatesProblem =
  | { problem: 'quote_missing'; quote: string }
  | { problem: 'quote_not_positive'; quote: string }
  | { problem: 'quote_out_of_band'; quote: string; previous: number; fetched: number };

export type RatesVerdict = { ok: true; rates: Map<string, number> } | ({ ok: false } & RatesProblem);

/** A quote per HKD as the table stores it: millionths, rounded; 0 for a quote too small to store. */
export function perHkdMicrosOf(perHkd: number): number {
  return Math.round(perHkd * 1_000_000);
}

/**
 * The new rates to store from a provider's quotes per HKD, for every stored quote that is not the
 * base and not pinned; or the first problem found, and then none is taken. The band is checked
 * against the provider's own previous rate: a seed's or an operator's number is no evidence of
 * what the market did, so the first refresh after one is believed within the other rules.
 */
export function checkedRates(quotes: Readonly<Record<string, unknown>>, stored: readonly StoredRate[], bandFactor: number): RatesVerdict {
  const rates = new Map<string, number>();
  for (const rate of stored) {
    if (rate.quote === RATES_BASE || rate.pinned) continue;
    const fetched = quotes[rate.quote];
    if (typeof fetched !== 'number' || !Number.isFinite(fetched)) return { ok: false, problem: 'quote_missing', quote: rate.quote };
    const micros = perHkdMicrosOf(fetched);
    if (micros <= 0) return { ok: false, problem: 'quote_not_positive', quote: rate.quote };
    const ratio = micros / rate.perHkdMicros;
    if (rate.source === 'provider' && (ratio > bandFactor || ratio < 1 / bandFactor)) {
      return { ok: false, problem: 'quote_out_of_band', quote: rate.quote, previous: rate.perHkdMicros, fetched: micros };
    }
    rates.set(rate.quote, micros);
  }
  return { ok: true, rates };
}

/**
 * Whether the job should ask the provider now: never fetched, or its newest fetch is at least
 * `refreshAfterMs` old. A failed try leaves the time as it was, so the next run tries again.
 */
export function ratesRefreshDue(lastFetchedAt: number | null, now: number, refreshAfterMs: number): boolean {
  return lastFetchedAt === null || now - lastFetchedAt >= refreshAfterMs;
}

/** Whether a rate last written at `updatedAt` is too old to trust without a look (a pinned rate never is: someone chose it). */
export function rateIsStale(rate: { updatedAt: number; pinned: boolean; quote: string }, now: number, staleAfterMs: number): boolean {
  return rate.quote !== RATES_BASE && !rate.pinned && now - rate.updatedAt >= staleAfterMs;
}

/**
 * A rate typed by an operator (units of the quote one HKD buys, e.g. "0.1285"), as stored micros;
 * null for text that is no positive decimal or rounds to nothing.
 */
export function typedRateMicros(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,12}(\.\d{1,9})?$/.test(trimmed)) return null;
  const micros = perHkdMicrosOf(Number(trimmed));
  return micros > 0 && Number.isSafeInteger(micros) ? micros : null;
}

/** Micros as the decimal an operator reads and types: 128500 is "0.1285". */
export function ratePerHkd(perHkdMicros: number): string {
  const whole = Math.floor(perHkdMicros / 1_000_000);
  const fraction = String(perHkdMicros % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** Whether text is no ISO 4217 code (three capital letters): a form's currency that cannot be one. */
export function currencyCodeProblem(text: string): boolean {
  return !/^[A-Z]{3}$/.test(text);
}
