/**
 * One high-demand on-sale's waiting room: a Durable Object per session, named by its id
 * (or per high-demand tier, named `tier:<id>`: domain/on-sale.ts),
 * so every arrival for the show meets the same single-threaded line, and nothing else in the
 * marketplace waits on it. Its line is in the object's own SQLite storage, so an eviction or a
 * deploy loses no place. The rules are domain/waiting-room.ts's; services/on-sale/waiting-room.ts calls it.
 *
 *   room             one row: the opening, the rate, whether the early group is drawn, the admission clock
 *   places           one row per account: its arrival number, its position once it has one, when it was let through
 *   checkout_health  one row: what the session's inventory object last reported of its D1 batches, which
 *                    slows the rate while checkout falls behind (`pacedAdmissionRate`)
 *
 * Checkout's door (`entryMoment`) is kept in memory: after an eviction it starts empty, which at
 * worst lets the buyers present at that moment in together once. So is whether the on-sale is sold
 * out: every join and front read brings what D1 says, so after an eviction the next one tells it.
 */
import { DurableObject } from 'cloudflare:workers';
import {
  CHECKOUT_HEALTH,
  INVENTORY_FLUSH_MAX_HOLDS,
  WAITING_ROOM_ADMISSIONS_PER_MINUTE,
  WAITING_ROOM_ENTRY,
  WAITING_ROOM_PASS_LIFETIME_MS,
} from '../config/on-sale.ts';
import {
  advanceAdmissions,
  type CheckoutHealth,
  entryMoment,
  lineRate,
  lotteryOrder,
  type PaceRules,
  pacedAdmissionRate,
  rateForTicketsLeft,
  stateOf,
  type RoomFront,
  type RoomStanding,
} from '../domain/waiting-room.ts';
import { type OnSale, waitingRoomName } from '../domain/on-sale.ts';

const PACE_RULES: PaceRules = { ...CHECKOUT_HEALTH, batchHolds: INVENTORY_FLUSH_MAX_HOLDS };

interface RoomRow extends Record<string, SqlStorageValue> {
  opens_at: number;
  per_minute: number;
  drawn: number;
  admitted_through: number;
  credit_since: number;
  lined: number;
  arrivals: number;
}

interface PlaceRow extends Record<string, SqlStorageValue> {
  user_id: number;
  position: number | null;
  admitted_at: number | null;
}

/** A uniform number in [0, 1) the outcome of the draw cannot be guessed from. */
function unpredictable(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32;
}

export class WaitingRoom extends DurableObject<Cloudflare.Env> {
  private readonly sql: SqlStorage;
  /** The stored checkout_health row, read once per life of the object (undefined until then). */
  private health: CheckoutHealth | null | undefined;
  /** Checkout's door: when the next buyer first seen through may enter. */
  private nextEntryAt = 0;
  /** What the latest join or front read found in D1: no ticket of the on-sale left, so the line waits. */
  private soldOut = false;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS room (
        id INTEGER PRIMARY KEY CHECK (id = 1), opens_at INTEGER NOT NULL, per_minute INTEGER NOT NULL,
        drawn INTEGER NOT NULL DEFAULT 0, admitted_through INTEGER NOT NULL DEFAULT 0,
        credit_since INTEGER NOT NULL, lined INTEGER NOT NULL DEFAULT 0, arrivals INTEGER NOT NULL DEFAULT 0);
      CREATE TABLE IF NOT EXISTS places (
        user_id INTEGER PRIMARY KEY, arrival INTEGER NOT NULL, position INTEGER UNIQUE, admitted_at INTEGER);
      CREATE TABLE IF NOT EXISTS checkout_health (
        id INTEGER PRIMARY KEY CHECK (id = 1), hold_ms INTEGER NOT NULL, backlog INTEGER NOT NULL, reported_at INTEGER NOT NULL,
        calm_ms INTEGER NOT NULL);`);
    // A room made before the calm hold was kept: its row gains the column, its latest hold as the calm one.
    const columns = this.sql.exec<{ name: string }>(`SELECT name FROM pragma_table_info('checkout_health')`).toArray();
    if (!columns.some((column) => column.name === 'calm_ms')) {
      this.sql.exec(
        'ALTER TABLE checkout_health ADD COLUMN calm_ms INTEGER NOT NULL DEFAULT 0; UPDATE checkout_health SET calm_ms = hold_ms',
      );
    }
  }

  /**
   * The account's place, taking one when it has none: in the early group before the opening, else at
   * the end of the line. A second arrival keeps the first's place; one whose pass ran out unused goes
   * to the end again. `soldOut`: whether D1 has no ticket of the on-sale left now.
   */
  join(userId: number, now: number, opensAt: number, soldOut: boolean): Promise<RoomStanding> {
    const standing = this.ctx.storage.transactionSync(() => {
      let room = this.told(now, opensAt, soldOut);
      let place = this.placeOf(userId);
      const lapsed = place?.admitted_at != null && place.admitted_at + WAITING_ROOM_PASS_LIFETIME_MS <= now;
      if (!place || lapsed) {
        const position = room.drawn ? room.lined + 1 : null;
        this.sql.exec(
          `INSERT INTO places (user_id, arrival, position, admitted_at) VALUES (?1, ?2, ?3, NULL)
           ON CONFLICT (user_id) DO UPDATE SET arrival = ?2, position = ?3, admitted_at = NULL`,
          userId,
          room.arrivals + 1,
          position,
        );
        const lined = position === null ? 0 : 1;
        this.sql.exec('UPDATE room SET arrivals = arrivals + 1, lined = lined + ?1', lined);
        // What was just written, without reading it back (a join is the crowd's one request to the room).
        room = { ...room, arrivals: room.arrivals + 1, lined: room.lined + lined };
        place = { user_id: userId, position, admitted_at: null };
      }
      return this.standingOf(userId, place, room, now);
    });
    return this.entered(standing, now);
  }

  /** Where the account stands, or null when it is not in the line. */
  async standing(userId: number, now: number): Promise<RoomStanding | null> {
    const standing = this.ctx.storage.transactionSync(() => {
      const stored = this.roomRow();
      if (!stored) return null;
      // The room first: its draw may be what gives the place its position.
      const room = this.current(now, null, stored);
      const place = this.placeOf(userId);
      return place ? this.standingOf(userId, place, room, now) : null;
    });
    return standing && this.entered(standing, now);
  }

  /** The standing, answered once its buyer's moment at checkout's door has come (the wait holds no lock: others go on meanwhile). */
  private async entered(standing: RoomStanding, now: number): Promise<RoomStanding> {
    if (standing.admittedAt !== null && standing.admittedAt > now) await scheduler.wait(standing.admittedAt - now);
    return standing;
  }

  /** The room's progress, the same for everyone. `soldOut`: whether D1 has no ticket of the on-sale left now. */
  front(now: number, opensAt: number, soldOut: boolean): RoomFront {
    return this.ctx.storage.transactionSync(() => this.frontAt(this.told(now, opensAt, soldOut), now));
  }

  /**
   * The room told whether anything is left to sell, then brought up to now: told first, because
   * buyers let through for the moments since it last heard would find nothing left.
   */
  private told(now: number, opensAt: number, soldOut: boolean): RoomRow {
    this.soldOut = soldOut;
    return this.current(now, opensAt);
  }

  /**
   * The session's inventory object reports a batch it wrote: how long its oldest hold took from the
   * buyer's request, and how many holds wait behind it. The line first moves on to now at the rate
   * that held until now.
   */
  reportCheckout(holdMs: number, backlog: number, now: number): void {
    this.ctx.storage.transactionSync(() => {
      const stored = this.roomRow();
      if (stored) this.current(now, null, stored);
      const [health] = this.sql
        .exec<{ hold_ms: number; calm_ms: number }>(
          `INSERT INTO checkout_health (id, hold_ms, backlog, reported_at, calm_ms) VALUES (1, ?1, ?2, ?3, ?1)
           ON CONFLICT (id) DO UPDATE SET hold_ms = ?1, backlog = ?2, reported_at = ?3, calm_ms = min(calm_ms, ?1)
           RETURNING hold_ms, calm_ms`,
          Math.round(holdMs),
          backlog,
          now,
        )
        .toArray();
      this.health = { holdMs: health.hold_ms, backlog, reportedAt: now, calmHoldMs: health.calm_ms };
    });
  }

  /** Lets the next `count` buyers through now, whatever the rate (local builds only, through the dev route). */
  admitNext(count: number, now: number, opensAt: number): RoomFront {
    return this.ctx.storage.transactionSync(() => {
      const room = this.current(now, opensAt);
      this.sql.exec('UPDATE room SET admitted_through = ?1', Math.min(room.lined, room.admitted_through + count));
      return this.frontAt(this.roomRow()!, now);
    });
  }

  /** Changes the room's rate from now on (local builds only: the tests stop the clock with 0). */
  setRate(admissionsPerMinute: number, now: number, opensAt: number): RoomFront {
    return this.ctx.storage.transactionSync(() => {
      this.current(now, opensAt);
      this.sql.exec('UPDATE room SET per_minute = ?1, credit_since = ?2', admissionsPerMinute, now);
      return this.frontAt(this.roomRow()!, now);
    });
  }

  /** The room's progress brought up to now, as its buyers would see it; null before the room's first use (none is made for asking). */
  peek(now: number): RoomFront | null {
    return this.ctx.storage.transactionSync(() => {
      const stored = this.roomRow();
      return stored && this.frontAt(this.current(now, null, stored), now);
    });
  }

  private roomRow(): RoomRow | null {
    return this.sql.exec<RoomRow>('SELECT * FROM room').toArray()[0] ?? null;
  }

  private placeOf(userId: number): PlaceRow | null {
    return this.sql.exec<PlaceRow>('SELECT user_id, position, admitted_at FROM places WHERE user_id = ?1', userId).toArray()[0] ?? null;
  }

  /**
   * The room brought up to `now`: created on first use, its opening moved while the early group is
   * undrawn (`opensAt` null keeps it), the early group drawn once the sale opened, the line moved on.
   */
  private current(now: number, opensAt: number | null, stored: RoomRow | null = this.roomRow()): RoomRow {
    let room = stored;
    if (!room) {
      this.sql.exec(
        'INSERT INTO room (id, opens_at, per_minute, credit_since) VALUES (1, ?1, ?2, ?3)',
        opensAt ?? now,
        WAITING_ROOM_ADMISSIONS_PER_MINUTE,
        now,
      );
      room = this.roomRow()!;
    } else if (opensAt !== null && !room.drawn && opensAt !== room.opens_at) {
      this.sql.exec('UPDATE room SET opens_at = ?1', opensAt);
      room = { ...room, opens_at: opensAt };
    }
    if (!room.drawn && now >= room.opens_at) room = this.draw(room);
    const moved = advanceAdmissions(
      { admittedThrough: room.admitted_through, creditSince: room.credit_since },
      {
        opensAt: room.opens_at,
        admissionsPerMinute: lineRate(this.paceAt(room, now), this.nextEntryAt, now, WAITING_ROOM_ENTRY),
        lined: room.lined,
      },
      now,
    );
    if (moved.admittedThrough !== room.admitted_through || moved.creditSince !== room.credit_since) {
      this.sql.exec('UPDATE room SET admitted_through = ?1, credit_since = ?2', moved.admittedThrough, moved.creditSince);
    }
    return { ...room, admitted_through: moved.admittedThrough, credit_since: moved.creditSince };
  }

  /** The early group's lottery: each early account gets its position at random, ahead of every later arrival. */
  private draw(room: RoomRow): RoomRow {
    const early = this.sql
      .exec<{ user_id: number }>('SELECT user_id FROM places WHERE position IS NULL ORDER BY arrival')
      .toArray()
      .map((row) => row.user_id);
    lotteryOrder(early, unpredictable).forEach((userId, index) => {
      this.sql.exec('UPDATE places SET position = ?1 WHERE user_id = ?2', room.lined + index + 1, userId);
    });
    const lined = room.lined + early.length;
    this.sql.exec('UPDATE room SET drawn = 1, lined = ?1', lined);
    return { ...room, drawn: 1, lined };
  }

  /**
   * The account's standing against the room as it is now. The first time it is seen through it takes
   * its moment at checkout's door, which is when its pass starts.
   */
  private standingOf(userId: number, place: PlaceRow, room: RoomRow, now: number): RoomStanding {
    const front = this.frontAt(room, now);
    let state = stateOf(place.position, front);
    let admittedAt = place.admitted_at;
    if (state === 'admitted' && admittedAt === null) {
      const entry = entryMoment(this.nextEntryAt, now, front.admissionsPerMinute, WAITING_ROOM_ENTRY.mostMs);
      this.nextEntryAt = entry.nextEntryAt;
      admittedAt = entry.enterAt;
      this.sql.exec('UPDATE places SET admitted_at = ?1 WHERE user_id = ?2', admittedAt, userId);
    }
    if (state === 'admitted' && admittedAt !== null && admittedAt + WAITING_ROOM_PASS_LIFETIME_MS <= now) state = 'expired';
    return { state, position: place.position, admittedAt: state === 'admitted' ? admittedAt : null, front };
  }

  /** The rate the line moves at now: the room's own, slowed while its checkout falls behind, none while nothing is left to sell. */
  private paceAt(room: RoomRow, now: number): number {
    if (this.health === undefined) {
      const [row] = this.sql
        .exec<{ hold_ms: number; backlog: number; reported_at: number; calm_ms: number }>(
          'SELECT hold_ms, backlog, reported_at, calm_ms FROM checkout_health',
        )
        .toArray();
      this.health = row ? { holdMs: row.hold_ms, backlog: row.backlog, reportedAt: row.reported_at, calmHoldMs: row.calm_ms } : null;
    }
    return rateForTicketsLeft(pacedAdmissionRate(room.per_minute, this.health, now, PACE_RULES), this.soldOut);
  }

  /** The room's progress as everyone sees it, with the rate it moves at now (what the pages' estimates use). */
  private frontAt(room: RoomRow, now: number): RoomFront {
    return frontOf(room, this.paceAt(room, now), this.soldOut);
  }
}

function frontOf(room: RoomRow, admissionsPerMinute: number, soldOut: boolean): RoomFront {
  return {
    opensAt: room.opens_at,
    admissionsPerMinute,
    drawn: room.drawn === 1,
    admittedThrough: room.admitted_through,
    lined: room.lined,
    soldOut,
  };
}

/** The waiting room of a high-demand on-sale: a session's, or one tier's (domain/on-sale.ts). */
export function waitingRoom(env: Pick<Cloudflare.Env, 'WAITING_ROOM'>, onSale: OnSale): DurableObjectStub<WaitingRoom> {
  return env.WAITING_ROOM.get(env.WAITING_ROOM.idFromName(waitingRoomName(onSale)));
}
