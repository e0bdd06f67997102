/**
 * What the services need of a high-demand on-sale's Durable Objects (docs/hot-on-sale.md): its
 * inventory, which holds tickets and writes the orders to D1 in batches, and its waiting room.
 * Services call these ports; the Durable Objects' adapter implements them (durable-objects/
 * on-sale-objects.ts), and the edge that takes the request chooses the implementation and hands it
 * in with the request's scope, so no service imports a Durable Object and none imports a service.
 */
import type { OnSale } from '../domain/on-sale.ts';
import type { AccountStanding, OrderLimitRefusal } from '../domain/order-limits.ts';
import type { RoomFront, RoomStanding } from '../domain/waiting-room.ts';
import type { OrderPlacement } from './order-placement.ts';

/** A row as D1 returns it; orders and attendees hold no blobs. */
export type PlacedRow = Record<string, string | number | null>;

/**
 * What a hold came to: the order written to D1 (raw rows, as checkout's own batch returns them, with
 * the D1 bookmark of the batch that wrote or read them, for the buyer to read their own write), or why not.
 */
export type HoldAnswer =
  | { outcome: 'placed'; order: PlacedRow; attendees: PlacedRow[]; bookmark: string | null }
  | { outcome: 'sold_out'; available: number }
  | { outcome: 'coupon_used' }
  | { outcome: 'key_reused' }
  /** The account's limits (domain/order-limits.ts) allow no such order: a spent pass, the cap, the unpaid limits. */
  | { outcome: 'refused'; refusal: OrderLimitRefusal }
  | { outcome: 'failed' }
  /** The inventory is being switched off (the session leaves high demand): a new hold goes to D1's own path. */
  | { outcome: 'closed' };

/** A high-demand on-sale's inventory. */
export interface OnSaleInventory {
  /**
   * Holds the placement's tickets and answers once its order is in D1; the same key answers the same
   * hold. `origin` is the request's, for the links of the messages its batch's after-write pass sends;
   * `standing` what the buyer's account holds in D1 as checkout read it.
   */
  hold(placement: OrderPlacement, onSale: OnSale, origin: string | null, standing: AccountStanding): Promise<HoldAnswer>;
  /** Reads the stock back from D1 (after a release written there). */
  refresh(onSale: OnSale): Promise<void>;
  /** Takes holds again, from D1's stock as it is now. */
  open(onSale: OnSale): Promise<void>;
  /** Refuses new holds and writes those it keeps; answers how many are still unwritten. */
  close(onSale: OnSale): Promise<{ unwritten: number }>;
}

/** A high-demand on-sale's waiting room. */
export interface OnSaleWaitingRoom {
  join(userId: number, now: number, opensAt: number, soldOut: boolean): Promise<RoomStanding>;
  standing(userId: number, now: number): Promise<RoomStanding | null>;
  front(now: number, opensAt: number, soldOut: boolean): Promise<RoomFront>;
  admitNext(count: number, now: number, opensAt: number): Promise<RoomFront>;
  setRate(admissionsPerMinute: number, now: number, opensAt: number): Promise<RoomFront>;
  /** The room's progress now, for the console's live view; null when no buyer has come yet (no room is made for asking). */
  peek(now: number): Promise<RoomFront | null>;
}

/** The on-sales' objects, by on-sale: a session's, or a high-demand tier's own (domain/on-sale.ts). */
export interface OnSaleObjects {
  inventory(onSale: OnSale): OnSaleInventory;
  waitingRoom(onSale: OnSale): OnSaleWaitingRoom;
}
