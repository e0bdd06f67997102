/**
 * Writing a checked order with its hold on the tickets: in checkout's own D1 batch
 * (data/order-placement.ts), or through a high-demand on-sale's inventory (data/inventory-port.ts),
 * which writes its buyers' orders to D1 in batches; and, when D1's guard refused the hold, why.
 */
import { and, eq } from 'drizzle-orm';
import { rowOf } from '../../data/batch-columns.ts';
import type { Db } from '../../data/client.ts';
import { orderAttendees, orders, waitlistOffers } from '../../db/schema.ts';
import type { MinuteCounts } from '../../domain/order-rate.ts';
import { DomainError } from '../../domain/errors.ts';
import { type AccountStanding, orderLimitRefusal } from '../../domain/order-limits.ts';
import type { OnSale } from '../../domain/on-sale.ts';
import { sameRequestOrReused } from '../../domain/idempotency.ts';
import { offerClaimable } from '../../domain/waitlist.ts';
import { afterOrderCounted } from '../on-sale/high-demand.ts';
import {
  checkoutHoldStatement,
  offerClaimStatement,
  type OrderPlacement,
  orderRateStatement,
  placementStatements,
  standingOf,
  standingStatement,
} from '../../data/order-placement.ts';
import type { OrderDetail } from './presenters.ts';
import type { Target } from './priced.ts';
import { orderDetailByNo, orderDetailFrom } from './queries.ts';
import type { AfterWriteWork } from '../../data/after-write.ts';
import type { UserScope } from '../platform/scope.ts';
import { rawBatch } from '../../data/batch.ts';

export function newOrderNo(now: number): string {
  const digits = crypto.getRandomValues(new Uint32Array(2));
  const date = new Date(now).toISOString().slice(0, 10).replaceAll('-', '');
  return `${date}${String(digits[0] % 100_000).padStart(5, '0')}${String(digits[1] % 100_000).padStart(5, '0')}`;
}

export function orderByKeyStatement(db: Db, userId: number, idempotencyKey: string) {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)));
}

export function isUniqueViolation(error: unknown): boolean {
  return String((error as { message?: string })?.message ?? error).includes('UNIQUE constraint failed');
}

/** The created order's detail, made from the rows its write returned and the show it read: no third read. */
function placedOrderDetail(scope: UserScope, target: Target, created: Record<string, unknown>, attendeeRows: Record<string, unknown>[]) {
  const { listing: _listing, onSale: _onSale, accountTicketCap: _cap, ...show } = target;
  return orderDetailFrom(scope, {
    row: { ...show, order: rowOf(orders, created), sellerName: target.sellerName },
    attendeeRows: attendeeRows.map((attendee) => rowOf(orderAttendees, attendee)),
    ticketRows: [],
    listed: new Set(),
  });
}

/**
 * Checkout's own D1 batch: the hold (or the offer's claim) and the order, for one buyer, then the
 * request's after-write work, which commits with them. That work never fails an order: a batch
 * that fails for any other reason than a concurrent retry is sent again without it (the API then
 * settles on its own).
 */
export async function placeInD1(
  scope: UserScope,
  target: Target,
  placement: OrderPlacement,
  offerId: number | null,
  hash: string,
  afterWrite: AfterWriteWork | null,
): Promise<OrderDetail> {
  const { db, userId, now } = scope;
  const d1 = db.$client;
  const linkOffer = d1
    .prepare(`UPDATE waitlist_offers SET order_id = (SELECT id FROM orders WHERE order_no = ?1) WHERE id = ?2 AND status = 'claimed'`)
    .bind(placement.orderNo, offerId);
  const written = placementStatements(d1, placement);

  const ride = afterWrite?.ride(now);
  const take = offerId === null ? checkoutHoldStatement(d1, placement) : offerClaimStatement(d1, placement, offerId, now);
  const link = offerId === null ? [] : [linkOffer];
  // A buyer's arrival at a plain session's checkout counts toward its high demand; a claimed offer is no arrival.
  const counted = offerId === null ? [orderRateStatement(d1, placement)] : [];
  const write = () => rawBatch(d1, { take, ...written, link, counted, afterWrite: ride?.statements ?? [] });
  let results: Awaited<ReturnType<typeof write>>;
  try {
    results = await write();
  } catch (error) {
    // A concurrent retry with the same key won the insert; the whole batch (and its hold) rolled back.
    if (isUniqueViolation(error)) {
      const [winner] = await orderByKeyStatement(db, userId, placement.idempotencyKey);
      if (winner) return orderDetailByNo(scope, sameRequestOrReused(winner, hash).orderNo);
    }
    if (ride) return placeInD1(scope, target, placement, offerId, hash, null);
    throw error;
  }
  if (ride) ride.carried(results.afterWrite);
  // Counted whether or not the hold won: a lost race took D1's writer as long as a placed order.
  const [minuteCounts] = results.counted;
  if (minuteCounts) await afterOrderCounted(scope, placement.sessionId, minuteCounts.results[0] as unknown as MinuteCounts, now);
  const [created] = results.order.results;
  if (!created) {
    const why = await whyNotHeld(scope, placement, offerId);
    // A concurrent retry with the same key placed the order first (its hold then refused this one): that order is the answer.
    if (!(why instanceof DomainError)) return orderDetailByNo(scope, sameRequestOrReused(why, hash).orderNo);
    throw why;
  }
  const attendeeRows = results.attendees.flatMap((result) => result.results);
  return placedOrderDetail(scope, target, created, attendeeRows);
}

/**
 * A high-demand on-sale's hold (a session's, or a tier's own) goes through its inventory object, which
 * writes the order to D1 in its next batch. An object being switched off refuses new holds: the order
 * then takes D1's own path, whose hold D1 refuses (409 conflict, try again) until the flag is off.
 */
export async function placeThroughInventory(
  scope: UserScope,
  target: Target,
  onSale: OnSale,
  placement: OrderPlacement,
  standing: AccountStanding,
  hash: string,
  afterWrite: AfterWriteWork | null,
): Promise<OrderDetail> {
  const answer = await scope.onSales.inventory(onSale).hold(placement, onSale, afterWrite?.origin ?? null, standing);
  if (answer.outcome === 'closed') return placeInD1(scope, target, placement, null, hash, afterWrite);
  // The object's batch carried the after-write pass for its buyers; a sold-out answer wrote nothing of this request's.
  if (answer.outcome === 'placed') afterWrite?.doneBy(answer.bookmark);
  if (answer.outcome === 'sold_out') {
    afterWrite?.doneBy(null);
    throw new DomainError('tickets_sold_out', { available: answer.available });
  }
  if (answer.outcome === 'coupon_used') throw new DomainError('coupon_not_usable', {}, 'coupon');
  if (answer.outcome === 'key_reused') throw new DomainError('idempotency_key_reused');
  if (answer.outcome === 'refused') throw new DomainError(answer.refusal.code, answer.refusal.params);
  // D1 refused this order alone (the object set it aside for an operator); its tickets went back.
  if (answer.outcome === 'failed') throw new DomainError('internal');
  sameRequestOrReused(rowOf(orders, answer.order), hash);
  return placedOrderDetail(scope, target, answer.order, answer.attendees);
}

/**
 * Why the batch's hold did not happen, in one round trip: a concurrent retry with the same key placed
 * the order (answered with its row), the offer is no longer claimable, the session (or the tier) became high
 * demand meanwhile (its inventory object holds from now on: try again), the tickets went (to another
 * buyer, or are kept for a waiting group they fit), an order placed meanwhile left the account at a
 * limit (domain/order-limits.ts), or else the coupon was used meanwhile.
 */
async function whyNotHeld(
  scope: UserScope,
  placement: OrderPlacement,
  offerId: number | null,
): Promise<DomainError | { orderNo: string; requestHash: string | null }> {
  const { db, now } = scope;
  const { listingId, quantity, userId, waitingRoomPass } = placement;
  const d1 = db.$client;
  const { earlier, offers, listings, standings } = await rawBatch(d1, {
    earlier: d1
      .prepare('SELECT order_no AS orderNo, request_hash AS requestHash FROM orders WHERE user_id = ?1 AND idempotency_key = ?2')
      .bind(userId, placement.idempotencyKey),
    offers: d1.prepare('SELECT * FROM waitlist_offers WHERE id = ?1').bind(offerId),
    listings: d1
      .prepare(`
    SELECT status, quantity_available AS available, EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.tier_id = listings.tier_id
      AND w.status = 'waiting' AND w.quantity <= listings.quantity_available AND w.user_id <> listings.seller_id) AS kept,
      (SELECT max(s.high_demand, t.high_demand) FROM ticket_tiers t JOIN activity_sessions s ON s.id = t.session_id WHERE t.id = listings.tier_id) AS highDemand
    FROM listings WHERE id = ?1`)
      .bind(listingId),
    standings: standingStatement(d1, [{ key: '', userId, listingId, waitingRoomPass }]),
  });
  const [winner] = earlier.results as { orderNo: string; requestHash: string | null }[];
  if (winner) return winner;
  const refusal = orderLimitRefusal(standingOf(standings.results[0]), quantity, placement.limits);
  if (offerId !== null) {
    const offer = offers.results[0] && rowOf(waitlistOffers, offers.results[0]);
    if (!offer || !offerClaimable(offer, now)) return new DomainError('waitlist_offer_unavailable');
    return refusal ? new DomainError(refusal.code, refusal.params) : new DomainError('coupon_not_usable', {}, 'coupon');
  }
  const listing = listings.results[0] as { status: string; available: number; kept: number; highDemand: number } | undefined;
  if (listing?.highDemand) return new DomainError('conflict');
  const available = listing?.status === 'active' && !listing.kept ? listing.available : 0;
  if (available < quantity) return new DomainError('tickets_sold_out', { available });
  if (refusal) return new DomainError(refusal.code, refusal.params);
  return new DomainError('coupon_not_usable', {}, 'coupon');
}
