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
import { decideHold, type ListingStock, nextWakeAt, poisonHolds, ticketsLeft, writtenHold } from '../domain/session-inventory.ts';
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
import { type DeadLetter, type HoldRow, holdKey, InventoryStore } from './inventory-store.ts';
import { waitingRoom } from './waiting-room.ts';
import { inventoryHoldStatement, type OrderPlacement, placementRun, standingOf, standingStatement } from '../data/order-placement.ts';

/** D1's rows of a raw statement's result, as the object reads them. */
const rowsOf = (result: D1Result) => result.results as PlacedRow[];

/**
 * The object, less the after-write pass its batches carry: the entry (src/durable-objects.ts) makes
 * the class the runtime runs, handing it the services' pass, so the object imports no service.
 */
export abstract class SessionInventoryObject extends DurableObject<Cloudflare.Env> implements OnSaleInventory {
  /** The flush under way; holds arriving meanwhile wait for the next one. */
  private flushing: Promise<void> | null = null;
  /** Listings being read from D1 for the first time, so concurrent first holds read once. */
  private readonly loads = new Map<number, Promise<void>>();
  /** Orders the last flushes wrote, for their waiting buyers, so answering them reads nothing again. */
  private readonly written = new Map<string, { order: PlacedRow; attendees: PlacedRow[]; bookmark: string | null }>();
  /** The origin the latest hold's request built links on when none is configured (local builds), for the messages of the after-write pass. */
  private origin: string | null = null;
  /** When the waiting room last heard how checkout keeps up, and the slowest hold since (reportHealth). */
  private reportedAt = 0;
  private slowestUnreported = 0;

  private readonly store: InventoryStore;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    this.store = new InventoryStore(ctx.storage.sql);
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
    this.store.rememberOnSale(onSale);
    this.origin = origin ?? this.origin;
    await this.loadListing(placement.listingId);
    const key = holdKey(placement);
    const existing = this.store.holdRow(key);
    if (existing && existing.request_hash !== placement.requestHash) return { outcome: 'key_reused' };
    if (!existing) {
      // From here to the insert nothing awaits: no other hold can take the same tickets, nor can the
      // object close, in between.
      if (this.store.closed()) return { outcome: 'closed' };
      const decision = decideHold(
        this.store.listingStock(placement.listingId),
        this.store.unwrittenQuantity(placement.listingId),
        placement.quantity,
      );
      if (!decision.accepted) return { outcome: 'sold_out', available: decision.available };
      const refusal = orderLimitRefusal(
        addStandings(standing, this.store.unwrittenStanding(placement)),
        placement.quantity,
        placement.limits,
      );
      if (refusal) return { outcome: 'refused', refusal };
      this.store.insertHold(key, placement);
      // Should the object die before its batch reaches D1, this alarm writes it.
      this.scheduleWake();
    }
    return this.settle(key);
  }

  /** Reads the stock back from D1 (after a release written there), after any flush under way. */
  async refresh(onSale: OnSale): Promise<void> {
    this.store.rememberOnSale(onSale);
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
    this.store.rememberOnSale(onSale);
    this.store.close();
    try {
      while (this.store.unwrittenCount() > 0) await this.flush();
    } catch (error) {
      console.error(JSON.stringify({ event: 'inventory_close_unwritten', ...onSale, error: String(error) }));
    }
    return { unwritten: this.store.unwrittenCount() };
  }

  /**
   * When its session (or tier) becomes high demand again: takes holds again, from D1's stock as it is
   * now (checkout's own path sold from it while the object was closed).
   */
  async open(onSale: OnSale): Promise<void> {
    this.store.open();
    await this.refresh(onSale);
  }

  /** Tickets the object would still hand out of a listing it holds from (null before its first hold). */
  async available(listingId: number): Promise<number | null> {
    const row = this.store.knownListingStock(listingId);
    return row ? ticketsLeft(row, this.store.unwrittenQuantity(listingId)) : null;
  }

  /** The holds set aside as poison, oldest first. */
  async deadLetters(): Promise<DeadLetter[]> {
    return this.store.deadLetters();
  }

  /** Writes what a flush left behind, and expires the session's unpaid orders at their deadlines. */
  override async alarm(): Promise<void> {
    if (this.store.onSale() !== null) await this.flush();
  }

  private async settle(key: string): Promise<HoldAnswer> {
    for (;;) {
      const row = this.store.holdRow(key)!;
      if (row.state !== 'unwritten') return this.answer(row);
      await this.flush();
    }
  }

  private async answer(row: HoldRow): Promise<HoldAnswer> {
    if (row.state === 'sold_out')
      return {
        outcome: 'sold_out',
        available: ticketsLeft(this.store.listingStock(row.listing_id), this.store.unwrittenQuantity(row.listing_id)),
      };
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
    const onSale = this.store.onSale()!;
    const { sessionId } = onSale;
    const placements = this.store.unwrittenPlacements(INVENTORY_FLUSH_MAX_HOLDS);
    const listingIds = this.store.listingIds();
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
        .bind(JSON.stringify(listingIds)),
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
      for (const listing of stock) this.store.setListingStock(Number(listing.id), String(listing.status), Number(listing.stock));
      for (const placement of placements) {
        // By number and by its buyer's key: another order could share the number (a random one).
        const order = orders.find(
          (row) =>
            row.order_no === placement.orderNo && row.user_id === placement.userId && row.idempotency_key === placement.idempotencyKey,
        );
        const standing = standingOf(standings.find((row) => row.key === holdKey(placement)));
        // A placement stored before the limits existed was held to none.
        const limitRefused = placement.limits ? (orderLimitRefusal(standing, placement.quantity, placement.limits)?.code ?? null) : null;
        const state = writtenHold(order !== undefined, this.store.listingStock(placement.listingId), placement.quantity, limitRefused);
        // Its placement is needed only until written, or for the figure a limit's refusal names.
        const keep = state !== 'placed' && state !== 'sold_out' && state !== 'coupon_used';
        this.store.setHoldState(holdKey(placement), state, keep ? placement : null);
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
    const backlog = this.store.unwrittenCount();
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
      for (const key of poison) this.store.setAside(key, reasons.get(key) ?? '', at);
    });
    for (const key of poison) console.error(JSON.stringify({ event: 'inventory_hold_dead_lettered', key, reason: reasons.get(key) }));
  }

  /** Sets the alarm from the stored holds, synchronously, so the latest call always sees the latest holds. */
  private scheduleWake(): void {
    const now = Date.now();
    const unwritten = this.store.unwrittenCount();
    const nextDeadline = this.store.nextDeadline(now);
    const at = nextWakeAt({ unwrittenHolds: unwritten, nextDeadline, now }, INVENTORY_RETRY_MS, INVENTORY_EXPIRY_STEP_MS);
    void (at === null ? this.ctx.storage.deleteAlarm() : this.ctx.storage.setAlarm(at));
  }

  private loadListing(listingId: number): Promise<void> {
    if (this.store.knownListingStock(listingId)) return Promise.resolve();
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
    this.store.addListing(listingId, row?.status ?? 'withdrawn', row?.stock ?? 0);
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
