/**
 * The one error envelope. Services throw a DomainError (domain/errors.ts) with a stable snake_case
 * code, which is also the catalogue key `error.{code}` of its message; here each code gets its HTTP
 * status, once, in ERROR_STATUS.
 */
import type { DomainError, ErrorCode } from '../domain/errors.ts';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 503;

/** Bad input 400, no session 401, not allowed 403, missing 404, conflicts with the state of things 409. */
export const ERROR_STATUS: Record<ErrorCode, ErrorStatus> = {
  invalid_input: 400,
  text_malformed: 400,
  cross_site_request: 403,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  statement_failed: 422,
  activity_not_found: 404,
  ticket_category_not_found: 404,
  activity_not_on_sale: 409,
  city_not_found: 404,
  language_not_found: 404,
  currency_not_found: 404,
  calendar_type_not_found: 404,
  category_not_found: 404,
  // Accounts
  phone_required: 400,
  phone_invalid: 400,
  country_code_invalid: 400,
  email_required: 400,
  email_invalid: 400,
  password_required: 400,
  new_password_required: 400,
  password_invalid: 400,
  code_required: 400,
  code_invalid: 400,
  captcha_required: 400,
  nickname_required: 400,
  nickname_invalid: 400,
  agreement_required: 400,
  captcha_wrong: 400,
  code_wrong: 400,
  code_expired: 400,
  code_attempts_exceeded: 400,
  code_too_frequent: 429,
  code_daily_limit: 429,
  credentials_wrong: 400,
  login_locked: 429,
  old_password_wrong: 400,
  registration_failed: 409,
  messaging_unavailable: 503,
  challenge_required: 400,
  challenge_failed: 400,
  challenge_unavailable: 503,
  // Uploaded images
  image_type_unsupported: 400,
  image_too_large: 413,
  image_too_many_pixels: 400,
  image_too_small: 400,
  image_unreadable: 400,
  // Addresses and attendees
  required_info_empty: 400,
  name_required: 400,
  name_invalid: 400,
  phone_malformed: 400,
  country_required: 400,
  area_required: 400,
  street_required: 400,
  postcode_invalid: 400,
  nationality_required: 400,
  id_type_required: 400,
  id_number_required: 400,
  id_number_invalid: 400,
  delivery_address_required: 400,
  address_not_found: 404,
  attendee_not_found: 404,
  address_limit_reached: 409,
  attendee_limit_reached: 409,
  // Invitations
  invite_self: 409,
  invite_already_accepted: 409,
  invite_not_new_user: 409,
  invite_cycle: 409,
  invite_code_unknown: 400,
  // Payments
  order_not_payable: 409,
  payments_unavailable: 503,
  webhook_signature_invalid: 400,
  webhook_timestamp_stale: 400,
  // Checkout and orders
  listing_not_found: 404,
  listing_unavailable: 409,
  own_listing: 409,
  quantity_out_of_range: 400,
  delivery_type_unavailable: 400,
  idempotency_key_required: 400,
  idempotency_key_reused: 422,
  tickets_sold_out: 409,
  price_changed: 409,
  coupon_not_usable: 409,
  buyer_notes_not_accepted: 400,
  attendees_required: 400,
  attendee_id_type_mismatch: 400,
  payment_method_unavailable: 400,
  order_not_found: 404,
  waiting_room_not_found: 404,
  waiting_room_pass_required: 403,
  waiting_room_pass_invalid: 403,
  waiting_room_pass_used: 403,
  account_ticket_cap: 409,
  unpaid_ticket_limit: 409,
  listing_hold_limit: 409,
  order_state_conflict: 409,
  taker_phone_not_pending: 409,
  server_misconfigured: 503,
  // The lottery
  lottery_closed: 409,
  lottery_already_joined: 409,
  lottery_own_entry: 409,
  lottery_already_helped: 409,
  lottery_codes_full: 409,
  lottery_not_found: 404,
  lottery_share_not_found: 404,
  lottery_not_drawn: 409,
  // Fulfilment and the voucher
  fulfilment_method_mismatch: 400,
  tracking_no_required: 400,
  pickup_address_required: 400,
  pickup_time_required: 400,
  pickup_after_show: 400,
  seats_count_mismatch: 400,
  not_a_seller: 403,
  voucher_not_found: 404,
  // Transfers
  transfer_order_not_eligible: 409,
  transfer_event_started: 409,
  transfer_no_tickets: 409,
  transfer_quantity_exceeds_held: 409,
  transfer_price_out_of_band: 400,
  transfer_listing_not_found: 404,
  transfer_agreement_required: 400,
  transfer_listing_not_withdrawable: 409,
  transfer_listing_closed: 409,
  // Staff
  not_staff: 403,
  staff_role_forbidden: 403,
  // Storefront curation
  schedule_end_before_start: 400,
  schedule_end_past: 400,
  storefront_link_invalid: 400,
  storefront_image_invalid: 400,
  coupon_amount_not_below_threshold: 400,
  coupon_validity_invalid: 400,
  coupon_validity_before_claims: 400,
  campaign_city_required: 400,
  campaign_limit_below_claimed: 409,
  campaign_terms_locked: 409,
  lottery_entry_window_invalid: 400,
  lottery_entry_after_draw: 400,
  lottery_draw_past: 400,
  lottery_prize_locked: 409,
  lottery_not_editable: 409,
  storefront_item_not_found: 404,
  storefront_item_retired: 409,
  coupon_campaign_closed: 409,
  coupon_campaign_exhausted: 409,
  coupon_campaign_not_for_you: 403,
  coupon_already_claimed: 409,
  // Exchange rates and admission rates
  rate_not_found: 404,
  rate_base_fixed: 409,
  rate_invalid: 400,
  admission_rate_invalid: 400,
  staff_invitation_revoked: 409,
  staff_invitation_used: 409,
  staff_invitation_expired: 409,
  staff_invitation_not_found: 404,
  staff_invitation_wrong_phone: 403,
  staff_member_not_found: 404,
  staff_last_operator: 409,
  passkey_name_required: 400,
  passkey_name_invalid: 400,
  passkey_not_found: 404,
  passkey_last: 409,
  passkey_rejected: 400,
  passkey_challenge_expired: 400,
  passkey_too_frequent: 429,
  // Editing the catalogue (name_required is the address book's)
  text_too_long: 400,
  address_required: 400,
  map_url_invalid: 400,
  coordinates_invalid: 400,
  slug_invalid: 400,
  poster_invalid: 400,
  sale_status_invalid: 400,
  ticket_limit_invalid: 400,
  session_times_invalid: 400,
  sale_times_unordered: 400,
  account_cap_invalid: 400,
  face_value_invalid: 400,
  tier_currency_unknown: 400,
  quota_invalid: 400,
  quota_below_sold: 409,
  activity_without_sessions: 409,
  session_without_tiers: 409,
  venue_not_found: 404,
  artist_not_found: 404,
  venue_other_city: 400,
  category_slug_taken: 409,
  session_in_use: 409,
  tier_in_use: 409,
  box_office_required: 409,
  box_office_not_a_seller: 400,
  box_office_in_use: 409,
  session_high_demand_live: 409,
  // Show changes
  session_cancelled: 409,
  postpone_date_invalid: 400,
  refund_deadline_invalid: 400,
  session_not_found: 404,
  refund_not_available: 409,
  high_demand_holds_unwritten: 409,
  // The gate
  ticket_other_session: 409,
  ticket_already_used: 409,
  ticket_transferred: 409,
  ticket_void: 409,
  not_gate_staff: 403,
  entry_code_invalid: 400,
  entry_code_expired: 409,
  ticket_not_found: 404,
  ticket_other_seller: 409,
  staff_account_invalid: 400,
  staff_account_not_found: 404,
  staff_is_seller: 409,
  staff_limit_reached: 409,
  // The waitlist
  waitlist_closed: 409,
  waitlist_tickets_available: 409,
  waitlist_waiting_room: 409,
  waitlist_offer_open: 409,
  waitlist_entry_not_found: 404,
  waitlist_offer_unavailable: 409,
  // Changing a real-name attendee
  attendee_change_not_real_name: 409,
  attendee_change_not_paid: 409,
  attendee_change_closed: 409,
  attendee_change_ticket_unavailable: 409,
  attendee_change_pending: 409,
  attendee_change_decided: 409,
  attendee_change_not_found: 404,
  attendee_change_same_person: 400,
  attendee_change_id_type_mismatch: 400,
};

/**
 * A currency picked by its id that does not exist is missing (404); a currency code typed into a
 * listing's `currency` field that we do not know is bad input (400).
 */
const FIELD_STATUS: Partial<Record<ErrorCode, Record<string, ErrorStatus>>> = { currency_not_found: { currency: 400 } };

/** The HTTP status a domain error answers with. */
export function statusOf(error: DomainError): ErrorStatus {
  return (error.field !== undefined ? FIELD_STATUS[error.code]?.[error.field] : undefined) ?? ERROR_STATUS[error.code];
}

export interface SuccessEnvelope<T> {
  code: 200;
  data: T;
  message: '';
}

export interface ErrorEnvelope {
  code: number;
  data: null;
  message: string;
  errorCode: string;
  field?: string;
}

export function success<T>(data: T): SuccessEnvelope<T> {
  return { code: 200, data, message: '' };
}
