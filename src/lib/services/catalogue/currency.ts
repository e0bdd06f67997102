/** The currency table the money domain prices with, from the reference tables (reference-data.ts). */
import type { Db } from '../../data/client.ts';
import type { CurrencyTable } from '../../domain/money.ts';
import { referenceData } from './reference-data.ts';

/** Every currency with its minor digits and its rate against HKD, at most REFERENCE_DATA_TTL_MS old. */
export async function currencyTable(db: Db, now: number): Promise<CurrencyTable> {
  return (await referenceData(db, now, null)).currencyTable;
}
