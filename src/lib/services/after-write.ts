/**
 * What follows any write, off the answer's path (the API runs it after every write request, the
 * cron sweep every minute): offers past their hold lapse, tickets that came back go to the waitlist
 * first, then the messages the
 * write's triggers left in the outbox go to the queue. A failure here is logged and retried by the
 * next write or sweep; it never undoes or fails the write itself.
 */
import type { Db } from '../db/client.ts';
import { type MessageQueue, publishPendingMessages } from './message-delivery.ts';
import { passOnReturnedTickets } from './waitlist.ts';

export interface AfterWriteResult {
  offers: number;
  published: number;
}

export async function afterWrite(db: Db, queue: MessageQueue, now: number, origin: string | null): Promise<AfterWriteResult> {
  const result: AfterWriteResult = { offers: 0, published: 0 };
  try {
    result.offers = await passOnReturnedTickets(db, now);
  } catch (error) {
    console.error(JSON.stringify({ event: 'waitlist_offer_pass_failed', error: String(error) }));
  }
  try {
    result.published = await publishPendingMessages(db, queue, now, origin);
  } catch (error) {
    console.error(JSON.stringify({ event: 'message_publish_failed', error: String(error) }));
  }
  return result;
}
