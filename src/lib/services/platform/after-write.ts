/**
 * What follows any write, off the answer's path (the API runs it after every write request, the
 * cron sweep every minute): offers past their hold lapse, tickets that came back go to the waitlist
 * first, then the messages the write's triggers left in the outbox go to the queue. All of it is one
 * D1 batch (one round trip), in that order, so the offers' own messages go out with the rest.
 *
 * A write that is itself one D1 batch (checkout's order) can carry that batch's statements last in
 * its own (data/after-write.ts: AfterWriteWork.ride): one round trip and one transaction instead of two.
 */
import { type AfterWritePass, type AfterWriteResult, AfterWriteWork, runAfterWritePass } from '../../data/after-write.ts';
import { rawParts } from '../../data/batch.ts';
import type { Db } from '../../data/client.ts';
import {
  claimedIds,
  claimPendingMessagesStatement,
  type MessageQueue,
  publishPendingMessages,
  sendClaimedMessages,
} from '../messages/delivery.ts';
import { lapseOverdueOffersStatement, offerNextStatements, offerReturnedTickets, offersMade } from '../on-sale/waitlist.ts';

/** The pass's statements, and what follows once their batch answered: the claimed messages sent, a long line finished. */
export function afterWritePass(db: Db, queue: MessageQueue, now: number, origin: string | null): AfterWritePass {
  const { statements, answer } = rawParts({
    lapsed: lapseOverdueOffersStatement(db, now),
    offers: offerNextStatements(db, now),
    claimed: claimPendingMessagesStatement(db, now),
  });
  const finish = async (results: readonly D1Result[], result: AfterWriteResult): Promise<void> => {
    const answers = answer(results);
    const made = offersMade(answers.offers);
    result.offers = made.made;
    result.published = await sendClaimedMessages(db, queue, claimedIds(answers.claimed), now, origin);
    // A long line took more than one pass: finish it, then hand over the messages of those offers too.
    if (made.more) {
      result.offers += await offerReturnedTickets(db, now);
      result.published += await publishPendingMessages(db, queue, now, origin);
    }
  };
  return { statements, finish };
}

/** The pass in a batch of its own (the sweep's). */
export function afterWrite(db: Db, queue: MessageQueue, now: number, origin: string | null): Promise<AfterWriteResult> {
  return runAfterWritePass(db, afterWritePass(db, queue, now, origin));
}

/** One write request's after-write work (data/after-write.ts), whose pass is this one. */
export function afterWriteWork(db: Db, queue: MessageQueue, origin: string | null): AfterWriteWork {
  return new AfterWriteWork(db, origin, (now) => afterWritePass(db, queue, now, origin));
}
