/**
 * The views of checkout and orders: what the confirmation page, the order list and the order detail
 * show, built from rows already loaded, in the buyer's language and currency. No queries here.
 */
import { takerPhoneToConfirm } from '../../domain/taker-phone.ts';
import { ON_SITE_PICKUP_LEAD_MS } from '../../config/orders.ts';
import type { DeliveryType } from '../../domain/delivery.ts';
import type { PaymentMethod } from '../../domain/payment-methods.ts';
import type { orderAttendees, tickets } from '../../db/schema.ts';
import { bestOffer, percentOff, type CouponRefusal } from '../../domain/coupons.ts';
import { maskIdNumber, type IdCardType } from '../../domain/identity.ts';
import type { OnSale } from '../../domain/on-sale.ts';
import { formattedMoney, type CurrencyTable, type FormattedMoney } from '../../domain/money.ts';
import { buyerActions, nextState, type OrderStatus } from '../../domain/order-state.ts';
import { offeredPaymentMethods, type PaymentSetup } from '../../domain/payment-provider-choice.ts';
import { allInAmount, postageOf, type CostBreakdown } from '../../domain/pricing.ts';
import type { RequestContext } from '../../domain/request-context.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import { postponementRefundOpen, showChangeRefund } from '../../domain/show-changes.ts';
import { parseDeliveryTypes, quantityRange, type Seating } from '../../domain/ticket-offer.ts';
import { listableTickets, sourceRefusal } from '../../domain/transfer.ts';
import { translator } from '../../i18n/index.ts';
import { localizedAddress, localizedName, type Locale } from '../../i18n/locales.ts';
import type { OrderWithShowRow } from '../catalogue/show-query.ts';
import type { JudgedCoupon, Priced } from './priced.ts';

/** `allInTickets`: the tickets with their service fee, as the buyer was shown them (the fee is included, not added). */
export type CostView = CostBreakdown & { formatted: Record<Exclude<keyof CostBreakdown, 'currency'> | 'allInTickets', string> };

export function costView(cost: CostBreakdown, locale: Locale, table: CurrencyTable): CostView {
  const format = (amount: number) => formattedMoney(amount, cost.currency, locale, table).formatted;
  return {
    ...cost,
    formatted: {
      ticketAmount: format(cost.ticketAmount),
      allInTickets: format(cost.ticketAmount + cost.serviceFee),
      serviceFee: format(cost.serviceFee),
      postage: format(cost.postage),
      fuelSurcharge: format(cost.fuelSurcharge),
      couponDiscount: format(cost.couponDiscount),
      total: format(cost.total),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The quote

export interface CouponOption {
  userCouponId: number;
  name: string;
  kind: 'rate' | 'amount';
  foldTenths: number | null;
  percentOff: number | null;
  amount: FormattedMoney | null;
  minSpend: FormattedMoney | null;
  validFrom: number;
  validTo: number;
  newUserOnly: boolean;
  usable: boolean;
  reason: CouponRefusal | null;
  discount: FormattedMoney | null;
}

export interface CheckoutQuote {
  listing: { id: number; seating: Seating; deliveryTypes: DeliveryType[]; sellerName: string };
  activity: {
    id: number;
    name: string;
    poster: string;
    venueName: string;
    venueAddress: string;
    cityName: string;
    venueCountry: string;
    realNameRequired: boolean;
  };
  /** `highDemand`: buyers come through its waiting room, and its order needs the pass from there. */
  session: { id: number; startsAt: number; label: string; highDemand: boolean };
  /**
   * The high-demand on-sale its buyers come through (the session's, or this tier's own): its order
   * needs the pass of that on-sale's waiting room. Null for a plain purchase.
   */
  onSale: OnSale | null;
  tier: { id: number; name: string; faceValue: FormattedMoney };
  quantity: number;
  quantityRange: { min: number; max: number };
  /** One ticket before the service fee, as checkout converts it. */
  unitPrice: FormattedMoney;
  /** One ticket with its service fee: the price per ticket the buyer reads everywhere. */
  allInUnitPrice: FormattedMoney;
  deliveryType: DeliveryType;
  onSitePickupFrom: number;
  paymentMethods: PaymentMethod[];
  attendeesRequired: number;
  coupons: CouponOption[];
  bestCouponId: number | null;
  appliedCouponId: number | null;
  cost: CostView;
}

function couponOption(entry: JudgedCoupon, currency: string, locale: Locale, table: CurrencyTable): CouponOption {
  const { coupon, verdict } = entry;
  const couponCurrency = coupon.currency ?? currency;
  return {
    userCouponId: entry.id,
    name: localizedName(coupon, locale),
    kind: coupon.kind,
    foldTenths: coupon.kind === 'rate' ? coupon.foldTenths : null,
    percentOff: coupon.kind === 'rate' && coupon.foldTenths !== null ? percentOff(coupon.foldTenths) : null,
    amount: coupon.kind === 'amount' && coupon.amount !== null ? formattedMoney(coupon.amount, couponCurrency, locale, table) : null,
    minSpend: coupon.minSpend > 0 ? formattedMoney(coupon.minSpend, couponCurrency, locale, table) : null,
    validFrom: coupon.validFrom,
    validTo: coupon.validTo,
    newUserOnly: coupon.newUserOnly,
    usable: verdict.usable,
    reason: verdict.usable ? null : verdict.reason,
    discount: verdict.usable ? formattedMoney(verdict.discount, currency, locale, table) : null,
  };
}

/** The quote of a checked and priced purchase, in the buyer's language and currency. */
export function checkoutQuoteView(
  priced: Priced,
  quantity: number,
  ctx: RequestContext,
  table: CurrencyTable,
  setup: PaymentSetup,
): CheckoutQuote {
  const { target, deliveryType, unitPrice, judged, applied, cost } = priced;
  const { listing, tier, session, activity, venue, city } = target;
  const locale = ctx.locale;
  return {
    listing: {
      id: listing.id,
      seating: listing.seating,
      deliveryTypes: parseDeliveryTypes(listing.deliveryTypes),
      sellerName: target.sellerName,
    },
    activity: {
      id: activity.id,
      name: localizedName(activity, locale),
      poster: activity.poster,
      venueName: localizedName(venue, locale),
      venueAddress: localizedAddress(venue, locale),
      cityName: localizedName(city, locale),
      venueCountry: target.countryCode,
      realNameRequired: activity.realNameRequired,
    },
    session: {
      id: session.id,
      startsAt: session.startsAt,
      label: formatSessionTime(session.startsAt, locale, city.timeZone),
      highDemand: target.onSale !== null && target.onSale.tierId === null,
    },
    onSale: target.onSale,
    tier: { id: tier.id, name: localizedName(tier, locale), faceValue: formattedMoney(tier.faceValue, tier.currency, locale, table) },
    quantity: quantity,
    quantityRange: quantityRange({ numMin: activity.numMin, numMax: activity.numMax }, listing.quantityAvailable),
    unitPrice: formattedMoney(unitPrice, ctx.currency, locale, table),
    allInUnitPrice: formattedMoney(allInAmount(unitPrice, 1), ctx.currency, locale, table),
    deliveryType,
    onSitePickupFrom: session.startsAt - ON_SITE_PICKUP_LEAD_MS,
    paymentMethods: offeredPaymentMethods(setup, ctx.currency),
    attendeesRequired: activity.realNameRequired ? quantity : 0,
    coupons: judged.map((entry) => couponOption(entry, ctx.currency, locale, table)),
    bestCouponId: bestOffer(judged)?.id ?? null,
    appliedCouponId: applied?.id ?? null,
    cost: costView(cost, locale, table),
  };
}

// ---------------------------------------------------------------------------------------------
// Orders

export interface OrderSummary {
  id: number;
  orderNo: string;
  status: OrderStatus;
  paymentSubstatus: 'paying' | 'confirming' | null;
  createdAt: number;
  paymentDeadline: number;
  activity: { id: number; name: string; poster: string; venueName: string; cityName: string };
  session: { startsAt: number; label: string };
  tier: { name: string };
  quantity: number;
  total: FormattedMoney;
  /** requestRefund: the show was postponed and its refund can still be asked for. */
  actions: { pay: boolean; cancel: boolean; confirmReceipt: boolean; requestRefund: boolean };
}

export interface OrderDetail extends Omit<OrderSummary, 'activity' | 'tier'> {
  updatedAt: number;
  paidAt: number | null;
  ticketedAt: number | null;
  closedAt: number | null;
  cancelReason: 'user' | 'timeout' | 'event' | null;
  /** The show was cancelled or postponed: what happened, and what the buyer gets (or got) back. */
  showChange: ShowChange | null;
  activity: OrderSummary['activity'] & { venueAddress: string; venueCountry: string };
  tier: { name: string; faceValue: FormattedMoney };
  /** One ticket before the service fee. */
  unitPrice: FormattedMoney;
  /** One ticket with its service fee: the price per ticket the buyer read before buying. */
  allInUnitPrice: FormattedMoney;
  cost: CostView;
  refund: FormattedMoney | null;
  deliveryType: DeliveryType;
  paymentMethod: PaymentMethod | null;
  shippingAddress: { name: string; phone: string; text: string } | null;
  /** Who collects the tickets; messages go to their number once `confirmed`, which the buyer may do while `confirmable`. */
  taker: { name: string; phone: string; confirmed: boolean; confirmable: boolean } | null;
  pickup: { address: string; from: number } | null;
  trackingNo: string | null;
  ticketProvider: string;
  attendees: Array<{ name: string; idCardType: IdCardType; idCardNoMasked: string }>;
  /** `listed`: offered in one of the holder's active transfer listings. */
  tickets: Array<{
    ticketNo: string;
    seat: string | null;
    status: 'pending' | 'valid' | 'used' | 'invalid' | 'transferred';
    listed: boolean;
  }>;
  voucherUrl: string | null;
  /** Tickets the holder may list for transfer now ("Sell / transfer"); 0 when they may not. */
  transferable: number;
}

export interface OrderPage {
  items: OrderSummary[];
  page: number;
  pageSize: number;
  total: number;
  hasMore: boolean;
}

function actionsOf(order: OrderWithShowRow['order'], session: OrderWithShowRow['session'], now: number): OrderSummary['actions'] {
  const allowed = buyerActions(order.status);
  const payable = now < order.paymentDeadline;
  const requestRefund = postponementRefundOpen(session, now) && nextState(order.status, 'postponement_refund') !== null;
  return { pay: allowed.pay && payable, cancel: allowed.cancel && payable, confirmReceipt: allowed.confirmReceipt, requestRefund };
}

export function orderSummaryView(row: OrderWithShowRow, locale: Locale, table: CurrencyTable, now: number): OrderSummary {
  const { order, activity, venue, city, session, tier } = row;
  return {
    id: order.id,
    orderNo: order.orderNo,
    status: order.status,
    paymentSubstatus: order.status === 'pending_payment' ? order.paymentSubstatus : null,
    createdAt: order.createdAt,
    paymentDeadline: order.paymentDeadline,
    activity: {
      id: activity.id,
      name: localizedName(activity, locale),
      poster: activity.poster,
      venueName: localizedName(venue, locale),
      cityName: localizedName(city, locale),
    },
    session: { startsAt: session.startsAt, label: formatSessionTime(session.startsAt, locale, city.timeZone) },
    tier: { name: localizedName(tier, locale) },
    quantity: order.quantity,
    total: formattedMoney(order.total, order.currency, locale, table),
    actions: actionsOf(order, session, now),
  };
}

export interface ShowChange {
  status: 'cancelled' | 'postponed';
  /** A postponed show's first date, as a label. */
  originalLabel: string | null;
  /** Until when a postponed show's refund can be asked for. */
  refundUntil: number | null;
  /** What the buyer of a paid order gets back (SPEC.md refund rules). */
  refund: FormattedMoney;
}

function showChangeOf(row: OrderWithShowRow, locale: Locale, table: CurrencyTable): ShowChange | null {
  const { order, session, city } = row;
  if (session.status === 'scheduled') return null;
  return {
    status: session.status,
    originalLabel: session.originalStartsAt === null ? null : formatSessionTime(session.originalStartsAt, locale, city.timeZone),
    refundUntil: session.refundUntil,
    refund: formattedMoney(showChangeRefund(order), order.currency, locale, table),
  };
}

function pickupOf(row: OrderWithShowRow, locale: Locale): OrderDetail['pickup'] {
  const { order, venue, session } = row;
  if (order.pickupAddress) return { address: order.pickupAddress, from: order.pickupTime ?? session.startsAt - ON_SITE_PICKUP_LEAD_MS };
  if (order.deliveryType === 'on_site') {
    return {
      address: `${localizedName(venue, locale)}, ${localizedAddress(venue, locale)}`,
      from: session.startsAt - ON_SITE_PICKUP_LEAD_MS,
    };
  }
  if (order.deliveryType === 'self_pickup') {
    return { address: translator(locale)('checkout.office_address'), from: order.ticketedAt ?? session.startsAt - ON_SITE_PICKUP_LEAD_MS };
  }
  return null;
}

/** What an order's detail shows beyond its row and show: its attendees and tickets, and where its voucher opens. */
export interface OrderDetailParts {
  attendeeRows: (typeof orderAttendees.$inferSelect)[];
  ticketRows: (typeof tickets.$inferSelect)[];
  /** Ids of the tickets offered in an active transfer listing. */
  listed: ReadonlySet<number>;
  voucherUrl: string | null;
}

export function orderDetailView(
  row: OrderWithShowRow,
  parts: OrderDetailParts,
  locale: Locale,
  table: CurrencyTable,
  now: number,
): OrderDetail {
  const { order, venue, tier } = row;
  const { attendeeRows, ticketRows, listed } = parts;
  // Only a valid e-ticket can be voided and reissued to a new holder.
  const holdable = ticketRows.filter((ticket) => ticket.status === 'valid' && ticket.entryNonce !== null);
  const transferSource = {
    status: order.status,
    sessionStartsAt: row.session.startsAt,
    validTickets: holdable.length,
    listedTickets: holdable.filter((ticket) => listed.has(ticket.id)).length,
  };
  const summary = orderSummaryView(row, locale, table, now);
  const shipping = order.shippingAddress ? (JSON.parse(order.shippingAddress) as { name: string; phone: string; text: string }) : null;
  return {
    ...summary,
    updatedAt: order.updatedAt,
    paidAt: order.paidAt,
    ticketedAt: order.ticketedAt,
    closedAt: order.closedAt,
    cancelReason:
      order.cancelReason === 'user' || order.cancelReason === 'timeout' || order.cancelReason === 'event' ? order.cancelReason : null,
    showChange: showChangeOf(row, locale, table),
    activity: { ...summary.activity, venueAddress: localizedAddress(venue, locale), venueCountry: row.countryCode },
    tier: { name: localizedName(tier, locale), faceValue: formattedMoney(tier.faceValue, tier.currency, locale, table) },
    unitPrice: formattedMoney(order.unitPrice, order.currency, locale, table),
    allInUnitPrice: formattedMoney(allInAmount(order.unitPrice, 1), order.currency, locale, table),
    cost: costView(
      {
        currency: order.currency,
        ticketAmount: order.ticketAmount,
        serviceFee: order.serviceFee,
        postage: order.postage,
        fuelSurcharge: Math.min(order.postage, postageOf(order.deliveryType as DeliveryType, order.currency, table).fuelSurcharge),
        couponDiscount: order.couponDiscount,
        total: order.total,
      },
      locale,
      table,
    ),
    refund: order.refundAmount > 0 ? formattedMoney(order.refundAmount, order.currency, locale, table) : null,
    deliveryType: order.deliveryType as DeliveryType,
    paymentMethod: order.paymentMethod,
    shippingAddress: shipping ? { name: shipping.name, phone: shipping.phone, text: shipping.text } : null,
    taker:
      order.takerName && order.takerPhone
        ? {
            name: order.takerName,
            phone: order.takerPhone,
            confirmed: order.takerPhoneConfirmedAt !== null,
            confirmable: takerPhoneToConfirm(order) !== null,
          }
        : null,
    pickup: pickupOf(row, locale),
    trackingNo: order.trackingNo,
    ticketProvider: row.sellerName ?? '',
    attendees: attendeeRows.map((attendee) => ({
      name: attendee.name,
      idCardType: attendee.idCardType,
      idCardNoMasked: maskIdNumber(attendee.idCardNo),
    })),
    tickets: ticketRows.map((ticket) => ({
      ticketNo: ticket.ticketNo,
      seat: ticket.seat,
      status: ticket.status,
      listed: listed.has(ticket.id),
    })),
    voucherUrl: parts.voucherUrl,
    transferable: sourceRefusal(transferSource, now) ? 0 : listableTickets(transferSource),
  };
}
