/**
 * D1 as the bench sees it, in local builds only (data/client.ts): every round trip of a session (one
 * statement run, or one batch) is counted for the request that made it, and delayed by a fixed
 * latency that stands for a primary in a far region (`npm run bench` sets D1_LATENCY_MS). A deployed
 * worker hands Drizzle the binding itself.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** A request carrying this header (local builds) is answered whole, with its count in ROUND_TRIPS_HEADER. */
export const COUNT_ROUND_TRIPS_HEADER = 'X-Count-Round-Trips';
export const ROUND_TRIPS_HEADER = 'X-D1-Round-Trips';

interface Tally {
  roundTrips: number;
}

const tallyOfRequest = new AsyncLocalStorage<Tally>();

/** Runs a request's handling and answers how many D1 round trips it made. */
export async function countingRoundTrips<T>(handle: () => Promise<T>): Promise<{ result: T; roundTrips: number }> {
  const tally: Tally = { roundTrips: 0 };
  const result = await tallyOfRequest.run(tally, handle);
  return { result, roundTrips: tally.roundTrips };
}

type Trip = <T>(call: () => Promise<T>) => Promise<T>;

function tripWith(latencyMs: number): Trip {
  return async (call) => {
    const tally = tallyOfRequest.getStore();
    if (tally) tally.roundTrips += 1;
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    return call();
  };
}

/** A prepared statement whose runs are round trips; a batch unwraps it to send the binding's own. */
class MeasuredStatement {
  readonly inner: D1PreparedStatement;
  private readonly trip: Trip;

  constructor(inner: D1PreparedStatement, trip: Trip) {
    this.inner = inner;
    this.trip = trip;
  }

  bind(...values: unknown[]): MeasuredStatement {
    return new MeasuredStatement(this.inner.bind(...values), this.trip);
  }

  first(column?: string) {
    return this.trip(() => (column === undefined ? this.inner.first() : this.inner.first(column)));
  }

  run() {
    return this.trip(() => this.inner.run());
  }

  all() {
    return this.trip(() => this.inner.all());
  }

  raw(options?: { columnNames?: false }) {
    return this.trip(() => this.inner.raw(options));
  }
}

const unwrapped = (statement: D1PreparedStatement) =>
  statement instanceof MeasuredStatement ? (statement as MeasuredStatement).inner : statement;

/** A D1 session with its round trips counted and delayed by latencyMs each. */
export function measuredD1(session: D1DatabaseSession, latencyMs: number): D1DatabaseSession {
  const trip = tripWith(latencyMs);
  const measured = {
    prepare: (query: string) => new MeasuredStatement(session.prepare(query), trip) as unknown as D1PreparedStatement,
    batch: <T>(statements: D1PreparedStatement[]) => trip(() => session.batch<T>(statements.map(unwrapped))),
    getBookmark: () => session.getBookmark(),
  };
  return measured as unknown as D1DatabaseSession;
}
