/**
 * What follows any write, off the answer's path (the API runs it after every write request, the
 * cron sweep every minute): offers past their hold lapse, tickets that came back go to the waitlist
 * first, then the messages the write's triggers left in the outbox go to the queue. All of it is one
 * D1 batch (one round trip), in that order, so the offers' own messages go out with the rest. A
 * failure is logged and retried by the next write or sweep; it never undoes or fails the write.
 */
import type { Db } from '../db/client.ts';
import {
  claimedIds,
  claimPendingMessagesStatement,
  type MessageQueue,
  publishPendingMessages,
  sendClaimedMessages,
} from './message-delivery.ts';
import { lapseOverdueOffersStatement, offerNextStatements, offerReturnedTickets, offersMade } from './waitlist.ts';

export interface AfterWriteResult {
  offers: number;
  published: number;
}

export async function afterWrite(db: Db, queue: MessageQueue, now: number, origin: string | null): Promise<AfterWriteResult> {
  const result: AfterWriteResult = { offers: 0, published: 0 };
  try {
    const offers = offerNextStatements(db, now);
    const answers = await db.$client.batch([lapseOverdueOffersStatement(db, now), ...offers, claimPendingMessagesStatement(db, now)]);
    const pass = offersMade(answers.slice(1, 1 + offers.length));
    result.offers = pass.made;
    result.published = await sendClaimedMessages(db, queue, claimedIds(answers[answers.length - 1]), now, origin);
    // A long line took more than one pass: finish it, then hand over the messages of those offers too.
    if (pass.more) {
      result.offers += await offerReturnedTickets(db, now);
      result.published += await publishPendingMessages(db, queue, now, origin);
    }
  } catch (error) {
    console.error(JSON.stringify({ event: 'after_write_failed', error: String(error) }));
  }
  return result;
}
