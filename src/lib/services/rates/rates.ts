/**
 * The exchange rates as the console shows and operators pin them. A pinned rate is an operator's
 * number the refresh (refresh.ts) leaves alone until it is unpinned; pinning and unpinning write
 * their audit row in the change's batch.
 */
import { and, asc, eq, exists, isNotNull, sql } from 'drizzle-orm';
import { FX_RATES_STALE_AFTER_MS } from '../../config/rates.ts';
import { batch } from '../../data/batch.ts';
import type { Db } from '../../data/client.ts';
import { currencies, fxRates, users } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { RATES_BASE, type RateSource, rateIsStale, ratePerHkd, typedRateMicros } from '../../domain/fx-rates.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry, auditEntryIf } from '../staff/audit.ts';

/** One currency's rate in the console. */
export interface RateView {
  quote: string;
  perHkdMicros: number;
  /** Units of the quote one HKD buys, as a decimal: what an operator reads and types. */
  perHkd: string;
  source: RateSource;
  updatedAt: number;
  fetchedAt: number | null;
  pinnedAt: number | null;
  pinnedByName: string | null;
  /** The base (always 1) cannot be pinned. */
  isBase: boolean;
  stale: boolean;
}

/** Every currency's rate, in the currency list's order. */
export async function ratesTable(db: Db, now: number): Promise<RateView[]> {
  const rows = await db
    .select({
      quote: fxRates.quote,
      perHkdMicros: fxRates.perHkdMicros,
      source: fxRates.source,
      updatedAt: fxRates.updatedAt,
      fetchedAt: fxRates.fetchedAt,
      pinnedAt: fxRates.pinnedAt,
      pinnedByName: users.nickname,
    })
    .from(fxRates)
    .innerJoin(currencies, eq(currencies.code, fxRates.quote))
    .leftJoin(users, eq(users.id, fxRates.pinnedBy))
    .orderBy(asc(currencies.sort), asc(currencies.code));
  return rows.map((row) => ({
    ...row,
    perHkd: ratePerHkd(row.perHkdMicros),
    isBase: row.quote === RATES_BASE,
    stale: rateIsStale({ ...row, pinned: row.pinnedAt !== null }, now, FX_RATES_STALE_AFTER_MS),
  }));
}

async function rateRow(db: Db, quote: string) {
  const [row] = await db.select().from(fxRates).where(eq(fxRates.quote, quote));
  if (!row) throw new DomainError('rate_not_found', { quote });
  if (row.quote === RATES_BASE) throw new DomainError('rate_base_fixed', { quote });
  return row;
}

const audited = (row: typeof fxRates.$inferSelect) => ({
  perHkdMicros: row.perHkdMicros,
  source: row.source,
  pinned: row.pinnedAt !== null,
});

/**
 * Sets a rate by hand, typed as units of the quote one HKD buys ("0.1285"; 400 `rate_invalid` on
 * `rate` otherwise), and pins it: the refresh leaves it until it is unpinned. Pinning again changes the number.
 */
export async function pinRate(scope: StaffScope, quote: string, typed: string): Promise<RateView> {
  const { db, now } = scope;
  const before = await rateRow(db, quote);
  const perHkdMicros = typedRateMicros(typed);
  if (perHkdMicros === null) throw new DomainError('rate_invalid', {}, 'rate');
  await batch(db, {
    pinned: db
      .update(fxRates)
      .set({ perHkdMicros, source: 'manual', pinnedBy: scope.userId, pinnedAt: now, updatedAt: now })
      .where(eq(fxRates.quote, quote)),
    audit: auditEntry(scope, {
      action: 'rate.pin',
      subjectType: 'fx_rate',
      subjectId: quote,
      before: audited(before),
      after: { perHkdMicros, source: 'manual', pinned: true },
    }),
  });
  return viewOf(db, quote, now);
}

/** Lets the refresh write the rate again; it keeps its number until then. Unpinning an unpinned rate changes nothing. */
export async function unpinRate(scope: StaffScope, quote: string): Promise<RateView> {
  const { db, now } = scope;
  const before = await rateRow(db, quote);
  const pinned = and(eq(fxRates.quote, quote), isNotNull(fxRates.pinnedAt));
  await batch(db, {
    audit: auditEntryIf(
      scope,
      {
        action: 'rate.unpin',
        subjectType: 'fx_rate',
        subjectId: quote,
        before: audited(before),
        after: { ...audited(before), pinned: false },
      },
      exists(db.select({ one: sql`1` }).from(fxRates).where(pinned)),
    ),
    unpinned: db.update(fxRates).set({ pinnedBy: null, pinnedAt: null }).where(pinned),
  });
  return viewOf(db, quote, now);
}

async function viewOf(db: Db, quote: string, now: number): Promise<RateView> {
  const view = (await ratesTable(db, now)).find((rate) => rate.quote === quote);
  if (!view) throw new DomainError('rate_not_found', { quote });
  return view;
}
