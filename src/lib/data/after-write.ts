/**
 * The work that follows any write, off the answer's path, done once per write request: in the
 * request's own write batch when a service carries it (`ride`), in another writer's batch (`doneBy`:
 * a high-demand order's inventory object, which carries it once per batch of buyers), else in a
 * batch of its own (`settle`, which the API calls after every write). What the work is (the pass:
 * its statements, and what follows once they answered) is handed in by whoever makes the work.
 * A failure is logged and retried by the next write or sweep; it never undoes or fails the write.
 */
import { bookmarkOf, type Db } from './client.ts';

export interface AfterWriteResult {
  offers: number;
  published: number;
}

/** One pass of the work: its statements, to go last in a batch, and what follows once their batch answered. */
export interface AfterWritePass {
  statements: D1PreparedStatement[];
  finish(answers: readonly D1Result[], result: AfterWriteResult): Promise<void>;
}

/** The pass to run at a moment. */
export type AfterWritePassAt = (now: number) => AfterWritePass;

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

/** The pass in a batch of its own. */
export function runAfterWritePass(db: Db, pass: AfterWritePass): Promise<AfterWriteResult> {
  return logged(async (result) => pass.finish(await db.$client.batch(pass.statements), result));
}

/** What a write batch carries of the after-write work: its statements, to go last, and the call to make with their answers once it committed. */
export interface AfterWriteRide {
  statements: D1PreparedStatement[];
  carried(answers: readonly D1Result[]): void;
}

export class AfterWriteWork {
  private readonly db: Db;
  private readonly passAt: AfterWritePassAt;
  /** The origin the messages' links are built on when none is configured (local builds). */
  readonly origin: string | null;
  private sending: Promise<AfterWriteResult> | null = null;
  /** The D1 bookmark of the other writer's batch that did the work, when it wrote this request's rows. */
  private writerBookmark: string | null = null;

  constructor(db: Db, origin: string | null, passAt: AfterWritePassAt) {
    this.db = db;
    this.origin = origin;
    this.passAt = passAt;
  }

  /** The statements for a write batch; a batch that fails leaves the work to `settle`. */
  ride(now: number): AfterWriteRide {
    const pass = this.passAt(now);
    return {
      statements: pass.statements,
      carried: (answers) => {
        this.sending = logged((result) => pass.finish(answers, result));
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
    return this.sending ?? runAfterWritePass(this.db, this.passAt(now));
  }

  /**
   * The bookmark the browser keeps after the write, so its next reads see it on any replica: the
   * other writer's when it wrote the request's rows, else the request's own session's.
   */
  bookmark(): string | null {
    return this.writerBookmark ?? bookmarkOf(this.db);
  }
}
