/** Orders and payments: the pay window, prices and fees, delivery, limits per account, providers, resale. */

/** Payment time limit (DESIGN.md): the hold on the tickets ends with it. */
export const PAYMENT_TIME_LIMIT_MS = 15 * 60 * 1000;
/**
 * How long money for a closed order may sit unreturned before the sweep gives it back: long enough
 * that the request closing the order has finished its own refund call, so the two do not race.
 */
export const REFUND_RETRY_AFTER_MS = 5 * 60 * 1000;
/**
 * Tickets of one session an account may have in orders paid or awaiting payment, when the session
 * sets no cap of its own (`activity_sessions.account_ticket_cap`): the largest per-order limit the
 * catalogue uses (num_max up to 8), so a family or group buys together, while one admitted account
 * can no longer buy out an on-sale order after order (security review: one pass, 35 tickets).
 */
export const ACCOUNT_TICKET_CAP = 8;
/**
 * What one account may hold unpaid, since an unpaid order keeps its tickets from everyone for
 * PAYMENT_TIME_LIMIT_MS (security review: two unpaid orders of 6 sold a 12-ticket listing out).
 * `accountTickets` across every listing: one full order at the largest per-order limit, so a buyer
 * pays (or lets go) before holding more. `listingShare` of one listing's tickets, rounded down, so
 * nobody holds a large listing whole; but never fewer than `listingLeast`, so a seller's small group
 * of seats (four together, the most resale listings hold) still sells to one buyer in one order.
 */
export const UNPAID_HOLD_LIMITS = { accountTickets: 8, listingShare: 0.5, listingLeast: 4 } as const;
/** The built-in sandbox provider (DESIGN.md, Payments): local builds only, never a deployed worker. */
export const SANDBOX_PROVIDER = 'sandbox';
/** Stripe (src/lib/services/payments/providers/stripe.ts): deployed builds with STRIPE_SECRET_KEY set. */
export const STRIPE_PROVIDER = 'stripe';
/** The Stripe account's country when STRIPE_ACCOUNT_COUNTRY is not set: it decides the methods Stripe offers. */
export const STRIPE_DEFAULT_ACCOUNT_COUNTRY = 'HK';
/** Stripe keeps a Checkout Session open at least 30 minutes; a payment that arrives after its order expired is refunded. */
export const STRIPE_SESSION_MIN_LIFETIME_MS = 30 * 60 * 1000;
/** How often the payment page asks for the order's payment state. */
export const PAYMENT_POLL_INTERVAL_MS = 3000;
/** A signed webhook older or newer than this is refused, so a captured one cannot be replayed later. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60 * 1000;
/** The person who collects a pickup order's tickets: a name, which goes out in the pickup SMS. */
export const TAKER_NAME_MAX_LENGTH = 50;
/**
 * Checkout pricing. The service fee is a share of the ticket amount (basis points); courier postage
 * and its fuel surcharge are fixed HKD amounts converted into the order's currency.
 */
export const SERVICE_FEE_BASIS_POINTS = 800;
export const COURIER_POSTAGE = { amount: 3_000, currency: 'HKD' } as const;
export const COURIER_FUEL_SURCHARGE = { amount: 600, currency: 'HKD' } as const;
/** On-site tickets are handed out from this long before the show (SPEC.md section 9). */
export const ON_SITE_PICKUP_LEAD_MS = 60 * 60 * 1000;
/** Orders per page of the order list. */
export const ORDER_PAGE_SIZE = 10;
/** Longest order-list search text. */
export const ORDER_KEYWORD_MAX_LENGTH = 100;
/**
 * The zone an order's own times (placed, paid, deadline) are shown in, with its offset: the
 * platform's home, since the server rendering them does not know the buyer's zone.
 */
export const ORDER_TIME_ZONE = 'Asia/Hong_Kong';
/** The guarantee's compensation coupon (up to 1:1 of the ticket amount) stays valid this long. */
export const COMPENSATION_COUPON_DAYS = 365;
/**
 * A real-name attendee can be changed until this long before the show: the seller needs the time to
 * decide, the buyer to get the reissued voucher to the new attendee, and the venue to load the final
 * names onto its ID-check lists the day before.
 */
export const ATTENDEE_CHANGE_CUTOFF_MS = 48 * 3600 * 1000;
/** Resales followed back to a ticket's issuing seller: a ticket resold more often than this is not one a door expects. */
export const RESALE_CHAIN_MAX = 16;
/**
 * Ticket transfer (resale by a holder): the price per ticket must lie within this band of the
 * tier's face value, and the platform keeps this share of the ticket amount from the seller.
 */
export const TRANSFER_PRICE_BAND = { minPercent: 50, maxPercent: 300 } as const;
export const TRANSFER_PLATFORM_FEE_BASIS_POINTS = 1_000;
