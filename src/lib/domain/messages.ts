/**
 * The messages we send a buyer or seller after a state change: what each kind carries,
 * and what a provider receives. A message row is written by a database trigger in the same
 * statement as the change it reports (migrations/0014_messages.sql); the queue consumer turns
 * the row into `MessageFacts` (already localized and formatted) and composes the text from them.
 */

export const MESSAGE_KINDS = [
  'order_placed',
  'payment_received',
  'tickets_issued',
  'pickup_details',
  'courier_shipped',
  'payment_failed',
  'order_expired',
  'refund_made',
  'show_cancelled',
  'show_postponed',
  'listing_sold',
  'waitlist_offer',
  'lottery_result',
  'sale_started',
  'attendee_change_approved',
  'attendee_change_refused',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export type MessageChannel = 'email' | 'sms';

/** What every message about a show names, already in the recipient's language. */
export interface ShowFacts {
  /** The activity's name. */
  activity: string;
  /** The session's start, formatted in the venue's time zone ("Sat 12 Dec 2026 20:00"). */
  session: string;
  venue: string;
  /** The absolute link the message points to (the order, the voucher, checkout, the lottery). */
  link: string;
}

/** An order's numbers, formatted for the recipient. */
export interface OrderFacts extends ShowFacts {
  orderNo: string;
  tier: string;
  quantity: number;
  /** One ticket with its service fee, as the buyer read it before buying ("HK$583.20"). */
  unitPrice: string;
  /** The order's total with its currency ("HK$1,280.00"). */
  total: string;
}

/** Each kind with the facts its text needs. */
export type MessageFacts =
  | ({ kind: 'order_placed'; paymentDeadline: string } & OrderFacts)
  | ({ kind: 'payment_received' } & OrderFacts)
  | ({ kind: 'tickets_issued' } & OrderFacts)
  | ({ kind: 'pickup_details'; pickupAddress: string; pickupTime: string; takerName: string } & OrderFacts)
  | ({ kind: 'courier_shipped'; trackingNo: string } & OrderFacts)
  | ({ kind: 'payment_failed'; paymentDeadline: string } & OrderFacts)
  | ({ kind: 'order_expired' } & OrderFacts)
  | ({ kind: 'refund_made'; refundAmount: string } & OrderFacts)
  | ({ kind: 'show_cancelled' } & OrderFacts)
  | ({ kind: 'show_postponed'; newSession: string; refundUntil: string } & OrderFacts)
  | ({ kind: 'listing_sold'; quantity: number; payout: string } & ShowFacts)
  | ({ kind: 'waitlist_offer'; tier: string; quantity: number; holdUntil: string } & ShowFacts)
  | ({ kind: 'lottery_result'; won: boolean } & ShowFacts)
  | ({ kind: 'sale_started' } & ShowFacts)
  | ({ kind: 'attendee_change_approved' | 'attendee_change_refused'; attendee: string } & OrderFacts);

/** A message ready for a provider: email carries text and HTML, SMS one short text. */
export interface ComposedMessage {
  subject: string;
  text: string;
  /** Email only; every fact in it is escaped. */
  html: string | null;
}

/** What a provider is handed: the composed message, its address, and our id as its idempotency key. */
export interface OutgoingMessage extends ComposedMessage {
  id: string;
  channel: MessageChannel;
  /** An email address, or a phone as "+852 91234567". */
  to: string;
  /**
   * Set on a retry (ms since the epoch): an earlier attempt may have reached the provider and lost
   * its answer, and it cannot have been sent before this time. A provider without idempotency keys
   * looks for that copy before sending again.
   */
  retrySince?: number;
}
