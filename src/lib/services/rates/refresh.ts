/**
 * The exchange rates' refresh from the rates provider (providers/): the hourly job of src/worker.ts
 * asks only once the provider's rates are a day old (domain/fx-rates.ts `ratesRefreshDue`), an
 * operator may ask at once. The provider's answer is believed whole or not at all (`checkedRates`):
 * when it fails or answers nonsense, the failure is logged and the last good rates stay. A pinned
 * rate is never written: the write itself checks it is still unpinned, so a pin that lands while the
 * provider answers wins. Each write of fx_rates bumps the reference version (migration 0013), so
 * pages see the new rates at once and the API within REFERENCE_DATA_TTL_MS (catalogue/reference-data.ts).
 */
import { and, eq, isNull, max } from 'drizzle-orm';
import { FX_RATES_API_URL, FX_RATES_BAND_FACTOR, FX_RATES_REFRESH_AFTER_MS } from '../../config/rates.ts';
import { batch } from '../../data/batch.ts';
import type { Db } from '../../data/client.ts';
import { fxRates } from '../../db/schema.ts';
import { checkedRates, RATES_BASE, ratesRefreshDue, type StoredRate } from '../../domain/fx-rates.ts';
import type { ServiceEnv } from '../platform/env.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';
import { exchangeRateApi, type RatesProvider, RatesProviderError } from './providers/exchange-rate-api.ts';

/** What a refresh did: the quotes it wrote, or why it kept every rate as it was. */
export type RefreshOutcome = { outcome: 'updated'; updated: string[]; asOf: number } | { outcome: 'kept'; reason: string };

/** The provider the worker's env points at (FX_RATES_API_URL: the tests' double), else ExchangeRate-API itself. */
export function ratesProvider(env: Pick<ServiceEnv, 'FX_RATES_API_URL'>): RatesProvider {
  return exchangeRateApi(env.FX_RATES_API_URL || FX_RATES_API_URL);
}

async function storedRates(db: Db): Promise<StoredRate[]> {
  const rows = await db
    .select({ quote: fxRates.quote, perHkdMicros: fxRates.perHkdMicros, source: fxRates.source, pinnedAt: fxRates.pinnedAt })
    .from(fxRates);
  return rows.map(({ pinnedAt, ...row }) => ({ ...row, pinned: pinnedAt !== null }));
}

function kept(reason: string, by: StaffScope | null): RefreshOutcome {
  console.error(JSON.stringify({ event: 'fx_rates_kept', reason, by: by?.userId ?? 'job' }));
  return { outcome: 'kept', reason };
}

/**
 * Asks the provider and stores its rates when every one passes the rules; else keeps the old ones.
 * An operator's refresh (`by`) writes its audit row, the rates before and after, in the same batch.
 */
export async function refreshRates(db: Db, provider: RatesProvider, now: number, by: StaffScope | null): Promise<RefreshOutcome> {
  const stored = await storedRates(db);
  let quotes: Readonly<Record<string, unknown>>;
  let asOf: number;
  try {
    ({ quotes, asOf } = await provider.latest(RATES_BASE));
  } catch (error) {
    if (error instanceof RatesProviderError) return kept(`${provider.name}: ${error.reason}`, by);
    throw error;
  }
  const verdict = checkedRates(quotes, stored, FX_RATES_BAND_FACTOR);
  if (!verdict.ok) return kept(`${provider.name}: ${verdict.problem} ${verdict.quote}`, by);
  const writes = [...verdict.rates].map(([quote, perHkdMicros]) =>
    db
      .update(fxRates)
      .set({ perHkdMicros, source: 'provider', fetchedAt: now, updatedAt: now })
      .where(and(eq(fxRates.quote, quote), isNull(fxRates.pinnedAt)))
      .returning({ quote: fxRates.quote }),
  );
  const before = Object.fromEntries(stored.filter((rate) => verdict.rates.has(rate.quote)).map((rate) => [rate.quote, rate.perHkdMicros]));
  const answers = await batch(db, {
    writes,
    audit: by
      ? [
          auditEntry(by, {
            action: 'rates.refresh',
            subjectType: 'fx_rates',
            subjectId: RATES_BASE,
            before,
            after: Object.fromEntries(verdict.rates),
          }),
        ]
      : [],
  });
  const updated = answers.writes.flatMap((rows) => rows.map((row) => row.quote));
  console.info(JSON.stringify({ event: 'fx_rates_updated', count: updated.length, asOf }));
  return { outcome: 'updated', updated, asOf };
}

/** The hourly job: a refresh when the provider's newest rate is a day old (or there is none yet) and any rate is left to refresh. */
export async function refreshRatesIfDue(db: Db, provider: RatesProvider, now: number): Promise<RefreshOutcome | null> {
  const [row] = await db
    .select({ last: max(fxRates.fetchedAt) })
    .from(fxRates)
    .where(eq(fxRates.source, 'provider'));
  if (!ratesRefreshDue(row?.last ?? null, now, FX_RATES_REFRESH_AFTER_MS)) return null;
  const open = await db
    .select({ quote: fxRates.quote })
    .from(fxRates)
    .where(and(isNull(fxRates.pinnedAt)));
  if (!open.some((rate) => rate.quote !== RATES_BASE)) return null;
  return refreshRates(db, provider, now, null);
}
