/**
 * What the order confirmation page renders first: the server's quote for the choices in its URL,
 * the shipping address and the real-name attendees the pickers sent back. A choice that no longer
 * holds (a delivery type the listing stopped offering, an address or attendee since deleted, or
 * someone else's id) is dropped rather than failing the page; the buyer simply chooses again.
 */
import type { AstroGlobal } from 'astro';
import { statusOf, type ErrorStatus } from '../api/errors.ts';
import { PAYMENT_TIME_LIMIT_MS } from '../config/orders.ts';
import { type ConfirmQuery, ORDER_ID_SLOT, parseConfirmQuery } from '../domain/confirm-query.ts';
import { countryName, isCountryCode } from '../domain/countries.ts';
import { DELIVERY_TYPES, type DeliveryType } from '../domain/delivery.ts';
import { DomainError } from '../domain/errors.ts';
import { type OnSale, onSaleNeedingPass, waitingPageQuery } from '../domain/on-sale.ts';
import { idCardTypeFor, type IdCardType } from '../domain/identity.ts';
import { formatOrderTime } from '../domain/order-pages.ts';
import { PAYMENT_METHODS } from '../domain/payment-methods.ts';
import { messagesFor } from '../i18n/index.ts';
import type { Messages } from '../i18n/messages.ts';
import { pageI18n } from '../i18n/page.ts';
import { pathTo } from '../routes.ts';
import { confirmSignIn } from '../services/accounts/signed-in.ts';
import { getAddress } from '../services/accounts/addresses.ts';
import { listAttendees } from '../services/accounts/attendees.ts';
import { signedInQuote } from '../services/orders/checkout.ts';
import type { CheckoutQuote } from '../services/orders/presenters.ts';
import { paymentSetup } from '../services/payments/providers/index.ts';
import type { ClaimedUserScope, UserScope } from '../services/platform/scope.ts';
import { passFor } from '../services/on-sale/waiting-room.ts';
import { PageExit } from './page-exit.ts';
import { claimedPage } from './signed-in.ts';

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

/** What the confirmation page renders: the priced order and its form's texts, or the localized reason it cannot be bought. */
export interface OrderConfirmView {
  data: ConfirmPageData | null;
  /** Why there is no data: the link is bad, or the quote's error. */
  problem: string;
  eventHref: string;
  homeHref: string;
  venueCountryName: string;
  deliveryHints: Record<DeliveryType, string> | null;
  notes: string[];
  islandMessages: Messages;
  paths: { confirm: string; addressList: string; customerList: string; pay: string };
}

/**
 * The page's first render from its URL's choices (domain/confirm-query.ts), or where it goes instead:
 * the waiting room of a high-demand on-sale, which brings the buyer back to this very URL, or login
 * when the session read with the quote does not hold. A quote's error is the page's status.
 */
export async function loadOrderConfirm(astro: Pick<AstroGlobal, 'locals' | 'url' | 'response'>): Promise<OrderConfirmView | PageExit> {
  const { locale, t, link } = pageI18n(astro.locals);
  const claimed = await claimedPage(astro);
  if (claimed instanceof PageExit) return claimed;

  const query = parseConfirmQuery(astro.url.searchParams);
  let data: ConfirmPageData | null = null;
  let problem = t('confirm.badLink');
  let status: ErrorStatus = 400;
  try {
    if (query) {
      const found = await confirmPage(claimed, query);
      // A high-demand on-sale's buyer (the session's, or the tier's own) queues first; the waiting room brings them back to this very URL.
      if ('waitingRoom' in found) {
        const room = found.waitingRoom;
        return PageExit.redirect(
          `${link(pathTo('waitingRoomPage', { id: room.sessionId }))}${waitingPageQuery(room, astro.url.searchParams)}`,
          303,
        );
      }
      data = found;
    } else {
      // Nothing to price: the session is still read before the page answers.
      await confirmSignIn(claimed);
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.code === 'unauthorized') return PageExit.signIn;
    problem = t(`error.${error.code}`, error.params);
    status = statusOf(error);
  }
  if (!data) astro.response.status = status;

  const homeHref = link('/');
  const quote = data?.quote;
  const venueCountry = quote?.activity.venueCountry ?? '';
  const deliveryHints = quote
    ? (Object.fromEntries(
        DELIVERY_TYPES.map((type) => [
          type,
          t(`confirm.delivery.${type}`, {
            venue: quote.activity.venueName,
            from: formatOrderTime(quote.onSitePickupFrom, locale),
            office: t('checkout.office_address'),
          }),
        ]),
      ) as Record<DeliveryType, string>)
    : null;
  const notes = quote
    ? [
        t('detail.notes.guarantee'),
        t('detail.notes.refund'),
        t('detail.notes.payment', { minutes: PAYMENT_TIME_LIMIT_MS / 60_000 }),
        ...(quote.activity.realNameRequired ? [t('detail.notes.realName')] : []),
        t('detail.notes.delivery'),
        t('detail.notes.seating'),
        t('detail.notes.prices', { currency: quote.cost.currency }),
      ]
    : [];
  return {
    data,
    problem,
    homeHref,
    eventHref: quote ? link(pathTo('detailPage', { id: quote.activity.id })) : homeHref,
    venueCountryName: isCountryCode(venueCountry) ? countryName(venueCountry, locale) : venueCountry,
    deliveryHints,
    notes,
    islandMessages: {
      ...messagesFor(locale, [
        'confirm.',
        'detail.delivery.',
        'profile.attendee.needed',
        'profile.attendee.toAdd',
        'profile.attendee.remain',
        'profile.attendee.complete',
        'profile.attendee.type.',
        'error.delivery_address_required',
        'error.name_required',
        'error.phone_required',
        'error.phone_invalid',
        'error.country_code_invalid',
        'error.attendees_required',
        'error.attendee_id_type_mismatch',
        'error.buyer_notes_not_accepted',
        'error.network',
        'error.timeout',
      ]),
      ...Object.fromEntries(PAYMENT_METHODS.map((method) => [`payment.${method}`, t(`payment.${method}`)])),
    },
    paths: {
      confirm: link(pathTo('orderConfirmPage')),
      addressList: link(pathTo('addressListPage')),
      customerList: link(pathTo('attendeeListPage')),
      pay: link(pathTo('orderPayPage', { id: ORDER_ID_SLOT })),
    },
  };
}
