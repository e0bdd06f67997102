/**
 * The inventory of a high-demand session (docs/hot-on-sale.md): one Durable Object per
 * session, through which checkout holds its tickets instead of writing D1 once per buyer. The object
 * answers each hold at once from its own SQLite storage (accepted, or sold out with what is left),
 * keyed by the buyer's idempotency key, and writes the accepted ones to D1 in batches: one D1 batch
 * per flush, which starts as soon as the previous one ends (group commit), so the hot show costs
 * D1 one write per batch of buyers while the rest of the marketplace writes between them. A buyer's
 * answer waits for its batch, so the order is in D1 (payable, cancellable) when the buyer sees it.
 *
 * Its stock is D1's, as read back at the end of every flush, less the holds not yet written
 * (domain/session-inventory.ts). A release is written to D1 as always (the `orders_release_hold`
 * trigger on expiry or cancel) and seen at the next read-back; the object's alarm expires its
 * session's unpaid orders at their deadlines, and a cancel asks it to read back at once.
 *
 * Recovery: a hold is durable in storage before anything is written to D1, and the alarm writes
 * holds a flush left behind. Writing a hold again is harmless: its D1 statements do nothing when
 * its order exists (data/order-placement.ts), so a flush whose answer was lost (the object
 * died after D1 committed) is simply redone, and its tickets are counted once.
 *
 * A poison hold (one D1 refuses whatever the moment: a broken row) must not stop every hold behind
 * it: when a batch fails, each of its holds is written alone, and one refused alone while D1 still
 * takes writes is set aside in `dead_letters` with D1's reason; its buyer is answered that the order
 * failed, and its tickets count again. When D1 takes no write, the batch waits for the alarm, whole.
 *
 * Switching the session out of high demand (services/on-sale/high-demand.ts) closes the object first: it
 * refuses new holds (checkout then takes D1's own path) and writes every hold it keeps, so the flag
 * flips only when no hold is left that only the object knows of.
 *
 * A tier on sale as high demand of its own (docs/hot-on-sale.md "Per tier") has an object of its own,
 * named `tier:<id>`, which works the same on its tier's listings and reports to its tier's waiting
 * room. Every call names the on-sale, so it knows its tier however its flag was set.
 */
import { DurableObject } from 'cloudflare:workers';
import { CHECKOUT_HEALTH, INVENTORY_EXPIRY_STEP_MS, INVENTORY_FLUSH_MAX_HOLDS, INVENTORY_RETRY_MS } from '../config/on-sale.ts';
import { bookmarkOf, type Db, database } from '../data/client.ts';
import {
  decideHold,
  type ListingStock,
  nextWakeAt,
  poisonHolds,
  ticketsLeft,
  type WrittenHold,
  writtenHold,
} from '../domain/session-inventory.ts';
import {
  type AccountStanding,
  addStandings,
  NO_STANDING,
  type OrderLimitCode,
  orderLimitRefusal,
  refusalOf,
} from '../domain/order-limits.ts';
import { type AfterWritePass, AfterWriteWork } from '../data/after-write.ts';
import { rawBatch } from '../data/batch.ts';
import type { HoldAnswer, OnSaleInventory, PlacedRow } from '../data/inventory-port.ts';
import { expireOverdueOrdersStatement } from '../data/order-expiry.ts';
import { type OnSale, inventoryObjectName } from '../domain/on-sale.ts';
import { waitingRoom } from './waiting-room.ts';
import { inventoryHoldStatement, type OrderPlacement, placementRun, standingOf, standingStatement } from '../data/order-placement.ts';

/** D1's rows of a raw statement's result, as the object reads them. */
const rowsOf = (result: D1Result) => result.results as PlacedRow[];

/** A hold D1 refused on its own, kept for an operator with D1's reason. */
export interface DeadLetter {
  key: string;
  placement: OrderPlacement;
  reason: string;
  at: number;
}

/**
 * A hold as the object keeps it. `state` is 'unwritten' until its batch reached D1, 'failed' once set
 * aside. Its placement is kept until written, and after it for a hold D1 refused on a limit, whose answer names the figure.
 */
interface HoldRow extends Record<string, SqlStorageValue> {
  key: string;
  listing_id: number;
  quantity: number;
  state: 'unwritten' | WrittenHold | 'failed';
  order_no: string;
  request_hash: string;
  placement: string;
}

const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL)',
  // D1's status and quantity_available of each listing held from, as last read.
  'CREATE TABLE IF NOT EXISTS listings (id INTEGER PRIMARY KEY, status TEXT NOT NULL, stock INTEGER NOT NULL)',
  `CREATE TABLE IF NOT EXISTS holds (seq INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE,
    listing_id INTEGER NOT NULL, quantity INTEGER NOT NULL, state TEXT NOT NULL, order_no TEXT NOT NULL,
    request_hash TEXT NOT NULL, payment_deadline INTEGER NOT NULL, placement TEXT NOT NULL)`,
  // The unwritten holds in order, and the next payment deadline of the placed ones, without a scan.
  'CREATE INDEX IF NOT EXISTS holds_state_idx ON holds (state, seq)',
  'CREATE INDEX IF NOT EXISTS holds_deadline_idx ON holds (state, payment_deadline)',
  // Holds D1 refused on their own (poison), with the placement and D1's reason, for an operator.
  'CREATE TABLE IF NOT EXISTS dead_letters (key TEXT PRIMARY KEY, placement TEXT NOT NULL, reason TEXT NOT NULL, at INTEGER NOT NULL)',
];

/** One buyer's request, once: their account and the Idempotency-Key they sent. */
const holdKey = (placement: OrderPlacement) => `${placement.userId}:${placement.idempotencyKey}`;

/**
 * The object, less the after-write pass its batches carry: the entry (src/durable-objects.ts) makes
 * the class the runtime runs, handing it the services' pass, so the object imports no service.
 */
export abstract class SessionInventoryObject extends DurableObject<Cloudflare.Env> implements OnSaleInventory {
  private readonly sql: SqlStorage;
  /** The flush under way; holds arriving meanwhile wait for the next one. */
  private flushing: Promise<void> | null = null;
  /** Listings being read from D1 for the first time, so concurrent first holds read once. */
  private readonly loads = new Map<number, Promise<void>>();
  /** Orders the last flushes wrote, for their waiting buyers, so answering them reads nothing again. */
  private readonly written = new Map<string, { order: PlacedRow; attendees: PlacedRow[]; bookmark: string | null }>();
  /** The origin the latest hold's request built links on when none is configured (local builds), for the messages of the after-write pass. */
  private origin: string | null = null;
  /** Whether storage has the on-sale (session id, and tier id for a tier's object), so a hold writes it only once per life of the object. */
  private onSaleStored = false;
  /** When the waiting room last heard how checkout keeps up, and the slowest hold since (reportHealth). */
  private reportedAt = 0;
  private slowestUnreported = 0;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    for (const statement of SCHEMA) this.sql.exec(statement);
  }

  /** The after-write pass a batch carries for its buyers (services/platform/after-write.ts). */
  protected abstract afterWritePass(db: Db, now: number, origin: string | null): AfterWritePass;

  /**
   * Holds the placement's tickets and answers once its order is in D1; the same key answers the same
   * hold. `onSale` is the on-sale the object holds for: its session's unless it is a tier's object;
   * `origin` is the request's, for the links of the messages its batch's after-write pass sends;
   * `standing` what the buyer's account holds in D1 as checkout read it, to which the object adds
   * its own unwritten holds of the account before it judges the order's limits.
   */
  async hold(
    placement: OrderPlacement,
    onSale: OnSale = { sessionId: placement.sessionId, tierId: null },
    origin: string | null = null,
    standing: AccountStanding = NO_STANDING,
  ): Promise<HoldAnswer> {
    this.rememberOnSale(onSale);
    this.origin = origin ?? this.origin;
    await this.loadListing(placement.listingId);
    const key = holdKey(placement);
    const existing = this.holdRow(key);
    if (existing && existing.request_hash !== placement.requestHash) return { outcome: 'key_reused' };
    if (!existing) {
      // From here to the insert nothing awaits: no other hold can take the same tickets, nor can the
      // object close, in between.
      if (this.closed()) return { outcome: 'closed' };
      const decision = decideHold(this.listingStock(placement.listingId), this.unwrittenQuantity(placement.listingId), placement.quantity);
      if (!decision.accepted) return { outcome: 'sold_out', available: decision.available };
      const refusal = orderLimitRefusal(addStandings(standing, this.unwrittenStanding(placement)), placement.quantity, placement.limits);
      if (refusal) return { outcome: 'refused', refusal };
      this.sql.exec(
        `INSERT INTO holds (key, listing_id, quantity, state, order_no, request_hash, payment_deadline, placement)
         VALUES (?, ?, ?, 'unwritten', ?, ?, ?, ?)`,
        key,
        placement.listingId,
        placement.quantity,
        placement.orderNo,
        placement.requestHash,
        placement.paymentDeadline,
        JSON.stringify(placement),
      );
      // Should the object die before its batch reaches D1, this alarm writes it.
      this.scheduleWake();
    }
    return this.settle(key);
  }

  /** Reads the stock back from D1 (after a release written there), after any flush under way. */
  async refresh(onSale: OnSale): Promise<void> {
    this.rememberOnSale(onSale);
    await this.flushing?.catch(() => undefined);
    await this.flush();
  }

  /**
   * Before its session leaves high demand: refuses every new hold from now on (a retry of a hold it
   * already took still gets its answer), then writes every hold it keeps to D1. Answers how many are
   * still unwritten: 0 once all are in D1, more when D1 took no write (the caller tries again later;
   * the alarm goes on writing them meanwhile).
   */
  async close(onSale: OnSale): Promise<{ unwritten: number }> {
    this.rememberOnSale(onSale);
    this.sql.exec(`INSERT OR REPLACE INTO meta (name, value) VALUES ('closed', 1)`);
    try {
      while (this.unwrittenCount() > 0) await this.flush();
    } catch (error) {
      console.error(JSON.stringify({ event: 'inventory_close_unwritten', ...onSale, error: String(error) }));
    }
    return { unwritten: this.unwrittenCount() };
  }

  /**
   * When its session (or tier) becomes high demand again: takes holds again, from D1's stock as it is
   * now (checkout's own path sold from it while the object was closed).
   */
  async open(onSale: OnSale): Promise<void> {
    this.sql.exec(`DELETE FROM meta WHERE name = 'closed'`);
    await this.refresh(onSale);
  }

  /** Tickets the object would still hand out of a listing it holds from (null before its first hold). */
  async available(listingId: number): Promise<number | null> {
    const [row] = this.sql.exec<{ status: string; stock: number }>('SELECT status, stock FROM listings WHERE id = ?', listingId).toArray();
    return row ? ticketsLeft(row, this.unwrittenQuantity(listingId)) : null;
  }

  /** The holds set aside as poison, oldest first. */
  async deadLetters(): Promise<DeadLetter[]> {
    return this.sql
      .exec<{ key: string; placement: string; reason: string; at: number }>('SELECT * FROM dead_letters ORDER BY at, key')
      .toArray()
      .map((row) => ({ ...row, placement: JSON.parse(row.placement) as OrderPlacement }));
  }

  /** Writes what a flush left behind, and expires the session's unpaid orders at their deadlines. */
  override async alarm(): Promise<void> {
    if (this.onSale() !== null) await this.flush();
  }

  private async settle(key: string): Promise<HoldAnswer> {
    for (;;) {
      const row = this.holdRow(key)!;
      if (row.state !== 'unwritten') return this.answer(row);
      await this.flush();
    }
  }

  private async answer(row: HoldRow): Promise<HoldAnswer> {
    if (row.state === 'sold_out')
      return { outcome: 'sold_out', available: ticketsLeft(this.listingStock(row.listing_id), this.unwrittenQuantity(row.listing_id)) };
    if (row.state === 'coupon_used') return { outcome: 'coupon_used' };
    if (row.state === 'failed') return { outcome: 'failed' };
    if (row.state !== 'placed') {
      const { limits } = JSON.parse(row.placement) as OrderPlacement;
      return { outcome: 'refused', refusal: refusalOf(row.state as OrderLimitCode, limits) };
    }
    const written = this.written.get(row.key);
    if (written) {
      this.written.delete(row.key);
      return { outcome: 'placed', ...written };
    }
    // A retry after the buyer's first answer was lost (or after a restart): the order as D1 has it now.
    const db = database(this.env.DB, null, 'first-primary');
    const { order, attendees } = await rawBatch(db.$client, {
      order: db.$client.prepare('SELECT * FROM orders WHERE order_no = ?1').bind(row.order_no),
      attendees: db.$client
        .prepare('SELECT a.* FROM order_attendees a JOIN orders o ON o.id = a.order_id WHERE o.order_no = ?1 ORDER BY a.id')
        .bind(row.order_no),
    });
    return { outcome: 'placed', order: rowsOf(order)[0], attendees: rowsOf(attendees), bookmark: bookmarkOf(db) };
  }

  private flush(): Promise<void> {
    this.flushing ??= this.writeBatch().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /**
   * One D1 batch: the session's overdue orders expire (their tickets come back), the oldest
   * unwritten holds are written, the after-write pass runs (services/platform/after-write.ts: the waitlist's
   * offers of returned tickets, the messages to the queue) once for all of their buyers instead of
   * once each, and the orders and the stock of every listing are read back after it.
   */
  private async writeBatch(): Promise<void> {
    const onSale = this.onSale()!;
    const { sessionId } = onSale;
    const rows = this.sql
      .exec<HoldRow>(`SELECT * FROM holds WHERE state = 'unwritten' ORDER BY seq LIMIT ?`, INVENTORY_FLUSH_MAX_HOLDS)
      .toArray();
    const placements = rows.map((row) => JSON.parse(row.placement) as OrderPlacement);
    const listingIds = this.sql.exec<{ id: number }>('SELECT id FROM listings').toArray();
    const now = Date.now();
    const db = database(this.env.DB, null, 'first-primary');
    const d1 = db.$client;
    const expiry = expireOverdueOrdersStatement(db, now, { sessionId }).toSQL();
    const orderNos = JSON.stringify(placements.map((placement) => placement.orderNo));
    const expire = () => d1.prepare(expiry.sql).bind(...expiry.params);
    const holds = placements.flatMap((placement) => [inventoryHoldStatement(d1, placement), ...placementRun(d1, placement)]);
    const readBack = {
      orders: d1.prepare('SELECT * FROM orders WHERE order_no IN (SELECT value FROM json_each(?1))').bind(orderNos),
      attendees: d1
        .prepare(
          'SELECT a.* FROM order_attendees a WHERE a.order_id IN (SELECT id FROM orders WHERE order_no IN (SELECT value FROM json_each(?1))) ORDER BY a.id',
        )
        .bind(orderNos),
      stock: d1
        .prepare('SELECT id, status, quantity_available AS stock FROM listings WHERE id IN (SELECT value FROM json_each(?1))')
        .bind(JSON.stringify(listingIds.map((row) => row.id))),
      // Why D1 refused a hold the object accepted: an order written since checkout read the account left it at a limit.
      standings: standingStatement(
        d1,
        placements.map((placement) => ({ ...placement, key: holdKey(placement), waitingRoomPass: placement.waitingRoomPass ?? null })),
      ),
    };
    const origin = this.origin;
    const afterWrite = new AfterWriteWork(db, origin, (at) => this.afterWritePass(db, at, origin)).ride(now);
    const batchWith = (pass: D1PreparedStatement[]) => rawBatch(d1, { expired: expire(), holds, afterWrite: pass, ...readBack });
    let results: Awaited<ReturnType<typeof batchWith>>;
    let carried = afterWrite.statements;
    const sent = Date.now();
    try {
      results = await batchWith(carried);
    } catch (error) {
      try {
        // A pass D1 refuses must not hold the buyers back: once more without it (the sweep runs it every minute).
        carried = [];
        results = await batchWith(carried);
        console.error(JSON.stringify({ event: 'inventory_after_write_failed', ...onSale, error: String(error) }));
      } catch {
        if (placements.length === 0) throw error;
        // The next flush writes the holds again (those written alone change nothing) and reads them back.
        await this.setAsidePoison(d1, placements, expire, error);
        return;
      }
    }
    if (carried.length > 0) afterWrite.carried(results.afterWrite);
    const bookmark = bookmarkOf(db);
    const [orders, attendees, stock, standings] = [results.orders, results.attendees, results.stock, results.standings].map(rowsOf);
    this.ctx.storage.transactionSync(() => {
      for (const listing of stock)
        this.sql.exec('UPDATE listings SET status = ?, stock = ? WHERE id = ?', listing.status, listing.stock, listing.id);
      for (const placement of placements) {
        // By number and by its buyer's key: another order could share the number (a random one).
        const order = orders.find(
          (row) =>
            row.order_no === placement.orderNo && row.user_id === placement.userId && row.idempotency_key === placement.idempotencyKey,
        );
        const standing = standingOf(standings.find((row) => row.key === holdKey(placement)));
        // A placement stored before the limits existed was held to none.
        const limitRefused = placement.limits ? (orderLimitRefusal(standing, placement.quantity, placement.limits)?.code ?? null) : null;
        const state = writtenHold(order !== undefined, this.listingStock(placement.listingId), placement.quantity, limitRefused);
        // Its placement is needed only until written, or for the figure a limit's refusal names.
        const keep = state !== 'placed' && state !== 'sold_out' && state !== 'coupon_used';
        this.sql.exec(
          `UPDATE holds SET state = ?, placement = ? WHERE key = ?`,
          state,
          keep ? JSON.stringify(placement) : '',
          holdKey(placement),
        );
        if (order)
          this.written.set(holdKey(placement), { order, attendees: attendees.filter((row) => row.order_id === order.id), bookmark });
      }
    });
    this.scheduleWake();
    // The buyers' side of it: from the oldest hold's request (its order's creation time) to written.
    const since = Math.min(sent, ...placements.map((placement) => placement.createdAt));
    this.reportHealth(onSale, Date.now() - since);
  }

  /**
   * Tells its on-sale's waiting room how long the slowest hold since its last report took and how
   * many wait for the next batch, so that it lets buyers through at a rate checkout takes
   * (`pacedAdmissionRate`); at most once every `CHECKOUT_HEALTH.reportEveryMs`, as each report is a
   * write to the room. Not awaited: a buyer's answer never waits for it, and a lost report only
   * leaves the room at its own rate sooner.
   */
  private reportHealth(onSale: OnSale, holdMs: number): void {
    this.slowestUnreported = Math.max(this.slowestUnreported, holdMs);
    const now = Date.now();
    if (now - this.reportedAt < CHECKOUT_HEALTH.reportEveryMs) return;
    const backlog = this.unwrittenCount();
    waitingRoom(this.env, onSale)
      .reportCheckout(this.slowestUnreported, backlog, now)
      .catch((error: unknown) => console.error(JSON.stringify({ event: 'checkout_health_unreported', error: String(error) })));
    this.slowestUnreported = 0;
    this.reportedAt = now;
  }

  /**
   * After a failed batch: writes each of its holds alone, then the session's expiry (a write) to ask
   * whether D1 takes writes at all. A hold refused alone while it does is poison: set aside with D1's
   * reason, its tickets free again. When D1 takes no write, the batch's error stands (the alarm retries).
   */
  private async setAsidePoison(d1: D1Database, placements: OrderPlacement[], expire: () => D1PreparedStatement, batchError: unknown) {
    const reasons = new Map<string, string>();
    const outcomes = [];
    for (const placement of placements) {
      const key = holdKey(placement);
      try {
        await rawBatch(d1, { hold: inventoryHoldStatement(d1, placement), placement: placementRun(d1, placement) });
        outcomes.push({ key, written: true });
      } catch (error) {
        reasons.set(key, String(error));
        outcomes.push({ key, written: false });
      }
    }
    let d1Writes = true;
    try {
      await expire().run();
    } catch {
      d1Writes = false;
    }
    const poison = poisonHolds(outcomes, d1Writes);
    if (poison === null) throw batchError;
    const at = Date.now();
    this.ctx.storage.transactionSync(() => {
      for (const key of poison) {
        this.sql.exec(
          `INSERT OR REPLACE INTO dead_letters (key, placement, reason, at) SELECT key, placement, ?, ? FROM holds WHERE key = ?`,
          reasons.get(key),
          at,
          key,
        );
        this.sql.exec(`UPDATE holds SET state = 'failed', placement = '' WHERE key = ?`, key);
      }
    });
    for (const key of poison) console.error(JSON.stringify({ event: 'inventory_hold_dead_lettered', key, reason: reasons.get(key) }));
  }

  /** Sets the alarm from the stored holds, synchronously, so the latest call always sees the latest holds. */
  private scheduleWake(): void {
    const now = Date.now();
    const unwritten = this.unwrittenCount();
    const nextDeadline = this.sql
      .exec<{ at: number | null }>(`SELECT min(payment_deadline) AS at FROM holds WHERE state = 'placed' AND payment_deadline > ?`, now)
      .one().at;
    const at = nextWakeAt({ unwrittenHolds: unwritten, nextDeadline, now }, INVENTORY_RETRY_MS, INVENTORY_EXPIRY_STEP_MS);
    void (at === null ? this.ctx.storage.deleteAlarm() : this.ctx.storage.setAlarm(at));
  }

  private loadListing(listingId: number): Promise<void> {
    if (this.sql.exec('SELECT 1 FROM listings WHERE id = ?', listingId).toArray().length > 0) return Promise.resolve();
    let loading = this.loads.get(listingId);
    if (!loading) {
      loading = this.readListing(listingId).finally(() => this.loads.delete(listingId));
      this.loads.set(listingId, loading);
    }
    return loading;
  }

  /** A listing's stock from D1, once; a flush's read-back keeps it current after that. */
  private async readListing(listingId: number): Promise<void> {
    const db = database(this.env.DB, null, 'first-primary');
    const row = await db.$client
      .prepare('SELECT status, quantity_available AS stock FROM listings WHERE id = ?1')
      .bind(listingId)
      .first<ListingStock>();
    this.sql.exec(
      'INSERT OR IGNORE INTO listings (id, status, stock) VALUES (?, ?, ?)',
      listingId,
      row?.status ?? 'withdrawn',
      row?.stock ?? 0,
    );
  }

  private listingStock(listingId: number): ListingStock {
    const [row] = this.sql.exec<{ status: string; stock: number }>('SELECT status, stock FROM listings WHERE id = ?', listingId).toArray();
    return row ?? { status: 'withdrawn', stock: 0 };
  }

  private unwrittenQuantity(listingId: number): number {
    const [row] = this.sql
      .exec<{ total: number }>(
        `SELECT coalesce(sum(quantity), 0) AS total FROM holds WHERE listing_id = ? AND state = 'unwritten'`,
        listingId,
      )
      .toArray();
    return row.total;
  }

  /** The account's holds not yet written (all unpaid, all of this on-sale's session), as a standing to add to D1's. */
  private unwrittenStanding(placement: OrderPlacement): AccountStanding {
    const row = this.sql
      .exec<{ tickets: number; onListing: number; passUsed: number }>(
        `SELECT coalesce(sum(quantity), 0) AS tickets, coalesce(sum(CASE WHEN listing_id = ? THEN quantity END), 0) AS onListing,
           coalesce(max(json_extract(placement, '$.waitingRoomPass') = ?), 0) AS passUsed
         FROM holds WHERE state = 'unwritten' AND json_extract(placement, '$.userId') = ?`,
        placement.listingId,
        placement.waitingRoomPass,
        placement.userId,
      )
      .one();
    return { sessionTickets: row.tickets, unpaidTickets: row.tickets, unpaidOnListing: row.onListing, passUsed: row.passUsed === 1 };
  }

  private unwrittenCount(): number {
    return this.sql.exec<{ count: number }>(`SELECT count(*) AS count FROM holds WHERE state = 'unwritten'`).one().count;
  }

  private closed(): boolean {
    return this.sql.exec(`SELECT 1 FROM meta WHERE name = 'closed'`).toArray().length > 0;
  }

  private holdRow(key: string): HoldRow | undefined {
    return this.sql.exec<HoldRow>('SELECT * FROM holds WHERE key = ?', key).toArray()[0];
  }

  private rememberOnSale(onSale: OnSale): void {
    if (this.onSaleStored) return;
    this.sql.exec(`INSERT OR IGNORE INTO meta (name, value) VALUES ('session_id', ?)`, onSale.sessionId);
    if (onSale.tierId !== null) this.sql.exec(`INSERT OR IGNORE INTO meta (name, value) VALUES ('tier_id', ?)`, onSale.tierId);
    this.onSaleStored = true;
  }

  /** The session (and tier, for a tier's object) it holds for; null before its first call. */
  private onSale(): OnSale | null {
    const rows = this.sql
      .exec<{ name: string; value: number }>(`SELECT name, value FROM meta WHERE name IN ('session_id', 'tier_id')`)
      .toArray();
    const sessionId = rows.find((row) => row.name === 'session_id')?.value;
    if (sessionId === undefined) return null;
    return { sessionId, tierId: rows.find((row) => row.name === 'tier_id')?.value ?? null };
  }
}

/** The bindings the inventory is reached through. */
export type InventoryEnv = Pick<Cloudflare.Env, 'SESSION_INVENTORY'>;

/** The inventory object of a high-demand on-sale: a session's, or one tier's (domain/on-sale.ts). */
export function inventoryOf(env: InventoryEnv, onSale: OnSale): DurableObjectStub<SessionInventoryObject> {
  return env.SESSION_INVENTORY.getByName(inventoryObjectName(onSale));
}

/** The inventory object of a high-demand session. */
export function sessionInventory(env: InventoryEnv, sessionId: number): DurableObjectStub<SessionInventoryObject> {
  return inventoryOf(env, { sessionId, tierId: null });
}
