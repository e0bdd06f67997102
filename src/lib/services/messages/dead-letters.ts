/** Messages that will not be delivered, for operators to look at and send again. */
import { and, desc, eq, exists, sql } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import type { Db } from '../../data/client.ts';
import { messages } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntryIf } from '../staff/audit.ts';

/** Messages that will not be delivered, newest first: what operators look at (GET /api/v1/operator/messages). */
export async function deadMessages(db: Db, limit = 50) {
  return db
    .select({
      id: messages.id,
      kind: messages.kind,
      channel: messages.channel,
      target: messages.target,
      orderId: messages.orderId,
      attempts: messages.attempts,
      lastError: messages.lastError,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(eq(messages.status, 'dead'))
    .orderBy(desc(messages.createdAt))
    .limit(limit);
}

/** An operator sends a dead message again (say, after fixing a provider's settings): pending, its tries counted afresh. */
export async function redeliverDeadMessage(scope: StaffScope, id: string): Promise<void> {
  const { db } = scope;
  const dead = and(eq(messages.id, id), eq(messages.status, 'dead'));
  const { revived } = await batch(db, {
    audit: auditEntryIf(
      scope,
      { action: 'message.redeliver', subjectType: 'message', subjectId: id, before: { status: 'dead' }, after: { status: 'pending' } },
      exists(db.select({ one: sql`1` }).from(messages).where(dead)),
    ),
    revived: db
      .update(messages)
      .set({ status: 'pending', attempts: 0, enqueuedAt: null, lastError: null })
      .where(dead)
      .returning({ id: messages.id }),
  });
  if (revived.length === 0) throw new DomainError('not_found');
}
