/**
 * The hot search words of the header and the search page, per script, curated from the console.
 *
 * Buyers read them from the reference tables an isolate keeps in memory (catalogue/reference-data.ts),
 * filtered by their schedule at each read (search/hot-keywords.ts). A write here moves the
 * reference version, which every shared page checks (within CATALOGUE_VERSION_REUSE_MS), and the
 * catalogue version, which replaces cached pages; an API answer, which checks no version, takes a
 * copy at most REFERENCE_DATA_TTL_MS old. So an edit reaches every buyer within that minute, and a
 * scheduled start or end shows on the next render of a page.
 */
import { asc, eq } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import { hotKeywords } from '../../db/schema.ts';
import { scheduleFault, scheduleState, type ScheduleState } from '../../domain/storefront-schedule.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';
import { found, refuse, withNewId } from './curation.ts';

export const HOT_SEARCH_SCRIPTS = ['en', 'zh-Hant', 'zh-Hans'] as const;

export interface HotSearchInput {
  /** The catalogue script whose readers see it. */
  locale: (typeof HOT_SEARCH_SCRIPTS)[number];
  keyword: string;
  /** A line shown with the word; may be empty. */
  content: string;
  sort: number;
  startsAt: number;
  endsAt: number | null;
}

export type HotSearchRow = typeof hotKeywords.$inferSelect;
export type HotSearchRecord = HotSearchRow & { state: ScheduleState };

const withState = (row: HotSearchRow, now: number): HotSearchRecord => ({ ...row, state: scheduleState(row, now) });

/** Every hot search word, by script then display order. */
export async function listHotSearches(scope: StaffScope): Promise<HotSearchRecord[]> {
  const rows = await scope.db.select().from(hotKeywords).orderBy(asc(hotKeywords.locale), asc(hotKeywords.sort), asc(hotKeywords.id));
  return rows.map((row) => withState(row, scope.now));
}

async function hotSearchRow(scope: StaffScope, id: number): Promise<HotSearchRow | undefined> {
  const [row] = await scope.db.select().from(hotKeywords).where(eq(hotKeywords.id, id));
  return row;
}

export async function createHotSearch(scope: StaffScope, input: HotSearchInput): Promise<HotSearchRecord> {
  refuse(scheduleFault(input, scope.now));
  return withNewId(scope.db, hotKeywords, hotKeywords.id, async (id) => {
    const row: HotSearchRow = { id, landingPageType: 1, landingPageParams: '', retiredAt: null, ...input };
    await batch(scope.db, {
      insert: scope.db.insert(hotKeywords).values(row),
      audit: auditEntry(scope, { action: 'hot_search.create', subjectType: 'hot_search', subjectId: id, before: null, after: row }),
    });
    return withState(row, scope.now);
  });
}

export async function updateHotSearch(scope: StaffScope, id: number, input: HotSearchInput): Promise<HotSearchRecord> {
  const before = found(await hotSearchRow(scope, id), true);
  refuse(scheduleFault(input, scope.now, before.endsAt));
  const after: HotSearchRow = { ...before, ...input };
  await batch(scope.db, {
    update: scope.db.update(hotKeywords).set(input).where(eq(hotKeywords.id, id)),
    audit: auditEntry(scope, { action: 'hot_search.update', subjectType: 'hot_search', subjectId: id, before, after }),
  });
  return withState(after, scope.now);
}

/** Takes a hot search word down for good; retiring a retired one changes nothing. */
export async function retireHotSearch(scope: StaffScope, id: number): Promise<HotSearchRecord> {
  const before = found(await hotSearchRow(scope, id));
  if (before.retiredAt !== null) return withState(before, scope.now);
  const after: HotSearchRow = { ...before, retiredAt: scope.now };
  await batch(scope.db, {
    update: scope.db.update(hotKeywords).set({ retiredAt: scope.now }).where(eq(hotKeywords.id, id)),
    audit: auditEntry(scope, { action: 'hot_search.retire', subjectType: 'hot_search', subjectId: id, before, after }),
  });
  return withState(after, scope.now);
}
