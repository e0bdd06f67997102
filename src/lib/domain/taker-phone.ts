/**
 * A pickup taker's number is a number the buyer typed: our messages go to it only once the buyer
 * confirmed it, by typing back a code we sent there (or at checkout, when it is their own number).
 */
import type { OrderStatus } from './order-state.ts';

/** Orders whose tickets are still to be collected: only their taker's number is worth confirming. */
const COLLECTABLE: readonly OrderStatus[] = ['pending_payment', 'pending_ticketing', 'pending_receipt'];

export interface TakerOfOrder {
  status: OrderStatus;
  takerPhone: string | null;
  takerPhoneConfirmedAt: number | null;
}

/** The taker number the buyer may still confirm: null when the order has none, it is confirmed, or the tickets are no longer to collect. */
export function takerPhoneToConfirm(order: TakerOfOrder): string | null {
  if (order.takerPhoneConfirmedAt !== null || !COLLECTABLE.includes(order.status)) return null;
  return order.takerPhone;
}

/** What a taker's code is stored and checked under: the number within its order, so no other order's code confirms it. */
export const takerCodeKey = (orderId: number, takerPhone: string): string => `order:${orderId}:${takerPhone}`;
