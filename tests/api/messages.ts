/**
 * The message outbox as the API tests read it: the rows state changes wrote, delivering them as the
 * queue consumer would (no queue runs in the tests), and what the dev outbox then holds.
 */
import { env } from 'cloudflare:workers';
import { asc, eq } from 'drizzle-orm';
import { database } from '../../src/lib/data/client.ts';
import { messages } from '../../src/lib/db/schema.ts';
import type { OutboxEntry } from '../../src/lib/services/messages/providers/dev-outbox.ts';
import { deliverQueuedMessage } from '../../src/lib/services/messages/delivery.ts';
import { TestClient } from './auth-client.ts';

export type MessageRow = typeof messages.$inferSelect;

/** The messages about one order, or to one user, oldest first. */
export async function messagesOf(about: { orderId: number } | { userId: number }): Promise<MessageRow[]> {
  const where = 'orderId' in about ? eq(messages.orderId, about.orderId) : eq(messages.userId, about.userId);
  return database(env.DB).select().from(messages).where(where).orderBy(asc(messages.createdAt), asc(messages.dedupeKey));
}

/** One delivery attempt of every pending message, in local mode (into the dev outbox). */
export async function deliverPendingMessages(now = Date.now()): Promise<void> {
  const db = database(env.DB);
  const pending = await db.select({ id: messages.id }).from(messages).where(eq(messages.status, 'pending'));
  for (const { id } of pending) await deliverQueuedMessage(db, env, { id, origin: 'http://localhost' }, now);
}

/** What the dev outbox holds for an address, newest first. */
export async function outboxOf(target: string): Promise<OutboxEntry[]> {
  const answer = await new TestClient().call<OutboxEntry[]>(`/api/v1/dev/outbox?target=${encodeURIComponent(target)}`);
  return answer.body.data;
}
