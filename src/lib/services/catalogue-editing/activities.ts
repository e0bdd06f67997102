/**
 * Activities, edited from the console. A new activity is a draft (status 0): no buyer sees it
 * anywhere until it is published (publishing.ts). Its dates follow its sessions (sessions.ts).
 */
import { and, asc, desc, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import type { Db } from '../../data/client.ts';
import { activities, activitySessions, listings, orders, ticketTiers, venues } from '../../db/schema.ts';
import { type ActivityDraft, activityProblems, activityRow, UNPUBLISHED_STATUS } from '../../domain/catalogue-drafts.ts';
import { DomainError } from '../../domain/errors.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';
import { activityBoxOfficeListings, hasBoxOfficeListings, requireBoxOfficeSeller } from './box-office.ts';
import { nextId, refuseProblems, requireArtist, requireCategory, requireCity, requireVenueIn } from './records.ts';

export type ActivityRecord = typeof activities.$inferSelect;
export type SessionRecord = typeof activitySessions.$inferSelect;
export type TierRecord = typeof ticketTiers.$inferSelect;

/** A session as the console edits it: its tiers, and whether orders or listings already hold it. */
export interface EditedSession extends SessionRecord {
  ordered: number;
  tiers: (TierRecord & { sold: number; listed: number })[];
}

export interface EditedActivity {
  activity: ActivityRecord;
  sessions: EditedSession[];
}

export type PublishFilter = 'all' | 'draft' | 'published';

export interface ActivityListFilter {
  /** Part of a name in any script, or an id. */
  query: string;
  published: PublishFilter;
  page: number;
}

export interface ActivityListRow {
  id: number;
  nameEn: string;
  nameZhHant: string;
  nameZhHans: string;
  status: number;
  publishedAt: number | null;
  startsAt: number;
  cityId: number;
  venueNameEn: string;
}

export const ACTIVITY_LIST_PAGE_SIZE = 50;

/** The console's list of activities, newest first, narrowed by a name or id and by published or not. */
export async function activityList(db: Db, filter: ActivityListFilter): Promise<ActivityListRow[]> {
  const where: (SQL | undefined)[] = [];
  const text = filter.query.trim();
  if (text !== '') {
    const pattern = `%${text.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    where.push(
      or(
        sql`${activities.nameEn} LIKE ${pattern} ESCAPE '\\'`,
        sql`${activities.nameZhHant} LIKE ${pattern} ESCAPE '\\'`,
        sql`${activities.nameZhHans} LIKE ${pattern} ESCAPE '\\'`,
        /^\d+$/.test(text) ? eq(activities.id, Number(text)) : undefined,
      ),
    );
  }
  if (filter.published === 'draft') where.push(eq(activities.status, UNPUBLISHED_STATUS));
  if (filter.published === 'published') where.push(ne(activities.status, UNPUBLISHED_STATUS));
  return db
    .select({
      id: activities.id,
      nameEn: activities.nameEn,
      nameZhHant: activities.nameZhHant,
      nameZhHans: activities.nameZhHans,
      status: activities.status,
      publishedAt: activities.publishedAt,
      startsAt: activities.startsAt,
      cityId: activities.cityId,
      venueNameEn: venues.nameEn,
    })
    .from(activities)
    .innerJoin(venues, eq(venues.id, activities.venueId))
    .where(and(...where))
    .orderBy(desc(activities.id))
    .limit(ACTIVITY_LIST_PAGE_SIZE)
    .offset((filter.page - 1) * ACTIVITY_LIST_PAGE_SIZE);
}

export async function activityRecord(db: Db, id: number): Promise<ActivityRecord> {
  const [activity] = await db.select().from(activities).where(eq(activities.id, id));
  if (!activity) throw new DomainError('activity_not_found');
  return activity;
}

/** The activity with its sessions and tiers, and what is already ordered and listed of each. */
export async function editedActivity(db: Db, id: number): Promise<EditedActivity> {
  const activity = await activityRecord(db, id);
  const sessions = await db
    .select()
    .from(activitySessions)
    .where(eq(activitySessions.activityId, id))
    .orderBy(asc(activitySessions.startsAt));
  const sessionIds = sessions.map((session) => session.id);
  if (sessionIds.length === 0) return { activity, sessions: [] };
  const live = sql`${orders.status} NOT IN ('cancelled', 'refunded')`;
  const [tiers, sold, listed] = await Promise.all([
    db.select().from(ticketTiers).where(inArray(ticketTiers.sessionId, sessionIds)).orderBy(asc(ticketTiers.sort), asc(ticketTiers.id)),
    db
      .select({ tierId: orders.tierId, sessionId: orders.sessionId, quantity: sql<number>`sum(${orders.quantity})` })
      .from(orders)
      .where(and(inArray(orders.sessionId, sessionIds), live))
      .groupBy(orders.tierId),
    db
      .select({ tierId: listings.tierId, count: sql<number>`count(*)` })
      .from(listings)
      .innerJoin(ticketTiers, eq(ticketTiers.id, listings.tierId))
      .where(inArray(ticketTiers.sessionId, sessionIds))
      .groupBy(listings.tierId),
  ]);
  const soldOf = new Map(sold.map((row) => [row.tierId, row.quantity]));
  const listedOf = new Map(listed.map((row) => [row.tierId, row.count]));
  return {
    activity,
    sessions: sessions.map((session) => ({
      ...session,
      ordered: sold.filter((row) => row.sessionId === session.id).reduce((sum, row) => sum + row.quantity, 0),
      tiers: tiers
        .filter((tier) => tier.sessionId === session.id)
        .map((tier) => ({ ...tier, sold: soldOf.get(tier.id) ?? 0, listed: listedOf.get(tier.id) ?? 0 })),
    })),
  };
}

async function checked(scope: StaffScope, draft: ActivityDraft) {
  refuseProblems(activityProblems(draft));
  requireCity(scope, draft.cityId);
  await Promise.all([
    requireCategory(scope.db, draft.categoryId),
    requireVenueIn(scope.db, draft.venueId, draft.cityId),
    requireArtist(scope.db, draft.artistId),
    requireBoxOfficeSeller(scope.db, draft.boxOfficeSellerId),
  ]);
  return activityRow(draft);
}

/** A new draft; until it has sessions its dates are the moment it was made. */
export async function createActivity(scope: StaffScope, draft: ActivityDraft): Promise<ActivityRecord> {
  const row = {
    id: await nextId(scope.db, activities),
    ...(await checked(scope, draft)),
    status: UNPUBLISHED_STATUS,
    startsAt: scope.now,
    endsAt: scope.now,
    saleStartsAt: scope.now,
    createdAt: scope.now,
  };
  const { inserted } = await batch(scope.db, {
    inserted: scope.db.insert(activities).values(row).returning(),
    audit: auditEntry(scope, { action: 'activity.create', subjectType: 'activity', subjectId: row.id, before: null, after: row }),
  });
  return inserted[0];
}

/**
 * Saves the activity's fields. A published one shows its new sale state at once; the write moves the
 * catalogue version (migration 0012), so shared pages are rendered afresh, and its search document
 * (migration 0018's triggers) in the same statement.
 */
export async function updateActivity(scope: StaffScope, id: number, draft: ActivityDraft): Promise<ActivityRecord> {
  const before = await activityRecord(scope.db, id);
  const row = await checked(scope, draft);
  const status = before.status === UNPUBLISHED_STATUS ? UNPUBLISHED_STATUS : row.saleStatus;
  // Buyers may hold the box office's tickets: its listings stay its own.
  const boxOfficeChanged = before.boxOfficeSellerId !== null && before.boxOfficeSellerId !== row.boxOfficeSellerId;
  if (boxOfficeChanged && (await hasBoxOfficeListings(scope.db, id, before.boxOfficeSellerId!))) {
    throw new DomainError('box_office_in_use', {}, 'boxOfficeSellerId');
  }
  const { updated } = await batch(scope.db, {
    updated: scope.db
      .update(activities)
      .set({ ...row, status })
      .where(eq(activities.id, id))
      .returning(),
    boxOffice: activityBoxOfficeListings(scope.db, id, scope.now),
    audit: auditEntry(scope, { action: 'activity.update', subjectType: 'activity', subjectId: id, before, after: { id, ...row, status } }),
  });
  return updated[0];
}
