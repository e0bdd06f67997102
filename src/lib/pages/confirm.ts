/**
 * What the order confirmation page renders first: the server's quote for the choices in its URL,
 * the shipping address and the real-name attendees the pickers sent back. A choice that no longer
 * holds (a delivery type the listing stopped offering, an address or attendee since deleted, or
 * someone else's id) is dropped rather than failing the page; the buyer simply chooses again.
 */
import type { ConfirmQuery } from '../domain/confirm-query.ts';
import { DomainError } from '../domain/errors.ts';
import { type OnSale, onSaleNeedingPass } from '../domain/on-sale.ts';
import { idCardTypeFor, type IdCardType } from '../domain/identity.ts';
import { getAddress } from '../services/accounts/addresses.ts';
import { listAttendees } from '../services/accounts/attendees.ts';
import { signedInQuote } from '../services/orders/checkout.ts';
import type { CheckoutQuote } from '../services/orders/presenters.ts';
import { paymentSetup } from '../services/payments/providers/index.ts';
import type { ClaimedUserScope, UserScope } from '../services/platform/scope.ts';
import { passFor } from '../services/on-sale/waiting-room.ts';

export interface ShippingAddressChoice {
  id: number;
  name: string;
  phone: string;
  text: string;
}

export interface AttendeeChoice {
  id: number;
  name: string;
  idCardType: IdCardType;
  /** Masked, as every list shows it. */
  idCardNo: string;
  /** The document this venue asks of the attendee (ID card at home, passport elsewhere). */
  requiredType: IdCardType;
}

export interface ConfirmPageData {
  quote: CheckoutQuote;
  /** The URL's choices as they were priced, without those that no longer hold. */
  query: ConfirmQuery;
  address: ShippingAddressChoice | null;
  /** Null when the event is not real-name. */
  attendees: { saved: number; chosen: AttendeeChoice[] } | null;
  /** A high-demand on-sale's pass from its waiting room (the session's, or the tier's own), which the order carries; null for a plain purchase. */
  waitingRoomPass: string | null;
}

/** A high-demand on-sale's buyer who has not been let through yet: the page sends them to its waiting room. */
export interface QueueFirst {
  waitingRoom: OnSale;
}

/** The quote of the URL's choices, the session read in its batch (services/accounts/signed-in.ts), with the scope it confirmed. */
async function quoteFor(claimed: ClaimedUserScope, query: ConfirmQuery) {
  const input = { listingId: query.listingId, quantity: query.quantity, coupon: query.coupon, waitlistOfferId: query.offer };
  const setup = paymentSetup(claimed.env);
  try {
    return { ...(await signedInQuote(claimed, setup, { ...input, deliveryType: query.deliveryType ?? undefined })), query };
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'delivery_type_unavailable') throw error;
    return { ...(await signedInQuote(claimed, setup, input)), query: { ...query, deliveryType: null } };
  }
}

async function addressOf(scope: UserScope, id: number | null): Promise<ShippingAddressChoice | null> {
  if (id === null) return null;
  try {
    const address = await getAddress(scope, id);
    const text = [address.countryName, address.area, address.street, address.postcode].filter(Boolean).join(', ');
    return { id: address.id, name: address.name, phone: `${address.phoneCountryCode} ${address.phone}`, text };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'address_not_found') return null;
    throw error;
  }
}

/**
 * The first render's data. Quote errors (listing gone, not on sale, quantity out of range, sold out)
 * are thrown as the API would answer them, for the page to show; so is `unauthorized`, when the
 * session read with the quote does not confirm the claim. A high-demand on-sale's checkout (a
 * session's, or a tier's own) opens only with the buyer's pass from its waiting room; without one,
 * the buyer queues first. A buyer claiming their own waitlist offer needs none.
 */
export async function confirmPage(claimed: ClaimedUserScope, requested: ConfirmQuery): Promise<ConfirmPageData | QueueFirst> {
  const { scope, quote, query } = await quoteFor(claimed, requested);
  const passFrom = onSaleNeedingPass(quote.onSale, query.offer !== undefined);
  const waitingRoom = passFrom ? await passFor(scope, passFrom) : null;
  if (passFrom && !waitingRoom) return { waitingRoom: passFrom };
  const [address, saved] = await Promise.all([
    addressOf(scope, query.addressId),
    quote.attendeesRequired > 0 ? listAttendees(scope) : Promise.resolve(null),
  ]);
  const chosen = (saved ?? [])
    .filter((attendee) => query.attendeeIds.includes(attendee.id))
    .sort((a, b) => query.attendeeIds.indexOf(a.id) - query.attendeeIds.indexOf(b.id))
    .map((attendee) => ({
      id: attendee.id,
      name: attendee.name,
      idCardType: attendee.idCardType,
      idCardNo: attendee.idCardNo,
      requiredType: idCardTypeFor(quote.activity.venueCountry, attendee.nationality),
    }));
  return {
    quote,
    query: { ...query, addressId: address?.id ?? null, attendeeIds: chosen.map((attendee) => attendee.id) },
    address,
    attendees: saved ? { saved: saved.length, chosen } : null,
    waitingRoomPass: waitingRoom?.pass ?? null,
  };
}
