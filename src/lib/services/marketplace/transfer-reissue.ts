/**
 * Reissue happens when a buyer's payment is confirmed (services/payments/settlement.ts calls
 * `fulfilTransferOrder`): the transfer needs nothing from the seller, whose tickets are e-tickets
 * the platform itself issued, so waiting for the seller to "fulfil" would only let them stall it.
 * In one D1 batch the buyer's order claims that many of the listing's tickets, gets new tickets
 * (new numbers and entry nonces, so new entry secrets), the seller's originals become 'transferred', the seller's
 * proceeds are recorded for payout after the event, and the order moves to pending receipt.
 * A listed ticket that stops being valid before it is sold (the seller's own order refunded)
 * leaves its listing at once (triggers of migration 0006); an order that held it unpaid is
 * refunded when paid, and a reissue that failed after payment is retried by the scheduled sweep.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { listings, orders } from '../../db/schema.ts';
import { transitionOf } from '../../domain/order-state.ts';
import { ticketNumbers } from '../../domain/ticket-code.ts';
import { platformFeeOf } from '../../domain/transfer.ts';
import { orderWithShowQuery } from '../catalogue/show-query.ts';
import { newEntryNonce } from '../gate/entry-secrets.ts';
import { rawBatch } from '../../data/batch.ts';

/** What an attempt to reissue a paid transfer order did. */
export type TransferReissue =
  /** This call reissued the tickets: the order is pending receipt. */
  | 'ticketed'
  /**
   * The listing no longer has the tickets (the seller's own order was refunded, or its tickets
   * voided, while this order held them unpaid): this call closed the order as refunded, and its
   * payment is to be given back.
   */
  | 'unavailable'
  /** Nothing to do: not a transfer order, or no longer pending ticketing (another call got there first). */
  | 'unchanged';

/**
 * Reissues the tickets of a paid order bought from a transfer listing (see the comment at the top).
 * The order claims all of its tickets among the listing's unclaimed ones or none, and every other
 * write requires that claim, so the batch reissues everything or nothing. A listing short of
 * tickets never gets them back (migration 0006 takes voided tickets out for good), so the same
 * batch then closes the order as refunded and gives its hold back to the listing's stock; the
 * caller refunds the payment (services/payments/refunds.ts). Every statement is guarded by the order's
 * state and the batch is atomic, so a repeat or a concurrent call changes nothing.
 */
export async function fulfilTransferOrder(db: Db, orderId: number, now: number): Promise<TransferReissue> {
  const [row] = await orderWithShowQuery(db)
    .innerJoin(listings, eq(listings.id, orders.listingId))
    .where(and(eq(orders.id, orderId), isNotNull(listings.sourceOrderId)));
  if (row?.order.status !== 'pending_ticketing') return 'unchanged';
  const { order, session } = row;
  const { from, to } = transitionOf('ticketed');
  const refunded = transitionOf('seller_failed').to;
  const numbers = ticketNumbers(order.orderNo, order.quantity);
  // Each reissued ticket has its own entry nonce, so the codes of the ticket it replaces admit no one.
  const entryNonces = numbers.map(() => newEntryNonce());
  const platformFee = platformFeeOf(order.ticketAmount);
  const statuses = from.map((status) => `'${status}'`).join(', ');
  const payable = `EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND status IN (${statuses}))`;
  const unclaimed = 'SELECT id FROM listing_tickets WHERE listing_id = ?2 AND active = 1 AND buyer_order_id IS NULL';
  const claimedAll = `(SELECT count(*) FROM listing_tickets WHERE buyer_order_id = ?1) = ${order.quantity}`;
  const shortOfTickets = `${payable} AND NOT EXISTS (SELECT 1 FROM listing_tickets WHERE buyer_order_id = ?1)
    AND (SELECT count(*) FROM (${unclaimed})) < ?3`;
  const d1 = db.$client;
  const { ticketed, refund } = await rawBatch(d1, {
    claim: d1
      .prepare(`
      UPDATE listing_tickets SET buyer_order_id = ?1
      WHERE id IN (${unclaimed} ORDER BY id LIMIT ?3)
        AND ${payable} AND NOT EXISTS (SELECT 1 FROM listing_tickets WHERE buyer_order_id = ?1)
        AND (SELECT count(*) FROM (${unclaimed})) >= ?3`)
      .bind(order.id, order.listingId, order.quantity),
    tickets: numbers.map((ticketNo, index) =>
      d1
        .prepare(`
      INSERT INTO tickets (order_id, ticket_no, entry_nonce, seat, status, updated_at)
      SELECT ?1, ?2, ?3,
        (SELECT t.seat FROM listing_tickets lt JOIN tickets t ON t.id = lt.ticket_id WHERE lt.buyer_order_id = ?1 ORDER BY lt.id LIMIT 1 OFFSET ?4),
        'valid', ?5
      WHERE ${payable} AND ${claimedAll}
      ON CONFLICT (ticket_no) DO NOTHING`)
        .bind(order.id, ticketNo, entryNonces[index], index, now),
    ),
    transferred: d1
      .prepare(`
      UPDATE tickets SET status = 'transferred', updated_at = ?2
      WHERE id IN (SELECT ticket_id FROM listing_tickets WHERE buyer_order_id = ?1) AND status = 'valid' AND ${payable}`)
      .bind(order.id, now),
    payout: d1
      .prepare(`
      INSERT INTO seller_payouts (seller_id, order_id, listing_id, amount, platform_fee, currency, payable_after, status, created_at)
      SELECT ?2, ?1, ?3, ?4, ?5, ?6, ?7, 'pending', ?8 WHERE ${payable} AND ${claimedAll}
      ON CONFLICT (order_id) DO NOTHING`)
      .bind(
        order.id,
        order.sellerId,
        order.listingId,
        order.ticketAmount - platformFee,
        platformFee,
        order.currency,
        session.startsAt,
        now,
      ),
    ticketed: d1
      .prepare(
        `UPDATE orders SET status = '${to}', ticketed_at = ?2, updated_at = ?2 WHERE id = ?1 AND status IN (${statuses}) AND ${claimedAll} RETURNING id`,
      )
      .bind(order.id, now),
    // Not claimed, and never claimable: the hold goes back first, while the order still shows it.
    giveBack: d1
      .prepare(`UPDATE listings SET quantity_available = quantity_available + ?3 WHERE id = ?2 AND ${shortOfTickets}`)
      .bind(order.id, order.listingId, order.quantity),
    refund: d1
      .prepare(`
      UPDATE orders SET status = '${refunded}', refund_amount = total, closed_at = ?4, updated_at = ?4
      WHERE id = ?1 AND ${shortOfTickets} RETURNING id`)
      .bind(order.id, order.listingId, order.quantity, now),
  });
  if (ticketed.results.length === 1) return 'ticketed';
  if (refund.results.length === 1) return 'unavailable';
  return 'unchanged';
}

/** Paid orders of transfer listings whose reissue has not happened yet, oldest first (the sweep retries them). */
export async function transferOrdersAwaitingReissue(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(listings, eq(listings.id, orders.listingId))
    .where(and(eq(orders.status, 'pending_ticketing'), isNotNull(listings.sourceOrderId)))
    .orderBy(orders.id);
  return rows.map((row) => row.id);
}
