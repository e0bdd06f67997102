/**
 * Publishing: a draft becomes an activity buyers see (its status takes the sale state the editor
 * chose) and unpublishing hides it again (status 0). Every read a buyer makes — lists, search and its
 * suggestions, the calendar, the home page, the sitemap, the detail page — leaves status 0 out, and
 * the search index's triggers move the document between its live and hidden keys in the same
 * statement. The write also moves the catalogue version (migration 0012), which is part of every
 * shared page's cache key, so cached pages are rendered afresh within CATALOGUE_VERSION_REUSE_MS.
 * Publishing also puts the tiers' quotas on sale through the show's box office (box-office.ts), in
 * the same batch: a show with tickets of its own cannot be published without one.
 */
import { eq } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import { activities } from '../../db/schema.ts';
import { publishProblem, UNPUBLISHED_STATUS } from '../../domain/catalogue-drafts.ts';
import { DomainError } from '../../domain/errors.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';
import { type ActivityRecord, editedActivity } from './activities.ts';
import { activityBoxOfficeListings } from './box-office.ts';

const stateOf = (activity: ActivityRecord) => ({
  status: activity.status,
  saleStatus: activity.saleStatus,
  publishedAt: activity.publishedAt,
});

export async function publishActivity(scope: StaffScope, id: number): Promise<ActivityRecord> {
  const { activity, sessions } = await editedActivity(scope.db, id);
  const problem = publishProblem(sessions.map((session) => ({ id: session.id, tiers: session.tiers.length })));
  if (problem) throw new DomainError(problem);
  const hasQuota = sessions.some((session) => session.tiers.some((tier) => tier.quota > 0));
  if (hasQuota && activity.boxOfficeSellerId === null) throw new DomainError('box_office_required', {}, 'boxOfficeSellerId');
  const after = { status: activity.saleStatus, saleStatus: activity.saleStatus, publishedAt: scope.now };
  const { updated } = await batch(scope.db, {
    updated: scope.db.update(activities).set(after).where(eq(activities.id, id)).returning(),
    boxOffice: activityBoxOfficeListings(scope.db, id, scope.now),
    audit: auditEntry(scope, { action: 'activity.publish', subjectType: 'activity', subjectId: id, before: stateOf(activity), after }),
  });
  return updated[0];
}

export async function unpublishActivity(scope: StaffScope, id: number): Promise<ActivityRecord> {
  const { activity } = await editedActivity(scope.db, id);
  const after = { status: UNPUBLISHED_STATUS, saleStatus: activity.saleStatus, publishedAt: null };
  const { updated } = await batch(scope.db, {
    updated: scope.db.update(activities).set(after).where(eq(activities.id, id)).returning(),
    audit: auditEntry(scope, { action: 'activity.unpublish', subjectType: 'activity', subjectId: id, before: stateOf(activity), after }),
  });
  return updated[0];
}
