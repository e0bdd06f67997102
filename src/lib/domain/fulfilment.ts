/**
 * What a seller may send when marking an order ticketed: the method has to suit the buyer's
 * delivery choice, and each method needs its own details (a tracking number, a pickup place and
 * time before the show, one seat per ticket when seats are given).
 */
import type { DeliveryType } from './delivery.ts';

export const FULFILMENT_METHODS = ['e_ticket', 'courier', 'pickup'] as const;
export type FulfilmentMethod = (typeof FULFILMENT_METHODS)[number];

export const TRACKING_NO_PATTERN = /^[A-Za-z0-9-]{4,40}$/;
export const PICKUP_ADDRESS_MAX_LENGTH = 200;
export const SEAT_MAX_LENGTH = 40;
export const FAIL_REASON_MAX_LENGTH = 200;

export interface FulfilmentInput {
  method: FulfilmentMethod;
  trackingNo?: string;
  pickupAddress?: string;
  pickupTime?: number;
  seats?: string[];
}

export interface OrderToFulfil {
  deliveryType: DeliveryType;
  quantity: number;
  sessionStartsAt: number;
}

export type FulfilmentProblem =
  | 'fulfilment_method_mismatch'
  | 'tracking_no_required'
  | 'pickup_address_required'
  | 'pickup_time_required'
  | 'pickup_after_show'
  | 'seats_count_mismatch';

/**
 * Whether a method can deliver an order: an e-ticket always can (it needs nothing from the buyer),
 * a courier only an order with a shipping address, a pickup only an order with a named taker.
 */
export function methodSuits(method: FulfilmentMethod, deliveryType: DeliveryType): boolean {
  if (method === 'e_ticket') return true;
  if (method === 'courier') return deliveryType === 'courier';
  return deliveryType === 'on_site' || deliveryType === 'self_pickup';
}

/** The first thing wrong with a fulfilment for an order, with the field to point at, or null. */
export function fulfilmentProblem(input: FulfilmentInput, order: OrderToFulfil): { problem: FulfilmentProblem; field: string } | null {
  if (!methodSuits(input.method, order.deliveryType)) return { problem: 'fulfilment_method_mismatch', field: 'method' };
  if (input.method === 'courier' && !input.trackingNo) return { problem: 'tracking_no_required', field: 'trackingNo' };
  if (input.method === 'pickup') {
    if (!input.pickupAddress?.trim()) return { problem: 'pickup_address_required', field: 'pickupAddress' };
    if (input.pickupTime === undefined) return { problem: 'pickup_time_required', field: 'pickupTime' };
    if (input.pickupTime >= order.sessionStartsAt) return { problem: 'pickup_after_show', field: 'pickupTime' };
  }
  if (input.seats && input.seats.length !== order.quantity) return { problem: 'seats_count_mismatch', field: 'seats' };
  return null;
}
