/** Notify-me subscriptions to an activity, and the messages that tell subscribers its sale has started. */
import { and, eq } from 'drizzle-orm';
import { SALE_STARTED_NOTICE_WINDOW_MS } from '../../config/messages.ts';
import type { Db } from '../../data/client.ts';
import { activities, favourites } from '../../db/schema.ts';
import { ACTIVITY_STATUS } from '../../domain/activity.ts';
import { UNPUBLISHED_STATUS } from '../../domain/catalogue-drafts.ts';
import { DomainError } from '../../domain/errors.ts';
import type { UserScope } from '../platform/scope.ts';

/** Favourite type 1 of the spec's `v1/activity/favorite/{id}?type=1`: notify me when tickets are available. */
export const FAVOURITE_TYPE_NOTIFY = 1;
export const FAVOURITE_TYPES = [FAVOURITE_TYPE_NOTIFY] as const;

async function requireActivity(db: Db, activityId: number): Promise<void> {
  const [row] = await db.select({ id: activities.id, status: activities.status }).from(activities).where(eq(activities.id, activityId));
  if (!row || row.status === UNPUBLISHED_STATUS) throw new DomainError('activity_not_found');
}

/** Whether the user subscribed to an activity with a favourite type (notify me when available). */
export async function subscriptionStatus(scope: UserScope, activityId: number, type: number): Promise<boolean> {
  const { db, userId } = scope;
  await requireActivity(db, activityId);
  const [row] = await db
    .select({ type: favourites.type })
    .from(favourites)
    .where(and(eq(favourites.userId, userId), eq(favourites.activityId, activityId), eq(favourites.type, type)));
  return row !== undefined;
}

/** Subscribes the user; subscribing again changes nothing, so a retried request is harmless. */
export async function subscribe(scope: UserScope, activityId: number, type: number): Promise<void> {
  const { db, userId, now } = scope;
  await requireActivity(db, activityId);
  await db.insert(favourites).values({ userId, activityId, type, createdAt: now }).onConflictDoNothing();
}

/**
 * Tells each notify-me subscriber of an activity whose sale has started. A sale start time
 * passing changes no row, so the cron sweep writes these messages (an operator putting the activity
 * on sale is a trigger's, migration 0014). One per activity and subscriber (the key); a sale that
 * started more than SALE_STARTED_NOTICE_WINDOW_MS ago is not news.
 */
export async function writeSaleStartedMessages(db: Db, now: number): Promise<number> {
  const { meta } = await db.$client
    .prepare(`
    INSERT INTO messages (id, dedupe_key, kind, user_id, channel, target, payload, created_at)
    SELECT lower(hex(randomblob(16))), 'sale_started:' || a.id || ':' || r.user_id, 'sale_started', r.user_id, r.channel, r.target,
      json_object('activityId', a.id), ?1
    FROM favourites f
    JOIN activities a ON a.id = f.activity_id
    JOIN message_recipients r ON r.user_id = f.user_id
    WHERE f.type = ?2 AND a.sale_starts_at <= ?1 AND a.sale_starts_at > ?1 - ?3 AND a.status IN (?4, ?5) AND a.ends_at > ?1
    ON CONFLICT (dedupe_key) DO NOTHING`)
    .bind(now, FAVOURITE_TYPE_NOTIFY, SALE_STARTED_NOTICE_WINDOW_MS, ACTIVITY_STATUS.onSale, ACTIVITY_STATUS.booking)
    .run();
  return meta.changes;
}
