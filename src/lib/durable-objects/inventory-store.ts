/**
 * A high-demand on-sale's inventory object's own SQLite storage (session-inventory.ts): the holds it
 * took, the stock of each listing as D1 last told it, what it holds for, and the holds set aside
 * as poison. Every read here is synchronous, so nothing another call does can come in between.
 */
import type { ListingStock, WrittenHold } from '../domain/session-inventory.ts';
import type { AccountStanding } from '../domain/order-limits.ts';
import type { OnSale } from '../domain/on-sale.ts';
import type { OrderPlacement } from '../data/order-placement.ts';

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
export interface HoldRow extends Record<string, SqlStorageValue> {
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
export const holdKey = (placement: OrderPlacement) => `${placement.userId}:${placement.idempotencyKey}`;

export class InventoryStore {
  private readonly sql: SqlStorage;
  /** Whether storage has the on-sale (session id, and tier id for a tier's object), so a hold writes it only once per life of the object. */
  private onSaleStored = false;

  constructor(sql: SqlStorage) {
    this.sql = sql;
    for (const statement of SCHEMA) this.sql.exec(statement);
  }

  /** The holds set aside as poison, oldest first. */
  deadLetters(): DeadLetter[] {
    return this.sql
      .exec<{ key: string; placement: string; reason: string; at: number }>('SELECT * FROM dead_letters ORDER BY at, key')
      .toArray()
      .map((row) => ({ ...row, placement: JSON.parse(row.placement) as OrderPlacement }));
  }

  listingStock(listingId: number): ListingStock {
    const [row] = this.sql.exec<{ status: string; stock: number }>('SELECT status, stock FROM listings WHERE id = ?', listingId).toArray();
    return row ?? { status: 'withdrawn', stock: 0 };
  }

  unwrittenQuantity(listingId: number): number {
    const [row] = this.sql
      .exec<{ total: number }>(
        `SELECT coalesce(sum(quantity), 0) AS total FROM holds WHERE listing_id = ? AND state = 'unwritten'`,
        listingId,
      )
      .toArray();
    return row.total;
  }

  /** The account's holds not yet written (all unpaid, all of this on-sale's session), as a standing to add to D1's. */
  unwrittenStanding(placement: OrderPlacement): AccountStanding {
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

  unwrittenCount(): number {
    return this.sql.exec<{ count: number }>(`SELECT count(*) AS count FROM holds WHERE state = 'unwritten'`).one().count;
  }

  closed(): boolean {
    return this.sql.exec(`SELECT 1 FROM meta WHERE name = 'closed'`).toArray().length > 0;
  }

  holdRow(key: string): HoldRow | undefined {
    return this.sql.exec<HoldRow>('SELECT * FROM holds WHERE key = ?', key).toArray()[0];
  }

  rememberOnSale(onSale: OnSale): void {
    if (this.onSaleStored) return;
    this.sql.exec(`INSERT OR IGNORE INTO meta (name, value) VALUES ('session_id', ?)`, onSale.sessionId);
    if (onSale.tierId !== null) this.sql.exec(`INSERT OR IGNORE INTO meta (name, value) VALUES ('tier_id', ?)`, onSale.tierId);
    this.onSaleStored = true;
  }

  /** The session (and tier, for a tier's object) it holds for; null before its first call. */
  onSale(): OnSale | null {
    const rows = this.sql
      .exec<{ name: string; value: number }>(`SELECT name, value FROM meta WHERE name IN ('session_id', 'tier_id')`)
      .toArray();
    const sessionId = rows.find((row) => row.name === 'session_id')?.value;
    if (sessionId === undefined) return null;
    return { sessionId, tierId: rows.find((row) => row.name === 'tier_id')?.value ?? null };
  }

  insertHold(key: string, placement: OrderPlacement): void {
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
  }

  /** The oldest unwritten holds' placements, at most `limit`. */
  unwrittenPlacements(limit: number): OrderPlacement[] {
    return this.sql
      .exec<HoldRow>(`SELECT * FROM holds WHERE state = 'unwritten' ORDER BY seq LIMIT ?`, limit)
      .toArray()
      .map((row) => JSON.parse(row.placement) as OrderPlacement);
  }

  /** A written hold's state; its placement is kept (`keep`) only for a figure its answer names. */
  setHoldState(key: string, state: WrittenHold, keep: OrderPlacement | null): void {
    this.sql.exec(`UPDATE holds SET state = ?, placement = ? WHERE key = ?`, state, keep ? JSON.stringify(keep) : '', key);
  }

  /** Sets a poison hold aside with D1's reason: a dead letter, its hold failed (its tickets free again). */
  setAside(key: string, reason: string, at: number): void {
    this.sql.exec(
      `INSERT OR REPLACE INTO dead_letters (key, placement, reason, at) SELECT key, placement, ?, ? FROM holds WHERE key = ?`,
      reason,
      at,
      key,
    );
    this.sql.exec(`UPDATE holds SET state = 'failed', placement = '' WHERE key = ?`, key);
  }

  /** The next payment deadline of a placed hold after `now`, or null. */
  nextDeadline(now: number): number | null {
    return this.sql
      .exec<{ at: number | null }>(`SELECT min(payment_deadline) AS at FROM holds WHERE state = 'placed' AND payment_deadline > ?`, now)
      .one().at;
  }

  /** A listing's stock as last read, or null before its first read. */
  knownListingStock(listingId: number): ListingStock | null {
    const [row] = this.sql.exec<{ status: string; stock: number }>('SELECT status, stock FROM listings WHERE id = ?', listingId).toArray();
    return row ?? null;
  }

  /** A listing's first read (a concurrent first read's row stands). */
  addListing(listingId: number, status: string, stock: number): void {
    this.sql.exec('INSERT OR IGNORE INTO listings (id, status, stock) VALUES (?, ?, ?)', listingId, status, stock);
  }

  setListingStock(listingId: number, status: string, stock: number): void {
    this.sql.exec('UPDATE listings SET status = ?, stock = ? WHERE id = ?', status, stock, listingId);
  }

  /** The listings held from. */
  listingIds(): number[] {
    return this.sql
      .exec<{ id: number }>('SELECT id FROM listings')
      .toArray()
      .map((row) => row.id);
  }

  /** Refuses new holds from now on. */
  close(): void {
    this.sql.exec(`INSERT OR REPLACE INTO meta (name, value) VALUES ('closed', 1)`);
  }

  /** Takes holds again. */
  open(): void {
    this.sql.exec(`DELETE FROM meta WHERE name = 'closed'`);
  }
}
