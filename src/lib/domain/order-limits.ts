/**
 * What one account may order (security review): a waiting-room pass buys one order, an account
 * buys at most its cap of one session's tickets, and holds at most so many unpaid tickets, in all
 * and of any one listing, so that nobody empties an on-sale with one pass or keeps a listing from
 * everyone without paying. Checkout and the inventory object judge an order with `orderLimitRefusal`;
 * the same figures guard the order's write in D1 (data/order-placement.ts), so a race between
 * two orders cannot pass both.
 */

/** The figures an order is held to, worked out by checkout from the session, the listing and config/orders.ts. */
export interface OrderLimits {
  /** Tickets of the session one account may have in orders that are paid or awaiting payment. */
  accountTicketCap: number;
  /** Unpaid tickets one account may hold across every listing. */
  unpaidTicketLimit: number;
  /** Unpaid tickets one account may hold of this listing. */
  listingUnpaidLimit: number;
}

/** What the account already has, as D1 (and an inventory object's unwritten holds) say. */
export interface AccountStanding {
  /** Tickets of the order's session in the account's orders not cancelled or refunded. */
  sessionTickets: number;
  /** Tickets of the account's unpaid orders, every listing. */
  unpaidTickets: number;
  /** Tickets of the account's unpaid orders of the order's listing. */
  unpaidOnListing: number;
  /** The order's waiting-room pass already bought an order that has not lapsed unpaid. */
  passUsed: boolean;
}

/** Nothing held: a new account's standing. */
export const NO_STANDING: AccountStanding = { sessionTickets: 0, unpaidTickets: 0, unpaidOnListing: 0, passUsed: false };

export type OrderLimitCode = 'waiting_room_pass_used' | 'account_ticket_cap' | 'unpaid_ticket_limit' | 'listing_hold_limit';

export interface OrderLimitRefusal {
  code: OrderLimitCode;
  params: Record<string, number>;
}

/** A session's own cap when an operator set one, else the default. */
export function accountTicketCap(sessionCap: number | null, defaultCap: number): number {
  return sessionCap ?? defaultCap;
}

/**
 * Unpaid tickets one account may hold of a listing of `quantityTotal` tickets: its `share`, rounded
 * down, but never fewer than `least`, so a small listing still sells an order of a few to one buyer.
 */
export function listingUnpaidLimit(quantityTotal: number, share: number, least: number): number {
  return Math.max(least, Math.floor(quantityTotal * share));
}

/** The refusal of one code, with the figure its message names. */
export function refusalOf(code: OrderLimitCode, limits: OrderLimits): OrderLimitRefusal {
  if (code === 'account_ticket_cap') return { code, params: { cap: limits.accountTicketCap } };
  if (code === 'unpaid_ticket_limit') return { code, params: { limit: limits.unpaidTicketLimit } };
  if (code === 'listing_hold_limit') return { code, params: { limit: limits.listingUnpaidLimit } };
  return { code, params: {} };
}

/**
 * Why an order of `quantity` tickets is refused to an account standing so, or null when it may be
 * placed: a spent pass first (the order needs another turn in line), then the session's cap (final:
 * paying does not lift it), then the unpaid limits (paying or cancelling does), the listing's before
 * the account's, as it says more precisely which order to pay.
 */
export function orderLimitRefusal(standing: AccountStanding, quantity: number, limits: OrderLimits): OrderLimitRefusal | null {
  if (standing.passUsed) return refusalOf('waiting_room_pass_used', limits);
  if (standing.sessionTickets + quantity > limits.accountTicketCap) return refusalOf('account_ticket_cap', limits);
  if (standing.unpaidOnListing + quantity > limits.listingUnpaidLimit) return refusalOf('listing_hold_limit', limits);
  if (standing.unpaidTickets + quantity > limits.unpaidTicketLimit) return refusalOf('unpaid_ticket_limit', limits);
  return null;
}

/** Two standings together: D1's and the holds an inventory object has not yet written. */
export function addStandings(a: AccountStanding, b: AccountStanding): AccountStanding {
  return {
    sessionTickets: a.sessionTickets + b.sessionTickets,
    unpaidTickets: a.unpaidTickets + b.unpaidTickets,
    unpaidOnListing: a.unpaidOnListing + b.unpaidOnListing,
    passUsed: a.passUsed || b.passUsed,
  };
}
