/**
 * Ticket transfer: a holder resells tickets of an order they bought. The rules here decide who may
 * list, how many tickets, at what price (a band around face value set in config), and how the money
 * splits: the buyer pays the ticket amount plus the usual service fee, the seller receives the
 * ticket amount less the platform's transfer fee.
 */
import { TRANSFER_PLATFORM_FEE_BASIS_POINTS, TRANSFER_PRICE_BAND } from '../config/orders.ts';
import { convert, type CurrencyTable, type Money } from './money.ts';
import type { OrderStatus } from './order-state.ts';
import type { ListingStatus } from './availability.ts';
import { serviceFeeOf } from './pricing.ts';

/** Order states in which the buyer holds the tickets. */
export const TRANSFERABLE_ORDER_STATUSES: readonly OrderStatus[] = ['pending_receipt', 'completed'];

export type TransferRefusal =
  | 'transfer_order_not_eligible'
  | 'transfer_event_started'
  | 'transfer_no_tickets'
  | 'transfer_quantity_exceeds_held'
  | 'transfer_price_out_of_band';

export interface TransferSource {
  status: OrderStatus;
  sessionStartsAt: number;
  /** Tickets of the order that are valid e-tickets (a paper ticket cannot be voided and reissued). */
  validTickets: number;
  /** Of those, the ones already in an active transfer listing. */
  listedTickets: number;
}

/** Tickets of the order that may still be listed: valid and not already in an active listing. */
export function listableTickets(source: Pick<TransferSource, 'validTickets' | 'listedTickets'>): number {
  return Math.max(0, source.validTickets - source.listedTickets);
}

/** Why the holder may not list tickets of this order now, or null when they may list some. */
export function sourceRefusal(source: TransferSource, now: number): TransferRefusal | null {
  if (!TRANSFERABLE_ORDER_STATUSES.includes(source.status)) return 'transfer_order_not_eligible';
  if (source.sessionStartsAt <= now) return 'transfer_event_started';
  if (listableTickets(source) === 0) return 'transfer_no_tickets';
  return null;
}

/** Why `quantity` tickets cannot be listed, or null; the quantity itself is a positive integer. */
export function quantityRefusal(source: TransferSource, quantity: number): TransferRefusal | null {
  return quantity > listableTickets(source) ? 'transfer_quantity_exceeds_held' : null;
}

/** How a seller's listing reads: on sale, sold (every ticket bought), withdrawn, or closed (its event started unsold, or was cancelled). */
export type ListingState = 'active' | 'sold_out' | 'withdrawn' | 'closed';

/** A listing row stays active when all its tickets are bought or its event starts; the seller sees what it means. */
export function listingState(
  listing: { status: ListingStatus; quantityTotal: number },
  sold: number,
  sessionStartsAt: number,
  now: number,
): ListingState {
  if (listing.status !== 'active') return listing.status;
  if (sold === listing.quantityTotal) return 'sold_out';
  return sessionStartsAt <= now ? 'closed' : 'active';
}

/** The lowest and highest price per ticket allowed, in the face value's currency and minor units. */
export function priceBand(faceValue: number): { min: number; max: number } {
  return {
    min: Math.ceil((faceValue * TRANSFER_PRICE_BAND.minPercent) / 100),
    max: Math.floor((faceValue * TRANSFER_PRICE_BAND.maxPercent) / 100),
  };
}

/**
 * The band of a face value expressed in another currency: the lowest and highest whole amounts of
 * `currency` that, converted back as the server checks them, still lie within the band.
 */
export function priceBandIn(faceValue: Money, currency: string, table: CurrencyTable): { min: number; max: number } {
  const band = priceBand(faceValue.amount);
  const back = (amount: number) => convert({ amount, currency }, faceValue.currency, table).amount;
  let min = convert({ amount: band.min, currency: faceValue.currency }, currency, table).amount;
  while (back(min) < band.min) min += 1;
  while (min > 0 && back(min - 1) >= band.min) min -= 1;
  let max = convert({ amount: band.max, currency: faceValue.currency }, currency, table).amount;
  while (back(max) > band.max) max -= 1;
  while (back(max + 1) <= band.max) max += 1;
  return { min, max };
}

/** Whether a price per ticket (already in the face value's currency) lies within the band. */
export function priceInBand(price: number, faceValue: number): boolean {
  const { min, max } = priceBand(faceValue);
  return Number.isInteger(price) && price >= min && price <= max;
}

/** The platform's transfer fee on a ticket amount, rounded half up to the minor unit. */
export function platformFeeOf(ticketAmount: number): number {
  return Math.floor((ticketAmount * TRANSFER_PLATFORM_FEE_BASIS_POINTS + 5_000) / 10_000);
}

export interface TransferSplit {
  ticketAmount: number;
  /** The buyer's service fee, as at every checkout. */
  serviceFee: number;
  /** What the buyer pays before postage and coupons. */
  buyerPays: number;
  platformFee: number;
  sellerReceives: number;
}

/** How the money of `quantity` tickets at `price` splits, in the price's currency. */
export function transferSplit(price: number, quantity: number): TransferSplit {
  const ticketAmount = price * quantity;
  const serviceFee = serviceFeeOf(ticketAmount);
  const platformFee = platformFeeOf(ticketAmount);
  return { ticketAmount, serviceFee, buyerPays: ticketAmount + serviceFee, platformFee, sellerReceives: ticketAmount - platformFee };
}
