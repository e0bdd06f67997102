/**
 * The sitemaps from the catalogue (domain/sitemap.ts builds the XML): each locale lists home, every
 * category, the info pages and every activity still to come that is published for sale (on sale,
 * priority booking or not yet on sale), in parts of at most 50,000 URLs. The index costs one batch of
 * two aggregates; a part reads only its own window of activities, by primary key order.
 *
 * An activity's `lastmod` is its creation or its sessions' last cancellation or postponement,
 * whichever is later: the changes that make a search engine's copy of the page wrong.
 */
import { and, asc, count, gt, inArray, max, sql } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { known, read, readOne, readTogether } from '../../data/read-together.ts';
import { activities, activitySessions } from '../../db/schema.ts';
import { ACTIVITY_STATUS } from '../../domain/activity.ts';
import { LOCALES } from '../../i18n/locales.ts';
import { pathTo, type RouteName } from '../../routes.ts';
import { partWindow, sitemapIndexXml, sitemapPartCount, urlsetXml, type SitemapEntry, type SitemapFile } from '../../domain/sitemap.ts';
import type { CategoryRow } from './reference-data.ts';

const LISTED_STATUSES = [ACTIVITY_STATUS.onSale, ACTIVITY_STATUS.booking, ACTIVITY_STATUS.notYetOnSale];
const INFO_PAGES: readonly RouteName[] = ['aboutPage', 'contactPage', 'privacyPage', 'userAgreement', 'transferAgreement'];

function listed(now: number) {
  return and(inArray(activities.status, LISTED_STATUSES), gt(activities.endsAt, now));
}

/** Home, the categories and the info pages: every locale's list starts with them. */
function fixedEntries(categories: readonly CategoryRow[], catalogueChangedAt: number | null): SitemapEntry[] {
  return [
    { path: '/', lastModified: catalogueChangedAt },
    ...categories.map((category) => ({ path: `/${category.slug}`, lastModified: catalogueChangedAt })),
    ...INFO_PAGES.map((name) => ({ path: pathTo(name), lastModified: null })),
  ];
}

interface CatalogueSummary {
  listedCount: number;
  changedAt: number | null;
}

function summaryRead(db: Db, now: number) {
  return read(
    {
      activities: db
        .select({ listedCount: count(), createdAt: max(activities.createdAt) })
        .from(activities)
        .where(listed(now)),
      sessions: db.select({ changedAt: max(activitySessions.changedAt) }).from(activitySessions),
    },
    ({ activities: [activityRow], sessions: [sessionRow] }): CatalogueSummary => {
      const times = [activityRow?.createdAt, sessionRow?.changedAt].filter((time): time is number => typeof time === 'number');
      return { listedCount: activityRow?.listedCount ?? 0, changedAt: times.length > 0 ? Math.max(...times) : null };
    },
  );
}

/** The index of every locale's parts; `lastmod` is the catalogue's last change. */
export async function sitemapIndex(db: Db, categories: readonly CategoryRow[], origin: string, now: number): Promise<string> {
  const summary = await readOne(db, summaryRead(db, now));
  const parts = sitemapPartCount(fixedEntries(categories, null).length + summary.listedCount);
  const files: SitemapFile[] = LOCALES.flatMap((locale) => Array.from({ length: parts }, (_, i) => ({ locale, part: i + 1 })));
  return sitemapIndexXml(origin, files, summary.changedAt);
}

/**
 * An activity's last change that matters to a search engine: created, or a session cancelled or
 * postponed. The subquery names its tables itself: Drizzle leaves columns unqualified in a one-table
 * select, where `activity_id = "id"` would compare a session with itself.
 */
const activityChangedAt = sql<number>`max(${activities.createdAt}, coalesce((select max(changes.changed_at) from ${activitySessions} as changes where changes.activity_id = "activities"."id"), 0))`;

function activityWindowRead(db: Db, now: number, offset: number, limit: number) {
  return read(
    {
      activities: db
        .select({ id: activities.id, changedAt: activityChangedAt })
        .from(activities)
        .where(listed(now))
        .orderBy(asc(activities.id))
        .limit(limit)
        .offset(offset),
    },
    ({ activities: rows }): SitemapEntry[] =>
      rows.map((row) => ({ path: pathTo('detailPage', { id: row.id }), lastModified: row.changedAt })),
  );
}

/** One part of a locale's sitemap in one round trip, or null past the last part. */
export async function sitemapPart(
  db: Db,
  categories: readonly CategoryRow[],
  origin: string,
  file: SitemapFile,
  now: number,
): Promise<string | null> {
  const fixedCount = fixedEntries(categories, null).length;
  const window = partWindow(file.part, fixedCount);
  const { summary, activityEntries } = await readTogether(db, {
    summary: summaryRead(db, now),
    activityEntries:
      window.activities.count > 0 ? activityWindowRead(db, now, window.activities.offset, window.activities.count) : known([]),
  });
  if (file.part > sitemapPartCount(fixedCount + summary.listedCount)) return null;
  const fixed = fixedEntries(categories, summary.changedAt).slice(window.fixed.offset, window.fixed.offset + window.fixed.count);
  return urlsetXml(origin, file.locale, [...fixed, ...activityEntries]);
}
