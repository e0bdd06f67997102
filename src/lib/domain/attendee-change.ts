/**
 * Changing a real-name attendee after ordering: whether an order's attendee may still be
 * changed, and the deadline the order page names. Time is passed in.
 */
import { ATTENDEE_CHANGE_CUTOFF_MS } from '../config/orders.ts';
import type { OrderStatus } from './order-state.ts';

/** Why an attendee cannot be changed (also the catalogue key `error.{refusal}`). */
export type AttendeeChangeRefusal = 'attendee_change_not_real_name' | 'attendee_change_not_paid' | 'attendee_change_closed';

/** Paid orders whose tickets are still to come or in hand; a closed (refunded, cancelled) order has no one to admit. */
const CHANGEABLE_STATUSES: readonly OrderStatus[] = ['pending_ticketing', 'pending_receipt', 'completed'];

/** The last moment a change may be asked for or approved: the cut-off before the show starts. */
export function attendeeChangeDeadline(sessionStartsAt: number): number {
  return sessionStartsAt - ATTENDEE_CHANGE_CUTOFF_MS;
}

/** Why the order's attendees cannot be changed at `now`, or null when they can. */
export function attendeeChangeRefusal(
  order: { realName: boolean; status: OrderStatus; sessionStartsAt: number },
  now: number,
): AttendeeChangeRefusal | null {
  if (!order.realName) return 'attendee_change_not_real_name';
  if (!CHANGEABLE_STATUSES.includes(order.status)) return 'attendee_change_not_paid';
  if (now >= attendeeChangeDeadline(order.sessionStartsAt)) return 'attendee_change_closed';
  return null;
}

/** A ticket can take a new attendee only while it still admits: not used, resold or void. */
export function ticketChangeable(status: 'pending' | 'valid' | 'used' | 'invalid' | 'transferred' | null): boolean {
  return status === null || status === 'valid';
}
