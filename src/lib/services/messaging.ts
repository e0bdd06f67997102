/**
 * Delivery of codes by email or SMS, behind one interface chosen by configuration (DESIGN.md):
 * - local builds (APP_ENV=local) write to the dev outbox table and the server log;
 * - production posts each message to the mail/SMS relay at MESSAGING_WEBHOOK_URL;
 * - production without a relay refuses to send, loudly, rather than dropping codes.
 */
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { devOutbox } from '../db/schema.ts';
import { DomainError } from '../domain/errors.ts';

export type MessageChannel = 'email' | 'sms';

export interface OutgoingMessage {
  channel: MessageChannel;
  /** An email address, or a phone as "+852 91234567". */
  target: string;
  subject: string;
  body: string;
}

export interface Messenger {
  /** Delivers a message or throws; a code that cannot be delivered must never look sent. */
  send(message: OutgoingMessage): Promise<void>;
}

export interface MessagingConfig {
  APP_ENV: 'local' | 'production';
  MESSAGING_WEBHOOK_URL?: string;
  MESSAGING_WEBHOOK_TOKEN?: string;
}

/** Local delivery: a row in dev_outbox, readable at GET /api/v1/dev/outbox, and a log line. */
export function devOutboxMessenger(db: Db): Messenger {
  return {
    async send(message) {
      await db.insert(devOutbox).values(message);
      console.log(JSON.stringify({ devOutbox: message }));
    },
  };
}

/**
 * Production delivery through an HTTP relay (a mail/SMS gateway or a small function in front of
 * one): POST {channel, to, subject, text} as JSON with a bearer token; any non-2xx is a failure.
 */
export function webhookMessenger(url: string, token: string | undefined, fetcher: typeof fetch = fetch): Messenger {
  return {
    async send(message) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      let response: Response;
      try {
        response = await fetcher(url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ channel: message.channel, to: message.target, subject: message.subject, text: message.body }),
          signal: AbortSignal.timeout(8000),
        });
      } catch (error) {
        console.error('Messaging relay unreachable', message.channel, error);
        throw new DomainError('messaging_unavailable');
      }
      if (!response.ok) {
        console.error('Messaging relay refused a message', message.channel, response.status);
        throw new DomainError('messaging_unavailable');
      }
    },
  };
}

/** Production with no relay configured: every send fails with a clear log line and a 503. */
export const unconfiguredMessenger: Messenger = {
  async send(message) {
    console.error(
      `Messaging is not configured: cannot send ${message.channel} codes. Set MESSAGING_WEBHOOK_URL (and MESSAGING_WEBHOOK_TOKEN).`,
    );
    throw new DomainError('messaging_unavailable');
  },
};

/** The messenger the configuration asks for. */
export function messengerFor(config: MessagingConfig, db: Db): Messenger {
  if (config.APP_ENV === 'local') return devOutboxMessenger(db);
  if (config.MESSAGING_WEBHOOK_URL) return webhookMessenger(config.MESSAGING_WEBHOOK_URL, config.MESSAGING_WEBHOOK_TOKEN);
  return unconfiguredMessenger;
}

export interface OutboxEntry {
  channel: string;
  target: string;
  subject: string;
  body: string;
  createdAt: number;
}

const OUTBOX_PAGE = 20;

/** The latest dev-outbox messages to one address, newest first. */
export async function outboxFor(db: Db, target: string): Promise<OutboxEntry[]> {
  return db
    .select({
      channel: devOutbox.channel,
      target: devOutbox.target,
      subject: devOutbox.subject,
      body: devOutbox.body,
      createdAt: devOutbox.createdAt,
    })
    .from(devOutbox)
    .where(eq(devOutbox.target, target))
    .orderBy(desc(devOutbox.id))
    .limit(OUTBOX_PAGE);
}
