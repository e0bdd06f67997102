/**
 * What follows any write, off the answer's path (the API runs it after every write request, the
 * cron sweep every minute): offers past their hold lapse, tickets that came back go to the waitlist
 * first, then the messages the write's triggers left in the outbox go to the queue. All of it is one
 * D1 batch (one round trip), in that order, so the offers' own messages go out with the rest. A
 * failure is logged and retried by the next write or sweep; it never undoes or fails the write.
 *
 * A write that is itself one D1 batch (checkout's order) can carry that batch's statements last in
 * its own (AfterWriteWork.ride): one round trip and one transaction instead of two.
 */
import { bookmarkOf, type Db } from '../../db/client.ts';
import {
  claimedIds,
  claimPendingMessagesStatement,
  type MessageQueue,
  publishPendingMessages,
  sendClaimedMessages,
} from '../messages/delivery.ts';
import { lapseOverdueOffersStatement, offerNextStatements, offerReturnedTickets, offersMade } from '../on-sale/waitlist.ts';

export interface AfterWriteResult {
  offers: number;
  published: number;
}

/** The pass's statements, and what follows once their batch answered: the claimed messages sent, a long line finished. */
function pass(db: Db, queue: MessageQueue, now: number, origin: string | null) {
  const offers = offerNextStatements(db, now);
  const statements = [lapseOverdueOffersStatement(db, now), ...offers, claimPendingMessagesStatement(db, now)];
  const finish = async (answers: readonly D1Result[], result: AfterWriteResult): Promise<void> => {
    const made = offersMade(answers.slice(1, 1 + offers.length));
    result.offers = made.made;
    result.published = await sendClaimedMessages(db, queue, claimedIds(answers[answers.length - 1]), now, origin);
    // A long line took more than one pass: finish it, then hand over the messages of those offers too.
    if (made.more) {
      result.offers += await offerReturnedTickets(db, now);
      result.published += await publishPendingMessages(db, queue, now, origin);
    }
  };
  return { statements, finish };
}

/** The work's result so far: a failure is logged, never thrown. */
async function logged(work: (result: AfterWriteResult) => Promise<void>): Promise<AfterWriteResult> {
  const result: AfterWriteResult = { offers: 0, published: 0 };
  try {
    await work(result);
  } catch (error) {
    console.error(JSON.stringify({ event: 'after_write_failed', error: String(error) }));
  }
  return result;
}

export async function afterWrite(db: Db, queue: MessageQueue, now: number, origin: string | null): Promise<AfterWriteResult> {
  return logged(async (result) => {
    const { statements, finish } = pass(db, queue, now, origin);
    await finish(await db.$client.batch(statements), result);
  });
}

/** What a write batch carries of the after-write work: its statements, to go last, and the call to make with their answers once it committed. */
export interface AfterWriteRide {
  statements: D1PreparedStatement[];
  carried(answers: readonly D1Result[]): void;
}

/**
 * One write request's after-write work, done once: in the request's own write batch when a service
 * carries it (`ride`), in another writer's batch (`doneBy`: a high-demand order's inventory object,
 * which carries it once per batch of buyers), else in a batch of its own (`settle`, which the API
 * calls after every write).
 */
export class AfterWriteWork {
  private readonly db: Db;
  private readonly queue: MessageQueue;
  /** The origin the messages' links are built on when none is configured (local builds). */
  readonly origin: string | null;
  private sending: Promise<AfterWriteResult> | null = null;
  /** The D1 bookmark of the other writer's batch that did the work, when it wrote this request's rows. */
  private writerBookmark: string | null = null;

  constructor(db: Db, queue: MessageQueue, origin: string | null) {
    this.db = db;
    this.queue = queue;
    this.origin = origin;
  }

  /** The statements for a write batch; a batch that fails leaves the work to `settle`. */
  ride(now: number): AfterWriteRide {
    const { statements, finish } = pass(this.db, this.queue, now, this.origin);
    return {
      statements,
      carried: (answers) => {
        this.sending = logged((result) => finish(answers, result));
      },
    };
  }

  /**
   * The work was done by another writer's batch: nothing is left to settle. `bookmark` is that batch's
   * D1 bookmark when it wrote the request's rows (null when it wrote nothing of theirs).
   */
  doneBy(bookmark: string | null): void {
    this.sending = Promise.resolve({ offers: 0, published: 0 });
    this.writerBookmark = bookmark;
  }

  /** The rest of the work: the carried batch's messages on their way, or the whole pass. */
  settle(now: number): Promise<AfterWriteResult> {
    return this.sending ?? afterWrite(this.db, this.queue, now, this.origin);
  }

  /**
   * The bookmark the browser keeps after the write, so its next reads see it on any replica: the
   * other writer's when it wrote the request's rows, else the request's own session's.
   */
  bookmark(): string | null {
    return this.writerBookmark ?? bookmarkOf(this.db);
  }
}
