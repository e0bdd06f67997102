/**
 * Home banners per city, curated from the console: created, scheduled, edited and retired, each
 * change with its audit row in the same batch. The home page shows a city's live banners
 * (catalogue.ts, homeConfigRead); any write here moves the catalogue version, so cached home pages
 * are replaced at once, and a scheduled start or end shows once the page cache renders the page again
 * (docs/storefront-curation.md).
 */
import { asc, eq } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import { banners, cities } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { isImagePath, isSitePath, scheduleFault, scheduleState, type ScheduleState } from '../../domain/storefront-schedule.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';
import { found, refuse, withNewId } from './curation.ts';

export interface BannerInput {
  cityId: number;
  /** The stored image's path (the image upload's answer), or the one the banner has. */
  poster: string;
  /** Where the banner leads: a path on this site. */
  url: string;
  sort: number;
  startsAt: number;
  endsAt: number | null;
}

export type BannerRow = typeof banners.$inferSelect;
export type BannerRecord = BannerRow & { state: ScheduleState };

const withState = (row: BannerRow, now: number): BannerRecord => ({ ...row, state: scheduleState(row, now) });

/** Every banner, by city then display order. */
export async function listBanners(scope: StaffScope): Promise<BannerRecord[]> {
  const rows = await scope.db.select().from(banners).orderBy(asc(banners.cityId), asc(banners.sort), asc(banners.id));
  return rows.map((row) => withState(row, scope.now));
}

async function bannerRow(scope: StaffScope, id: number): Promise<BannerRow | undefined> {
  const [row] = await scope.db.select().from(banners).where(eq(banners.id, id));
  return row;
}

async function check(scope: StaffScope, input: BannerInput, previousEndsAt?: number | null): Promise<void> {
  if (!isImagePath(input.poster)) refuse({ code: 'storefront_image_invalid', field: 'poster' });
  if (!isSitePath(input.url)) refuse({ code: 'storefront_link_invalid', field: 'url' });
  refuse(scheduleFault(input, scope.now, previousEndsAt));
  const [city] = await scope.db.select({ id: cities.id }).from(cities).where(eq(cities.id, input.cityId));
  if (!city) throw new DomainError('city_not_found', {}, 'cityId');
}

export async function createBanner(scope: StaffScope, input: BannerInput): Promise<BannerRecord> {
  await check(scope, input);
  return withNewId(scope.db, banners, banners.id, async (id) => {
    const row: BannerRow = { id, activityId: null, retiredAt: null, ...input };
    await batch(scope.db, {
      insert: scope.db.insert(banners).values(row),
      audit: auditEntry(scope, { action: 'banner.create', subjectType: 'banner', subjectId: id, before: null, after: row }),
    });
    return withState(row, scope.now);
  });
}

export async function updateBanner(scope: StaffScope, id: number, input: BannerInput): Promise<BannerRecord> {
  const before = found(await bannerRow(scope, id), true);
  await check(scope, input, before.endsAt);
  const after: BannerRow = { ...before, ...input };
  await batch(scope.db, {
    update: scope.db.update(banners).set(input).where(eq(banners.id, id)),
    audit: auditEntry(scope, { action: 'banner.update', subjectType: 'banner', subjectId: id, before, after }),
  });
  return withState(after, scope.now);
}

/** Takes a banner down for good; retiring a retired banner changes nothing. */
export async function retireBanner(scope: StaffScope, id: number): Promise<BannerRecord> {
  const before = found(await bannerRow(scope, id));
  if (before.retiredAt !== null) return withState(before, scope.now);
  const after: BannerRow = { ...before, retiredAt: scope.now };
  await batch(scope.db, {
    update: scope.db.update(banners).set({ retiredAt: scope.now }).where(eq(banners.id, id)),
    audit: auditEntry(scope, { action: 'banner.retire', subjectType: 'banner', subjectId: id, before, after }),
  });
  return withState(after, scope.now);
}
