/** Currencies and FX rates from D1, shaped for the money domain. */
import { asc, eq } from 'drizzle-orm';
import { CURRENCY_TABLE_TTL_MS } from '../config.ts';
import type { Db } from '../db/client.ts';
import { currencies, fxRates } from '../db/schema.ts';
import type { CurrencyTable } from '../domain/money.ts';

export interface CurrencyView {
  code: string;
  desc: string;
  currencyType: number;
}

/** The currency list of SPEC.md section 7: `{ code, desc, currencyType }`, in display order. */
export async function listCurrencies(db: Db): Promise<CurrencyView[]> {
  return db
    .select({ code: currencies.code, desc: currencies.desc, currencyType: currencies.currencyType })
    .from(currencies)
    .orderBy(asc(currencies.sort), asc(currencies.code));
}

/** Every currency with its minor digits and its rate against HKD. */
export async function loadCurrencyTable(db: Db): Promise<CurrencyTable> {
  const rows = await db
    .select({ code: currencies.code, minorDigits: currencies.minorDigits, perHkdMicros: fxRates.perHkdMicros })
    .from(currencies)
    .innerJoin(fxRates, eq(fxRates.quote, currencies.code));
  return new Map(rows.map((row) => [row.code, row]));
}

let cachedTable: { table: CurrencyTable; expiresAt: number } | null = null;

/**
 * The currency table, read from D1 at most once per CURRENCY_TABLE_TTL_MS in this isolate (every API
 * request and page asks for it). An empty table (a database not seeded yet) is not kept.
 */
export async function currencyTable(db: Db, now: number): Promise<CurrencyTable> {
  if (cachedTable && cachedTable.expiresAt > now) return cachedTable.table;
  const table = await loadCurrencyTable(db);
  cachedTable = table.size > 0 ? { table, expiresAt: now + CURRENCY_TABLE_TTL_MS } : null;
  return table;
}
