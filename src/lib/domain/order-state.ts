/**
 * The order state machine of DESIGN.md, as data: which event moves an order from which states to
 * which one. The server applies every change through a guarded update built from `transitionOf`,
 * so an event that does not apply to the order's current state changes nothing and is a 409.
 */
export const ORDER_STATUSES = ['pending_payment', 'pending_ticketing', 'pending_receipt', 'completed', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_EVENTS = [
  'payment_confirmed',
  'user_cancelled',
  'payment_expired',
  'ticketed',
  'receipt_confirmed',
  'seller_failed',
  'event_cancelled',
  'event_cancelled_unpaid',
  'postponement_refund',
] as const;
export type OrderEvent = (typeof ORDER_EVENTS)[number];

export interface Transition {
  from: readonly OrderStatus[];
  to: OrderStatus;
}

const TRANSITIONS: Record<OrderEvent, Transition> = {
  payment_confirmed: { from: ['pending_payment'], to: 'pending_ticketing' },
  user_cancelled: { from: ['pending_payment'], to: 'cancelled' },
  payment_expired: { from: ['pending_payment'], to: 'cancelled' },
  ticketed: { from: ['pending_ticketing'], to: 'pending_receipt' },
  receipt_confirmed: { from: ['pending_receipt'], to: 'completed' },
  seller_failed: { from: ['pending_ticketing', 'pending_receipt'], to: 'refunded' },
  // A show cancelled refunds every paid order, also one whose receipt was confirmed before the show.
  event_cancelled: { from: ['pending_ticketing', 'pending_receipt', 'completed'], to: 'refunded' },
  event_cancelled_unpaid: { from: ['pending_payment'], to: 'cancelled' },
  // A buyer of a postponed show who cannot go asks for the same refund.
  postponement_refund: { from: ['pending_ticketing', 'pending_receipt', 'completed'], to: 'refunded' },
};

/** The states an event applies in and the state it leads to. */
export function transitionOf(event: OrderEvent): Transition {
  return TRANSITIONS[event];
}

/** The state an event leads to from `current`, or null when the event is not allowed there. */
export function nextState(current: OrderStatus, event: OrderEvent): OrderStatus | null {
  const { from, to } = TRANSITIONS[event];
  return from.includes(current) ? to : null;
}

/** States after which nothing more can happen to an order. */
export function isFinal(status: OrderStatus): boolean {
  return ORDER_EVENTS.every((event) => nextState(status, event) === null);
}

/** The order list's tabs (SPEC.md section 6): All, then one per state. */
export const ORDER_TABS = ['all', ...ORDER_STATUSES] as const;
export type OrderTab = (typeof ORDER_TABS)[number];

/** What the buyer may do with an order in a state, before the deadline is looked at. */
export function buyerActions(status: OrderStatus): { pay: boolean; cancel: boolean; confirmReceipt: boolean } {
  return {
    pay: nextState(status, 'payment_confirmed') !== null,
    cancel: nextState(status, 'user_cancelled') !== null,
    confirmReceipt: nextState(status, 'receipt_confirmed') !== null,
  };
}
