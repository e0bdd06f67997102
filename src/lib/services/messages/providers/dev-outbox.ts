/**
 * Local builds' delivery: every message becomes a dev_outbox row (read by GET /api/v1/dev/outbox
 * and the /dev/mail page) and one log line. The row is keyed by the message id, so a message the
 * queue delivers twice is stored once.
 */
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../../data/client.ts';
import { devOutbox } from '../../../db/schema.ts';
import type { MessageProvider } from './types.ts';

export function devOutboxProvider(db: Db): MessageProvider {
  return {
    async deliver(message) {
      await db
        .insert(devOutbox)
        .values({
          channel: message.channel,
          target: message.to,
          subject: message.subject,
          body: message.text,
          html: message.html,
          messageId: message.id,
        })
        .onConflictDoNothing({ target: devOutbox.messageId });
      // A code or an SMS is short and what a developer looks for in the log; an email is read at /dev/mail.
      const { id, channel, to, subject, text, html } = message;
      console.log(JSON.stringify({ devOutbox: { id, channel, to, subject, ...(html === null ? { text } : {}) } }));
    },
  };
}

export interface OutboxEntry {
  channel: string;
  target: string;
  subject: string;
  body: string;
  html: string | null;
  messageId: string | null;
  createdAt: number;
}

/** How many messages the outbox lists at once. */
export const OUTBOX_PAGE = 50;

/** The latest dev-outbox messages, newest first: all of them, or those to one address. */
export async function outboxFor(db: Db, target?: string): Promise<OutboxEntry[]> {
  const query = db
    .select({
      channel: devOutbox.channel,
      target: devOutbox.target,
      subject: devOutbox.subject,
      body: devOutbox.body,
      html: devOutbox.html,
      messageId: devOutbox.messageId,
      createdAt: devOutbox.createdAt,
    })
    .from(devOutbox);
  return (target === undefined ? query : query.where(eq(devOutbox.target, target))).orderBy(desc(devOutbox.id)).limit(OUTBOX_PAGE);
}
