/**
 * The reference tables nearly every page and many API answers read (cities, categories, languages,
 * currencies with their FX rates, hot search words), loaded in one D1 batch and kept in this
 * isolate's memory. They change a few times a day, while a page would otherwise spend several
 * round trips on them.
 *
 * The copy is kept while its version (catalogue_version row 2, bumped by the triggers of migrations
 * 0012-0013 on any write to these tables) is the one the request read; a request that read no
 * version (the API, signed-in pages) takes a copy at most REFERENCE_DATA_TTL_MS old.
 */
import { asc, eq, isNull } from 'drizzle-orm';
import { REFERENCE_DATA_TTL_MS } from '../../config/caching.ts';
import type { Db } from '../../data/client.ts';
import { read, readOne, type Read } from '../../data/read-together.ts';
import { catalogueVersion, categories, cities, currencies, fxRates, hotKeywords, languages } from '../../db/schema.ts';
import type { CurrencyTable } from '../../domain/money.ts';
import { currencyNameIn } from '../../i18n/index.ts';
import type { Locale } from '../../i18n/locales.ts';

/** catalogue_version's rows: 1 moves with every write a shared page shows, 2 with reference tables only. */
const CATALOGUE_ROW = 1;
const REFERENCE_ROW = 2;

export interface CatalogueVersions {
  /** Part of every shared page's cache key (http/page-cache.ts). */
  catalogue: number;
  /** The version of this module's copy. */
  reference: number;
}

/** Both versions, in one read. */
export async function catalogueVersions(db: Db): Promise<CatalogueVersions> {
  const rows = await db.select().from(catalogueVersion);
  const version = (id: number) => rows.find((row) => row.id === id)?.version ?? 0;
  return { catalogue: version(CATALOGUE_ROW), reference: version(REFERENCE_ROW) };
}

export interface LanguageView {
  id: number;
  code: string;
  name: string;
  languageType: number;
}

export interface CurrencyView {
  code: string;
  desc: string;
  currencyType: number;
}

export type CityRow = typeof cities.$inferSelect;
export type CategoryRow = typeof categories.$inferSelect;
export type HotKeywordRow = typeof hotKeywords.$inferSelect;

export interface ReferenceData {
  version: number;
  /** By first letter, then sort, then English name (the city picker's order). */
  cities: CityRow[];
  /** In display order. */
  categories: CategoryRow[];
  languages: LanguageView[];
  /** The currency list of SPEC.md section 7, in display order. */
  currencies: CurrencyView[];
  /** Every currency with its minor digits and its rate against HKD, for the money domain. */
  currencyTable: CurrencyTable;
  /** Every script's hot words not retired, scheduled ones included, in display order. */
  hotKeywords: HotKeywordRow[];
  loadedAt: number;
}

function referenceRead(db: Db, now: number): Read<ReferenceData> {
  return read(
    {
      version: db.select({ version: catalogueVersion.version }).from(catalogueVersion).where(eq(catalogueVersion.id, REFERENCE_ROW)),
      cities: db.select().from(cities).orderBy(asc(cities.firstLetter), asc(cities.sort), asc(cities.nameEn)),
      categories: db.select().from(categories).orderBy(asc(categories.sort), asc(categories.id)),
      languages: db
        .select({ id: languages.id, code: languages.code, name: languages.name, languageType: languages.languageType })
        .from(languages)
        .orderBy(asc(languages.sort)),
      currencies: db
        .select({ code: currencies.code, desc: currencies.desc, currencyType: currencies.currencyType })
        .from(currencies)
        .orderBy(asc(currencies.sort), asc(currencies.code)),
      rates: db
        .select({ code: currencies.code, minorDigits: currencies.minorDigits, perHkdMicros: fxRates.perHkdMicros })
        .from(currencies)
        .innerJoin(fxRates, eq(fxRates.quote, currencies.code)),
      hotKeywords: db.select().from(hotKeywords).where(isNull(hotKeywords.retiredAt)).orderBy(asc(hotKeywords.sort), asc(hotKeywords.id)),
    },
    ({
      version: [version],
      cities: cityRows,
      categories: categoryRows,
      languages: languageRows,
      currencies: currencyRows,
      rates,
      hotKeywords: keywordRows,
    }) => ({
      version: version?.version ?? 0,
      cities: cityRows,
      categories: categoryRows,
      languages: languageRows,
      currencies: currencyRows,
      currencyTable: new Map(rates.map((row) => [row.code, row])),
      hotKeywords: keywordRows,
      loadedAt: now,
    }),
  );
}

let kept: ReferenceData | null = null;

function isCurrent(data: ReferenceData, now: number, knownVersion: number | null): boolean {
  return knownVersion === null ? now - data.loadedAt < REFERENCE_DATA_TTL_MS : data.version === knownVersion;
}

/**
 * The reference tables, from memory when the kept copy is current (its version is `knownVersion`,
 * or, when the request read none, it is younger than REFERENCE_DATA_TTL_MS), else from D1 in one batch.
 * A database without its reference data yet (no currency) is not kept.
 */
export async function referenceData(db: Db, now: number, knownVersion: number | null): Promise<ReferenceData> {
  if (kept && isCurrent(kept, now, knownVersion)) return kept;
  // Each request loads for itself: workerd does not let one request wait on another's I/O.
  const data = await readOne(db, referenceRead(db, now));
  if (data.currencyTable.size > 0) kept = data;
  return data;
}

/** The currency list with each currency named in `locale` (the table's `desc` is English). */
export function currenciesIn(reference: ReferenceData, locale: Locale): CurrencyView[] {
  return reference.currencies.map((currency) => ({ ...currency, desc: currencyNameIn(locale, currency.code, currency.desc) }));
}
