/**
 * The one error services throw: a stable snake_case `code` (also the catalogue key `error.{code}` of
 * its message), the message's parameters, and the input field at fault. It says what went wrong, not
 * how a transport answers it: the API layer maps each code to an HTTP status (api/errors.ts).
 */
import type { AdmissionRefusal } from './admission.ts';
import type { AttendeeChangeRefusal } from './attendee-change.ts';
import type { DraftProblemCode, PublishProblemCode } from './catalogue-drafts.ts';
import type { AddressProblem } from './address.ts';
import type { AttendeeProblem } from './identity.ts';
import type { FulfilmentProblem } from './fulfilment.ts';
import type { FieldProblem } from './validation.ts';
import type { InvitationRefusal } from './invitations.ts';
import type { StaffInvitationRefusal } from './staff-access.ts';
import type { OrderLimitCode } from './order-limits.ts';
import type { HelpRefusal, JoinRefusal } from './lottery.ts';
import type { PostponementProblem } from './show-changes.ts';
import type { CampaignClaimRefusal, StorefrontProblem } from './storefront-schedule.ts';
import type { TransferRefusal } from './transfer.ts';

export type ErrorCode =
  | 'invalid_input'
  | 'text_malformed'
  | 'cross_site_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'internal'
  | 'statement_failed'
  | 'activity_not_found'
  | 'ticket_category_not_found'
  | 'activity_not_on_sale'
  | 'city_not_found'
  | 'language_not_found'
  | 'currency_not_found'
  | 'calendar_type_not_found'
  | 'category_not_found'
  | StaffErrorCode
  | StorefrontErrorCode
  | RatesErrorCode
  | StaffAccessErrorCode
  | CatalogueEditErrorCode
  | AuthErrorCode
  | ProfileErrorCode
  | CheckoutErrorCode
  | FulfilmentErrorCode
  | PaymentErrorCode
  | InvitationErrorCode
  | LotteryErrorCode
  | TransferErrorCode
  | GateErrorCode
  | ShowChangeErrorCode
  | WaitlistErrorCode
  | AttendeeChangeErrorCode
  | ImageErrorCode;

/** A console page or operator route: the caller is no staff member, or their roles do not cover it (domain/staff.ts). */
export type StaffErrorCode = 'not_staff' | 'staff_role_forbidden';

/**
 * Storefront curation: a bad schedule, link or coupon or lottery term (domain/storefront-schedule.ts),
 * a curated thing that is missing or retired; a buyer's claim of a campaign's coupon refused.
 */
export type StorefrontErrorCode = StorefrontProblem | CampaignClaimRefusal | 'storefront_item_not_found' | 'storefront_item_retired';
/** Exchange rates in the console: a currency without a rate, the base (always 1), a typed rate that is no positive number; an admission rate out of range. */
export type RatesErrorCode = 'rate_not_found' | 'rate_base_fixed' | 'rate_invalid' | 'admission_rate_invalid';

/**
 * An uploaded poster or banner (domain/image-upload.ts): not a JPEG, PNG, WebP or AVIF by its bytes,
 * over the byte or pixel limits, smaller than its kind's largest variant, or bytes the image pipeline
 * could not decode although their header looked right.
 */
export type ImageErrorCode =
  | 'image_type_unsupported'
  | 'image_too_large'
  | 'image_too_many_pixels'
  | 'image_too_small'
  | 'image_unreadable';

/**
 * Staff accounts: an invitation that cannot be accepted (domain/staff-access.ts) or is for another
 * phone, the last operator kept, a passkey refused, its challenge spent or expired, or too many tries.
 */
export type StaffAccessErrorCode =
  | StaffInvitationRefusal
  | 'staff_invitation_not_found'
  | 'staff_invitation_wrong_phone'
  | 'staff_member_not_found'
  | 'staff_last_operator'
  | 'passkey_name_required'
  | 'passkey_name_invalid'
  | 'passkey_not_found'
  | 'passkey_last'
  | 'passkey_rejected'
  | 'passkey_challenge_expired'
  | 'passkey_too_frequent';

/** Editing the catalogue from the console (domain/catalogue-drafts.ts). */
export type CatalogueEditErrorCode =
  | DraftProblemCode
  | PublishProblemCode
  | 'venue_not_found'
  | 'artist_not_found'
  | 'venue_other_city'
  | 'category_slug_taken'
  | 'session_in_use'
  | 'tier_in_use'
  | 'session_high_demand_live'
  | 'box_office_required'
  | 'box_office_not_a_seller'
  | 'box_office_in_use';

/** Accounts: bad fields (SPEC.md section 5), codes, captcha, credentials, sending. */
export type AuthErrorCode =
  | FieldProblem
  | 'captcha_wrong'
  | 'code_wrong'
  | 'code_expired'
  | 'code_attempts_exceeded'
  | 'code_too_frequent'
  | 'code_daily_limit'
  | 'credentials_wrong'
  | 'login_locked'
  | 'old_password_wrong'
  | 'registration_failed'
  | 'messaging_unavailable';

/** Addresses and real-name attendees: bad fields (SPEC.md section 5), someone else's or a missing id, the caps. */
export type ProfileErrorCode =
  | AddressProblem
  | AttendeeProblem
  | 'delivery_address_required'
  | 'address_not_found'
  | 'attendee_not_found'
  | 'address_limit_reached'
  | 'attendee_limit_reached';

/** Invitations: a code that names no one, and the refusals of domain/invitations.ts. */
export type InvitationErrorCode = InvitationRefusal | 'invite_code_unknown';

/** Payments: an order that cannot be paid (any more), and webhooks that are forged or too old. */
export type PaymentErrorCode = 'order_not_payable' | 'payments_unavailable' | 'webhook_signature_invalid' | 'webhook_timestamp_stale';

/** Checkout and orders: what is bought, the hold, the checks of the order, its state machine. */
export type CheckoutErrorCode =
  | 'listing_not_found'
  | 'listing_unavailable'
  | 'own_listing'
  | 'quantity_out_of_range'
  | 'delivery_type_unavailable'
  | 'idempotency_key_required'
  | 'idempotency_key_reused'
  | 'tickets_sold_out'
  | 'price_changed'
  | 'coupon_not_usable'
  | 'buyer_notes_not_accepted'
  | 'attendees_required'
  | 'attendee_id_type_mismatch'
  | 'payment_method_unavailable'
  | 'order_not_found'
  | 'waiting_room_not_found'
  | 'waiting_room_pass_required'
  | 'waiting_room_pass_invalid'
  | OrderLimitCode
  | 'order_state_conflict'
  | 'taker_phone_not_pending'
  | 'server_misconfigured'
  | ChallengeErrorCode;

/** Turnstile's challenge on the steps a bot farm needs: none presented, refused, siteverify unreachable. */
export type ChallengeErrorCode = 'challenge_required' | 'challenge_failed' | 'challenge_unavailable';

/** The free-ticket lottery: joining and helping (src/lib/domain/lottery.ts), a missing lottery or share link, the result before the draw. */
export type LotteryErrorCode = JoinRefusal | HelpRefusal | 'lottery_not_found' | 'lottery_share_not_found' | 'lottery_not_drawn';

/** Seller fulfilment and the voucher: who may fulfil, what a fulfilment needs, a voucher link that opens nothing. */
export type FulfilmentErrorCode = FulfilmentProblem | 'not_a_seller' | 'voucher_not_found';

/**
 * Ticket-transfer listings: the rules of domain/transfer.ts, a listing that is not the caller's,
 * the transfer agreement not accepted, a listing with tickets held or sold (cannot be withdrawn)
 * or no longer active (cannot be changed).
 */
export type TransferErrorCode =
  | TransferRefusal
  | 'transfer_listing_not_found'
  | 'transfer_agreement_required'
  | 'transfer_listing_not_withdrawable'
  | 'transfer_listing_closed';

/**
 * A show cancelled or postponed: who may change it, a bad new date (domain/show-changes.ts), a refund
 * no longer offered; high demand not switched off while its inventory object still has holds to write.
 */
export type ShowChangeErrorCode = PostponementProblem | 'session_not_found' | 'refund_not_available' | 'high_demand_holds_unwritten';

/**
 * The gate: who may admit at a session and which tickets, a scan that cannot be one or names no
 * ticket, a code outside the skew window, the refusals of domain/admission.ts, and assigning door staff.
 */
export type GateErrorCode =
  | AdmissionRefusal
  | 'not_gate_staff'
  | 'entry_code_invalid'
  | 'entry_code_expired'
  | 'ticket_not_found'
  | 'ticket_other_seller'
  | 'staff_account_invalid'
  | 'staff_account_not_found'
  | 'staff_is_seller'
  | 'staff_limit_reached';

/**
 * The waitlist: joining a tier that no longer sells or still has tickets for the group, joining
 * again while tickets are held, an entry that is not the caller's, an offer that can no longer be bought.
 */
export type WaitlistErrorCode =
  | 'waitlist_closed'
  | 'waitlist_tickets_available'
  | 'waitlist_waiting_room'
  | 'waitlist_offer_open'
  | 'waitlist_entry_not_found'
  | 'waitlist_offer_unavailable';

/**
 * Changing a real-name attendee: the order's refusals (domain/attendee-change.ts), a ticket that no
 * longer admits, a request already waiting or already decided, one not visible to the caller, the
 * same person again, the ID type the venue asks of the nationality.
 */
export type AttendeeChangeErrorCode =
  | AttendeeChangeRefusal
  | 'attendee_change_ticket_unavailable'
  | 'attendee_change_pending'
  | 'attendee_change_decided'
  | 'attendee_change_not_found'
  | 'attendee_change_same_person'
  | 'attendee_change_id_type_mismatch';

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly params: Record<string, string | number>;
  /** The offending input field, for validation errors. */
  readonly field?: string;

  constructor(code: ErrorCode, params: Record<string, string | number> = {}, field?: string) {
    super(code);
    this.name = 'DomainError';
    this.code = code;
    this.params = params;
    this.field = field;
  }
}
