/**
 * The order confirmation page's URL (`/order/confirm?listingId=&quantity=&...`). Everything the buyer
 * chose that must survive a round trip through the address or attendee picker lives in its query:
 * the pickers send the buyer back to this URL with `addressId` or `attendeeIds` set, keeping the rest.
 * Reading is lenient: a choice the page cannot use reads as "not chosen"; only the listing and the
 * quantity are required.
 */
import { ORDER_TIME_ZONE } from '../config/orders.ts';
import { DELIVERY_TYPES, type DeliveryType } from './delivery.ts';
import { PAYMENT_METHODS, type PaymentMethod } from './payment-methods.ts';
import { dateFormat } from './intl-cache.ts';

/** The coupon to price with: the best offer, none, or one of the buyer's coupons (user coupon id). */
export type CouponChoice = 'best' | 'none' | number;

export interface ConfirmQuery {
  listingId: number;
  quantity: number;
  deliveryType: DeliveryType | null;
  paymentMethod: PaymentMethod | null;
  coupon: CouponChoice;
  addressId: number | null;
  /** In the order the buyer ticked them, without repeats. */
  attendeeIds: number[];
  /** The waitlist offer whose held tickets this checkout buys. */
  offer?: number;
}

const ID = /^[1-9]\d{0,9}$/;
const QUANTITY = /^[1-9]\d{0,2}$/;
/** More ids than anyone can save (20 attendees each) is not a choice but a tampered link. */
const MAX_ATTENDEE_IDS = 20;

function idOf(value: string | null): number | null {
  return value !== null && ID.test(value) ? Number(value) : null;
}

function oneOf<T extends string>(options: readonly T[], value: string | null): T | null {
  return value !== null && (options as readonly string[]).includes(value) ? (value as T) : null;
}

function attendeeIdsOf(value: string | null): number[] {
  if (!value) return [];
  const ids = value.split(',').map((part) => idOf(part.trim()));
  if (ids.length > MAX_ATTENDEE_IDS || ids.some((id) => id === null)) return [];
  return [...new Set(ids as number[])];
}

function couponOf(value: string | null): CouponChoice {
  if (value === 'none') return 'none';
  return idOf(value) ?? 'best';
}

/** The page's choices from its query; null when the listing or the quantity is missing or malformed. */
export function parseConfirmQuery(params: URLSearchParams): ConfirmQuery | null {
  const listingId = idOf(params.get('listingId'));
  const quantityText = params.get('quantity');
  if (listingId === null || quantityText === null || !QUANTITY.test(quantityText)) return null;
  return {
    listingId,
    quantity: Number(quantityText),
    deliveryType: oneOf(DELIVERY_TYPES, params.get('deliveryType')),
    paymentMethod: oneOf(PAYMENT_METHODS, params.get('paymentMethod')),
    coupon: couponOf(params.get('coupon')),
    addressId: idOf(params.get('addressId')),
    attendeeIds: attendeeIdsOf(params.get('attendeeIds')),
    ...offerOf(params.get('offer')),
  };
}

function offerOf(value: string | null): { offer?: number } {
  const id = idOf(value);
  return id === null ? {} : { offer: id };
}

/** The query string (without `?`) of a confirmation page in this state; unchosen values are left out. */
export function confirmSearch(query: ConfirmQuery): string {
  const params = new URLSearchParams({ listingId: String(query.listingId), quantity: String(query.quantity) });
  if (query.deliveryType) params.set('deliveryType', query.deliveryType);
  if (query.paymentMethod) params.set('paymentMethod', query.paymentMethod);
  if (query.coupon !== 'best') params.set('coupon', String(query.coupon));
  if (query.addressId !== null) params.set('addressId', String(query.addressId));
  if (query.attendeeIds.length > 0) params.set('attendeeIds', query.attendeeIds.join(','));
  if (query.offer !== undefined) params.set('offer', String(query.offer));
  return params.toString();
}

/**
 * A picker's URL that comes back to `returnTo`: the address list (`select=1&return=`) or the
 * attendee list, which also takes how many to choose and the venue's country (it decides the ID type).
 */
export function pickerHref(listPath: string, returnTo: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ select: '1', return: returnTo, ...extra });
  return `${listPath}?${params.toString()}`;
}

/**
 * A coupon's validity date as the buyer reads it, in ORDER_TIME_ZONE: the island renders it on the
 * server and again in the browser, and both must print the same day.
 */
export function formatCouponDate(ms: number, locale: string): string {
  return dateFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: ORDER_TIME_ZONE }).format(ms);
}

/**
 * The pay page's path is rendered on the server (locale prefix included) before the order exists:
 * with this in place of the id, and the island puts the new order's id there.
 */
export const ORDER_ID_SLOT = 'ORDER_ID';

/** The pay page of a new order, from the server-rendered path with ORDER_ID_SLOT. */
export function payHref(template: string, orderId: number): string {
  return template.replace(ORDER_ID_SLOT, String(orderId));
}
