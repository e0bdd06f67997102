/**
 * Orders: the checkout quote, creating an order with its hold on the tickets, reading and listing a
 * buyer's orders, and every change of state. Stock lives in `listings.quantity_available` only: an
 * order takes its tickets with one guarded write in the same D1 batch that inserts it, and gives
 * them back through the `orders_release_hold` trigger when an unpaid order closes.
 */
import { and, desc, eq, inArray, isNotNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { ApiError } from '../api/errors.ts';
import {
  INVITER_REWARDS_PER_MONTH, ON_SITE_PICKUP_LEAD_MS, ORDER_PAGE_SIZE, PAYMENT_TIME_LIMIT_MS, TAKER_DELIVERY_TYPES, type DeliveryType,
  type PaymentMethod,
} from '../config.ts';
import type { Db } from '../db/client.ts';
import {
  activities, activitySessions, attendees, cities, countries, coupons, listings, listingTickets, orderAttendees, orders, tickets, ticketTiers,
  userCoupons, users, venues,
} from '../db/schema.ts';
import { ACTIVITY_STATUS } from '../domain/activity.ts';
import { bestOffer, judgeCoupon, percentOff, type CouponRefusal, type CouponVerdict } from '../domain/coupons.ts';
import { idCardTypeFor, maskIdNumber } from '../domain/identity.ts';
import { rewardMonthStart } from '../domain/invitations.ts';
import { requestHash, sameRequest } from '../domain/idempotency.ts';
import { convert, formattedMoney, type CurrencyTable, type FormattedMoney } from '../domain/money.ts';
import { buyerActions, nextState, transitionOf, type OrderEvent, type OrderStatus, type OrderTab } from '../domain/order-state.ts';
import { offeredPaymentMethods, type PaymentSetup } from '../domain/payment-provider-choice.ts';
import { costBreakdown, postageOf, type CostBreakdown } from '../domain/pricing.ts';
import { postponementRefundOpen, showChangeRefund } from '../domain/show-changes.ts';
import type { RequestContext } from '../domain/request-context.ts';
import { formatSessionTime } from '../domain/session-time.ts';
import { parseDeliveryTypes, quantityRange, type Seating } from '../domain/ticket-offer.ts';
import { listableTickets, sourceRefusal } from '../domain/transfer.ts';
import { normalizePhone, phoneProblem } from '../domain/validation.ts';
import { translator } from '../i18n/index.ts';
import { localizedAddress, localizedName, type Locale } from '../i18n/locales.ts';
import { getAddress } from './addresses.ts';
import { rewardInviterStatements, withdrawInviterRewardStatements } from './coupons.ts';
import { orderWithShowQuery, type OrderWithShowRow } from './order-show.ts';
import { voucherUrl } from './voucher-link.ts';

export type OrderRow = typeof orders.$inferSelect;
export type CostView = CostBreakdown & { formatted: Record<Exclude<keyof CostBreakdown, 'currency'>, string> };

const TAKER_NAME_MAX_LENGTH = 50;

// ---------------------------------------------------------------------------------------------
// Shared views

function costView(cost: CostBreakdown, locale: Locale, table: CurrencyTable): CostView {
  const format = (amount: number) => formattedMoney(amount, cost.currency, locale, table).formatted;
  return {
    ...cost,
    formatted: {
      ticketAmount: format(cost.ticketAmount),
      serviceFee: format(cost.serviceFee),
      postage: format(cost.postage),
      fuelSurcharge: format(cost.fuelSurcharge),
      couponDiscount: format(cost.couponDiscount),
      total: format(cost.total),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// What is being bought

interface Target {
  listing: typeof listings.$inferSelect;
  tier: typeof ticketTiers.$inferSelect;
  session: typeof activitySessions.$inferSelect;
  activity: typeof activities.$inferSelect;
  venue: typeof venues.$inferSelect;
  city: typeof cities.$inferSelect;
  countryCode: string;
  sellerName: string;
}

async function loadTarget(db: Db, listingId: number): Promise<Target> {
  const [row] = await db
    .select({
      listing: listings, tier: ticketTiers, session: activitySessions, activity: activities, venue: venues, city: cities,
      countryCode: countries.code, sellerName: users.nickname,
    })
    .from(listings)
    .innerJoin(ticketTiers, eq(ticketTiers.id, listings.tierId))
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .innerJoin(venues, eq(venues.id, activities.venueId))
    .innerJoin(cities, eq(cities.id, venues.cityId))
    .innerJoin(countries, eq(countries.id, cities.countryId))
    .innerJoin(users, eq(users.id, listings.sellerId))
    .where(eq(listings.id, listingId));
  if (!row) throw new ApiError(404, 'listing_not_found');
  return { ...row, sellerName: row.sellerName ?? '' };
}

/** A listing sells while it is active, its activity is on sale and its session has not begun. */
function checkSellable(target: Target, now: number): void {
  const { listing, activity, session } = target;
  const selling = activity.status === ACTIVITY_STATUS.onSale || activity.status === ACTIVITY_STATUS.booking;
  const closed = listing.status === 'withdrawn' || listing.status === 'closed' || session.status === 'cancelled';
  if (closed || !selling || activity.saleStartsAt > now || session.startsAt <= now) {
    throw new ApiError(409, 'listing_unavailable');
  }
}

/** Quantities outside the activity's per-order limits are bad input; more than is left is a conflict. */
function checkQuantity(target: Target, quantity: number): void {
  const min = Math.max(1, target.activity.numMin);
  const max = target.activity.numMax;
  if (!Number.isInteger(quantity) || quantity < min || quantity > max) throw new ApiError(400, 'quantity_out_of_range', { min, max }, 'quantity');
  const available = target.listing.status === 'active' ? target.listing.quantityAvailable : 0;
  if (quantity > available) throw new ApiError(409, 'tickets_sold_out', { available });
}

function deliveryTypeOf(target: Target, requested: DeliveryType | undefined): DeliveryType {
  const offered = parseDeliveryTypes(target.listing.deliveryTypes);
  if (requested === undefined) return offered[0];
  if (!offered.includes(requested)) throw new ApiError(400, 'delivery_type_unavailable', {}, 'deliveryType');
  return requested;
}

function unitPriceIn(target: Target, currency: string, table: CurrencyTable): number {
  return convert({ amount: target.listing.price, currency: target.listing.currency }, currency, table).amount;
}

// ---------------------------------------------------------------------------------------------
// Coupons of the buyer, judged against one order

interface JudgedCoupon {
  id: number;
  coupon: typeof coupons.$inferSelect;
  verdict: CouponVerdict;
  validTo: number;
}

async function hasPaidOrder(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.userId, userId), isNotNull(orders.paidAt))).limit(1);
  return row !== undefined;
}

async function judgeUserCoupons(
  db: Db, userId: number, order: { ticketAmount: number; currency: string; categoryId: number }, table: CurrencyTable, now: number,
): Promise<JudgedCoupon[]> {
  const [rows, paidBefore] = await Promise.all([
    db
      .select({ id: userCoupons.id, coupon: coupons })
      .from(userCoupons)
      .innerJoin(coupons, eq(coupons.id, userCoupons.couponId))
      .where(and(eq(userCoupons.userId, userId), eq(userCoupons.status, 'unused')))
      .orderBy(coupons.validTo, userCoupons.id),
    hasPaidOrder(db, userId),
  ]);
  return rows.map(({ id, coupon }) => ({
    id,
    coupon,
    validTo: coupon.validTo,
    verdict: judgeCoupon(coupon, { ...order, hasPaidOrder: paidBefore, now }, table),
  }));
}

type CouponChoice = 'best' | 'none' | number;

function chosenCoupon(judged: readonly JudgedCoupon[], choice: CouponChoice): JudgedCoupon | null {
  if (choice === 'none') return null;
  if (choice === 'best') return bestOffer(judged);
  return judged.find((entry) => entry.id === choice && entry.verdict.usable) ?? null;
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
  activity: { id: number; name: string; poster: string; venueName: string; venueAddress: string; cityName: string; venueCountry: string; realNameRequired: boolean };
  session: { id: number; startsAt: number; label: string };
  tier: { id: number; name: string; faceValue: FormattedMoney };
  quantity: number;
  quantityRange: { min: number; max: number };
  unitPrice: FormattedMoney;
  deliveryType: DeliveryType;
  onSitePickupFrom: number;
  paymentMethods: PaymentMethod[];
  attendeesRequired: number;
  coupons: CouponOption[];
  bestCouponId: number | null;
  appliedCouponId: number | null;
  cost: CostView;
}

export interface QuoteInput {
  listingId: number;
  quantity: number;
  deliveryType?: DeliveryType;
  coupon: CouponChoice;
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

interface Priced {
  target: Target;
  deliveryType: DeliveryType;
  unitPrice: number;
  judged: JudgedCoupon[];
  applied: JudgedCoupon | null;
  cost: CostBreakdown;
}

async function price(db: Db, ctx: RequestContext, table: CurrencyTable, userId: number, input: QuoteInput, now: number): Promise<Priced> {
  const target = await loadTarget(db, input.listingId);
  // A seller buying their own listing (a resold ticket back to its holder) would only move money in a circle.
  if (target.listing.sellerId === userId) throw new ApiError(409, 'own_listing');
  checkSellable(target, now);
  checkQuantity(target, input.quantity);
  const deliveryType = deliveryTypeOf(target, input.deliveryType);
  const currency = ctx.currency;
  const unitPrice = unitPriceIn(target, currency, table);
  const ticketAmount = unitPrice * input.quantity;
  const judged = await judgeUserCoupons(db, userId, { ticketAmount, currency, categoryId: target.activity.categoryId }, table, now);
  const applied = chosenCoupon(judged, input.coupon);
  const couponDiscount = applied?.verdict.usable ? applied.verdict.discount : 0;
  const cost = costBreakdown({ unitPrice, quantity: input.quantity, currency, deliveryType, couponDiscount, table });
  return { target, deliveryType, unitPrice, judged, applied, cost };
}

/** The confirmation page's data: what is bought, the options, the coupons judged, and the cost. */
export async function quoteCheckout(
  db: Db, ctx: RequestContext, table: CurrencyTable, setup: PaymentSetup, userId: number, input: QuoteInput, now: number,
): Promise<CheckoutQuote> {
  const { target, deliveryType, unitPrice, judged, applied, cost } = await price(db, ctx, table, userId, input, now);
  const { listing, tier, session, activity, venue, city } = target;
  const locale = ctx.locale;
  return {
    listing: { id: listing.id, seating: listing.seating, deliveryTypes: parseDeliveryTypes(listing.deliveryTypes), sellerName: target.sellerName },
    activity: {
      id: activity.id, name: localizedName(activity, locale), poster: activity.poster, venueName: localizedName(venue, locale),
      venueAddress: localizedAddress(venue, locale), cityName: localizedName(city, locale), venueCountry: target.countryCode,
      realNameRequired: activity.realNameRequired,
    },
    session: { id: session.id, startsAt: session.startsAt, label: formatSessionTime(session.startsAt, locale, city.timeZone) },
    tier: { id: tier.id, name: localizedName(tier, locale), faceValue: formattedMoney(tier.faceValue, tier.currency, locale, table) },
    quantity: input.quantity,
    quantityRange: quantityRange({ numMin: activity.numMin, numMax: activity.numMax }, listing.quantityAvailable),
    unitPrice: formattedMoney(unitPrice, ctx.currency, locale, table),
    deliveryType,
    onSitePickupFrom: session.startsAt - ON_SITE_PICKUP_LEAD_MS,
    paymentMethods: offeredPaymentMethods(setup, ctx.currency),
    attendeesRequired: activity.realNameRequired ? input.quantity : 0,
    coupons: judged.map((entry) => couponOption(entry, ctx.currency, locale, table)),
    bestCouponId: bestOffer(judged)?.id ?? null,
    appliedCouponId: applied?.id ?? null,
    cost: costView(cost, locale, table),
  };
}

// ---------------------------------------------------------------------------------------------
// Creating an order

export interface CreateOrderInput {
  listingId: number;
  quantity: number;
  deliveryType: DeliveryType;
  paymentMethod: PaymentMethod;
  coupon: 'none' | number;
  addressId?: number;
  takerName?: string;
  takerPhoneCountryCode?: string;
  takerPhone?: string;
  attendeeIds?: number[];
  acceptNotes: boolean;
  expectedTotal: number;
}

interface Recipient {
  shippingAddress: string | null;
  takerName: string | null;
  takerPhone: string | null;
}

async function recipientOf(db: Db, userId: number, input: CreateOrderInput, locale: Locale): Promise<Recipient> {
  if (input.deliveryType === 'courier') {
    if (input.addressId === undefined) throw new ApiError(400, 'delivery_address_required', {}, 'addressId');
    const address = await getAddress(db, userId, input.addressId, locale);
    const snapshot = {
      name: address.name, phone: `${address.phoneCountryCode} ${address.phone}`, countryCode: address.countryCode,
      text: [address.countryName, address.area, address.street, address.postcode].filter(Boolean).join(' '),
    };
    return { shippingAddress: JSON.stringify(snapshot), takerName: null, takerPhone: null };
  }
  if (TAKER_DELIVERY_TYPES.includes(input.deliveryType)) {
    const name = (input.takerName ?? '').trim();
    if (name === '') throw new ApiError(400, 'name_required', {}, 'takerName');
    if ([...name].length > TAKER_NAME_MAX_LENGTH) throw new ApiError(400, 'name_invalid', {}, 'takerName');
    const problem = phoneProblem(input.takerPhone ?? '');
    if (problem) throw new ApiError(400, problem, {}, 'takerPhone');
    const phone = normalizePhone(input.takerPhoneCountryCode || '+852', input.takerPhone ?? '');
    return { shippingAddress: null, takerName: name, takerPhone: `${phone.callingCode} ${phone.number}` };
  }
  return { shippingAddress: null, takerName: null, takerPhone: null };
}

async function attendeesOf(db: Db, userId: number, target: Target, input: CreateOrderInput) {
  if (!target.activity.realNameRequired) return [];
  const ids = [...new Set(input.attendeeIds ?? [])];
  if (ids.length !== input.quantity || (input.attendeeIds ?? []).length !== input.quantity) {
    throw new ApiError(400, 'attendees_required', { count: input.quantity }, 'attendeeIds');
  }
  const rows = await db.select().from(attendees).where(and(eq(attendees.userId, userId), inArray(attendees.id, ids)));
  if (rows.length !== ids.length) throw new ApiError(404, 'attendee_not_found', {}, 'attendeeIds');
  for (const row of rows) {
    if (row.idCardType !== idCardTypeFor(target.countryCode, row.nationality)) throw new ApiError(400, 'attendee_id_type_mismatch', { name: row.name }, 'attendeeIds');
  }
  return rows;
}

export function newOrderNo(now: number): string {
  const digits = crypto.getRandomValues(new Uint32Array(2));
  const date = new Date(now).toISOString().slice(0, 10).replaceAll('-', '');
  return `${date}${String(digits[0] % 100_000).padStart(5, '0')}${String(digits[1] % 100_000).padStart(5, '0')}`;
}

async function orderByKey(db: Db, userId: number, idempotencyKey: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)));
  return row;
}

/** The row a retried request answers with; a 422 when its key was first used for another request. */
export function sameRequestOrReused<Row extends { requestHash: string | null }>(row: Row, hash: string): Row {
  if (!sameRequest(row.requestHash, hash)) throw new ApiError(422, 'idempotency_key_reused');
  return row;
}

function isUniqueViolation(error: unknown): boolean {
  return String((error as { message?: string })?.message ?? error).includes('UNIQUE constraint failed');
}

/**
 * Creates an order and holds its tickets. A retried request (same Idempotency-Key) answers with the
 * order it created the first time. Everything is checked first; the write itself is one D1 batch
 * (atomic): a guarded decrement of the listing's stock that also requires the chosen coupon to be
 * unused, the order inserted only if that decrement happened, the coupon locked to it, its attendees.
 */
export async function createOrder(
  db: Db, ctx: RequestContext, table: CurrencyTable, setup: PaymentSetup, userId: number, input: CreateOrderInput, idempotencyKey: string, now: number,
): Promise<OrderDetail> {
  const hash = await requestHash(input);
  const earlier = await orderByKey(db, userId, idempotencyKey);
  if (earlier) return orderDetailOf(db, ctx, table, sameRequestOrReused(earlier, hash), now);

  if (!input.acceptNotes) throw new ApiError(400, 'buyer_notes_not_accepted', {}, 'acceptNotes');
  if (!offeredPaymentMethods(setup, ctx.currency).includes(input.paymentMethod)) throw new ApiError(400, 'payment_method_unavailable', {}, 'paymentMethod');
  await expireOverdueOrders(db, now, { listingId: input.listingId });
  const priced = await price(db, ctx, table, userId, input, now);
  const { target, unitPrice, applied, cost } = priced;
  if (typeof input.coupon === 'number' && applied?.id !== input.coupon) throw new ApiError(409, 'coupon_not_usable', {}, 'coupon');
  const recipient = await recipientOf(db, userId, input, ctx.locale);
  const chosenAttendees = await attendeesOf(db, userId, target, input);
  if (input.expectedTotal !== cost.total) throw new ApiError(409, 'price_changed');

  const orderNo = newOrderNo(now);
  const couponId = applied?.id ?? null;
  const quantity = input.quantity;
  // Raw D1 statements: the batch needs `changes()` of the statement before, which only plain SQL can say.
  const d1 = db.$client;
  const holdTickets = d1.prepare(`
    UPDATE listings SET quantity_available = quantity_available - ?1
    WHERE id = ?2 AND status = 'active' AND quantity_available >= ?1
      AND (?3 IS NULL OR EXISTS (SELECT 1 FROM user_coupons WHERE id = ?3 AND user_id = ?4 AND status = 'unused'))`,
  ).bind(quantity, target.listing.id, couponId, userId);
  const insertOrder = d1.prepare(`
    INSERT INTO orders (order_no, user_id, listing_id, activity_id, session_id, tier_id, quantity, status, currency,
      fx_per_hkd_micros, unit_price, ticket_amount, service_fee, postage, coupon_discount, total, user_coupon_id, delivery_type,
      payment_method, shipping_address, taker_name, taker_phone, payment_deadline, idempotency_key, request_hash, seller_id, created_at, updated_at)
    SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, 'pending_payment', ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?26
    WHERE changes() = 1`,
  ).bind(
    orderNo, userId, target.listing.id, target.activity.id, target.session.id, target.tier.id, quantity, cost.currency,
    table.get(cost.currency)!.perHkdMicros, unitPrice, cost.ticketAmount, cost.serviceFee, cost.postage, cost.couponDiscount, cost.total,
    couponId, input.deliveryType, input.paymentMethod, recipient.shippingAddress, recipient.takerName, recipient.takerPhone,
    now + PAYMENT_TIME_LIMIT_MS, idempotencyKey, hash, target.listing.sellerId, now,
  );
  const lockCoupon = d1.prepare(`
    UPDATE user_coupons SET status = 'locked', order_id = (SELECT id FROM orders WHERE order_no = ?1)
    WHERE id = ?2 AND status = 'unused' AND EXISTS (SELECT 1 FROM orders WHERE order_no = ?1)`,
  ).bind(orderNo, couponId);
  const copyAttendees = chosenAttendees.map((attendee) => d1.prepare(`
    INSERT INTO order_attendees (order_id, name, nationality, id_card_type, id_card_no)
    SELECT id, ?2, ?3, ?4, ?5 FROM orders WHERE order_no = ?1`,
  ).bind(orderNo, attendee.name, attendee.nationality, attendee.idCardType, attendee.idCardNo));

  let inserted: number;
  try {
    const results = await d1.batch([holdTickets, insertOrder, lockCoupon, ...copyAttendees]);
    inserted = results[1].meta.changes;
  } catch (error) {
    // A concurrent retry with the same key won the insert; the whole batch (and its hold) rolled back.
    if (!isUniqueViolation(error)) throw error;
    const winner = await orderByKey(db, userId, idempotencyKey);
    if (!winner) throw error;
    return orderDetailOf(db, ctx, table, sameRequestOrReused(winner, hash), now);
  }
  if (inserted !== 1) {
    const [listing] = await db.select({ available: listings.quantityAvailable, status: listings.status }).from(listings).where(eq(listings.id, target.listing.id));
    const available = listing?.status === 'active' ? listing.available : 0;
    if (available >= quantity) throw new ApiError(409, 'coupon_not_usable', {}, 'coupon');
    throw new ApiError(409, 'tickets_sold_out', { available });
  }
  const [created] = await db.select().from(orders).where(eq(orders.orderNo, orderNo));
  return orderDetailOf(db, ctx, table, created, now);
}

// ---------------------------------------------------------------------------------------------
// State changes

function closingChanges(to: OrderStatus, now: number): Partial<OrderRow> {
  if (to === 'pending_ticketing') return { paidAt: now };
  if (to === 'pending_receipt') return { ticketedAt: now };
  return { closedAt: now };
}

/**
 * Applies an event with one guarded update: it changes the order only if its current state allows
 * the event, so concurrent or repeated events apply at most once. True when it applied.
 */
export async function applyOrderEvent(db: Db, orderId: number, event: OrderEvent, now: number, changes: Partial<OrderRow> = {}): Promise<boolean> {
  const { from, to } = transitionOf(event);
  // RETURNING, not meta.changes: D1 counts the rows the release trigger touches as changes too.
  const update = db
    .update(orders)
    .set({ ...closingChanges(to, now), ...changes, status: to, updatedAt: now })
    .where(and(eq(orders.id, orderId), inArray(orders.status, [...from])))
    .returning({ id: orders.id });
  if (event !== 'payment_confirmed' && to !== 'refunded') return (await update).length === 1;
  // One atomic batch: a paid order spends its coupon (still locked to it only if it was payable) and
  // may earn its buyer's inviter a reward; a refund takes back the reward the order earned.
  const raw = (query: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql: text, params } = query.toSQL();
    return db.$client.prepare(text).bind(...params);
  };
  const [applied] = await db.$client.batch([
    raw(update),
    ...(event === 'payment_confirmed'
      ? [
          raw(db.update(userCoupons).set({ status: 'used' }).where(and(eq(userCoupons.orderId, orderId), eq(userCoupons.status, 'locked')))),
          ...rewardInviterStatements(db, orderId, now, rewardMonthStart(now), INVITER_REWARDS_PER_MONTH),
        ]
      : withdrawInviterRewardStatements(db, orderId)),
  ]);
  return applied.results.length === 1;
}

/** Like applyOrderEvent, but an event the order's state does not allow is a 409. */
export async function requireOrderEvent(db: Db, orderId: number, event: OrderEvent, now: number, changes: Partial<OrderRow> = {}): Promise<void> {
  if (!(await applyOrderEvent(db, orderId, event, now, changes))) throw new ApiError(409, 'order_state_conflict');
}

/**
 * Closes unpaid orders past their deadline; the trigger gives their tickets and coupons back. Runs
 * lazily before reads (scoped to a buyer or a listing) and from the scheduled sweep (unscoped).
 */
export async function expireOverdueOrders(db: Db, now: number, scope: { userId?: number; listingId?: number } = {}): Promise<number> {
  const conditions: SQL[] = [eq(orders.status, 'pending_payment'), lte(orders.paymentDeadline, now)];
  if (scope.userId !== undefined) conditions.push(eq(orders.userId, scope.userId));
  if (scope.listingId !== undefined) conditions.push(eq(orders.listingId, scope.listingId));
  const expired = await db
    .update(orders)
    .set({ status: 'cancelled', cancelReason: 'timeout', paymentSubstatus: null, closedAt: now, updatedAt: now })
    .where(and(...conditions))
    .returning({ id: orders.id });
  return expired.length;
}

/**
 * Local builds only (the route checks): lets a demo or an end-to-end test see an unpaid order run
 * out of time without waiting 15 minutes, by moving its deadline to now and expiring it as a read would.
 */
export async function endPaymentTimeNow(db: Db, userId: number, orderId: number, now: number): Promise<void> {
  const order = await findOwnOrder(db, userId, orderId);
  if (order.status !== 'pending_payment') throw new ApiError(409, 'order_state_conflict');
  await db.update(orders).set({ paymentDeadline: now }).where(eq(orders.id, order.id));
  await expireOverdueOrders(db, now, { userId });
}

/** The buyer's own order; anyone else's is answered like a missing one. */
export async function findOwnOrder(db: Db, userId: number, orderId: number): Promise<OrderRow> {
  const [row] = await db.select().from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!row) throw new ApiError(404, 'order_not_found');
  return row;
}

export async function cancelOrder(db: Db, ctx: RequestContext, table: CurrencyTable, userId: number, orderId: number, now: number): Promise<OrderDetail> {
  await expireOverdueOrders(db, now, { userId });
  const order = await findOwnOrder(db, userId, orderId);
  await requireOrderEvent(db, order.id, 'user_cancelled', now, { cancelReason: 'user', paymentSubstatus: null });
  return orderDetail(db, ctx, table, userId, orderId, now);
}

/** Confirming twice answers with the completed order: a retried tap is not an error. */
export async function confirmReceipt(db: Db, ctx: RequestContext, table: CurrencyTable, userId: number, orderId: number, now: number): Promise<OrderDetail> {
  const order = await findOwnOrder(db, userId, orderId);
  if (order.status !== 'completed') await requireOrderEvent(db, order.id, 'receipt_confirmed', now);
  return orderDetail(db, ctx, table, userId, orderId, now);
}

// ---------------------------------------------------------------------------------------------
// Reading orders

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
  unitPrice: FormattedMoney;
  cost: CostView;
  refund: FormattedMoney | null;
  deliveryType: DeliveryType;
  paymentMethod: string | null;
  shippingAddress: { name: string; phone: string; text: string } | null;
  taker: { name: string; phone: string } | null;
  pickup: { address: string; from: number } | null;
  trackingNo: string | null;
  ticketProvider: string;
  attendees: Array<{ name: string; idCardType: string; idCardNoMasked: string }>;
  /** `listed`: offered in one of the holder's active transfer listings. */
  tickets: Array<{ ticketNo: string; seat: string | null; status: 'pending' | 'valid' | 'used' | 'invalid' | 'transferred'; listed: boolean }>;
  voucherUrl: string | null;
  /** Tickets the holder may list for transfer now ("Sell / transfer"); 0 when they may not. */
  transferable: number;
}


function actionsOf(order: OrderRow, session: OrderWithShowRow['session'], now: number): OrderSummary['actions'] {
  const allowed = buyerActions(order.status);
  const payable = now < order.paymentDeadline;
  const requestRefund = postponementRefundOpen(session, now) && nextState(order.status, 'postponement_refund') !== null;
  return { pay: allowed.pay && payable, cancel: allowed.cancel && payable, confirmReceipt: allowed.confirmReceipt, requestRefund };
}

function summaryOf(row: OrderWithShowRow, locale: Locale, table: CurrencyTable, now: number): OrderSummary {
  const { order, activity, venue, city, session, tier } = row;
  return {
    id: order.id,
    orderNo: order.orderNo,
    status: order.status,
    paymentSubstatus: order.status === 'pending_payment' ? order.paymentSubstatus : null,
    createdAt: order.createdAt,
    paymentDeadline: order.paymentDeadline,
    activity: { id: activity.id, name: localizedName(activity, locale), poster: activity.poster, venueName: localizedName(venue, locale), cityName: localizedName(city, locale) },
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
    return { address: `${localizedName(venue, locale)}, ${localizedAddress(venue, locale)}`, from: session.startsAt - ON_SITE_PICKUP_LEAD_MS };
  }
  if (order.deliveryType === 'self_pickup') {
    return { address: translator(locale)('checkout.office_address'), from: order.ticketedAt ?? session.startsAt - ON_SITE_PICKUP_LEAD_MS };
  }
  return null;
}

async function detailOf(db: Db, row: OrderWithShowRow, locale: Locale, table: CurrencyTable, now: number): Promise<OrderDetail> {
  const { order, venue, tier } = row;
  const [attendeeRows, ticketRows] = await Promise.all([
    db.select().from(orderAttendees).where(eq(orderAttendees.orderId, order.id)).orderBy(orderAttendees.id),
    db.select().from(tickets).where(eq(tickets.orderId, order.id)).orderBy(tickets.id),
  ]);
  const listed = new Set(ticketRows.length === 0 ? [] : (await db
    .select({ ticketId: listingTickets.ticketId })
    .from(listingTickets)
    .where(and(inArray(listingTickets.ticketId, ticketRows.map((ticket) => ticket.id)), eq(listingTickets.active, true)))).map((link) => link.ticketId));
  // Only a valid e-ticket can be voided and reissued to a new holder.
  const holdable = ticketRows.filter((ticket) => ticket.status === 'valid' && ticket.codeHash !== null);
  const transferSource = {
    status: order.status, sessionStartsAt: row.session.startsAt,
    validTickets: holdable.length, listedTickets: holdable.filter((ticket) => listed.has(ticket.id)).length,
  };
  const summary = summaryOf(row, locale, table, now);
  const shipping = order.shippingAddress ? (JSON.parse(order.shippingAddress) as { name: string; phone: string; text: string }) : null;
  return {
    ...summary,
    updatedAt: order.updatedAt,
    paidAt: order.paidAt,
    ticketedAt: order.ticketedAt,
    closedAt: order.closedAt,
    cancelReason: order.cancelReason === 'user' || order.cancelReason === 'timeout' || order.cancelReason === 'event' ? order.cancelReason : null,
    showChange: showChangeOf(row, locale, table),
    activity: { ...summary.activity, venueAddress: localizedAddress(venue, locale), venueCountry: row.countryCode },
    tier: { name: localizedName(tier, locale), faceValue: formattedMoney(tier.faceValue, tier.currency, locale, table) },
    unitPrice: formattedMoney(order.unitPrice, order.currency, locale, table),
    cost: costView({
      currency: order.currency, ticketAmount: order.ticketAmount, serviceFee: order.serviceFee, postage: order.postage,
      fuelSurcharge: Math.min(order.postage, postageOf(order.deliveryType as DeliveryType, order.currency, table).fuelSurcharge),
      couponDiscount: order.couponDiscount, total: order.total,
    }, locale, table),
    refund: order.refundAmount > 0 ? formattedMoney(order.refundAmount, order.currency, locale, table) : null,
    deliveryType: order.deliveryType as DeliveryType,
    paymentMethod: order.paymentMethod,
    shippingAddress: shipping ? { name: shipping.name, phone: shipping.phone, text: shipping.text } : null,
    taker: order.takerName && order.takerPhone ? { name: order.takerName, phone: order.takerPhone } : null,
    pickup: pickupOf(row, locale),
    trackingNo: order.trackingNo,
    ticketProvider: row.sellerName ?? '',
    attendees: attendeeRows.map((attendee) => ({ name: attendee.name, idCardType: attendee.idCardType, idCardNoMasked: maskIdNumber(attendee.idCardNo) })),
    tickets: ticketRows.map((ticket) => ({ ticketNo: ticket.ticketNo, seat: ticket.seat, status: ticket.status, listed: listed.has(ticket.id) })),
    voucherUrl: ticketRows.length > 0 ? await voucherUrl(order.orderNo) : null,
    transferable: sourceRefusal(transferSource, now) ? 0 : listableTickets(transferSource),
  };
}

async function orderDetailOf(db: Db, ctx: RequestContext, table: CurrencyTable, order: OrderRow, now: number): Promise<OrderDetail> {
  const [row] = await orderWithShowQuery(db).where(eq(orders.id, order.id));
  return detailOf(db, row, ctx.locale, table, now);
}

/** One of the buyer's orders with everything the detail page shows. */
export async function orderDetail(db: Db, ctx: RequestContext, table: CurrencyTable, userId: number, orderId: number, now: number): Promise<OrderDetail> {
  await expireOverdueOrders(db, now, { userId });
  const [row] = await orderWithShowQuery(db).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!row) throw new ApiError(404, 'order_not_found');
  return detailOf(db, row, ctx.locale, table, now);
}

export interface OrderPage {
  items: OrderSummary[];
  page: number;
  pageSize: number;
  total: number;
  hasMore: boolean;
}

/** A page of the buyer's orders under a tab, newest first; the keyword matches the order number or the show. */
export async function listOrders(
  db: Db, ctx: RequestContext, table: CurrencyTable, userId: number, query: { tab: OrderTab; keyword: string; page: number }, now: number,
): Promise<OrderPage> {
  await expireOverdueOrders(db, now, { userId });
  const conditions: SQL[] = [eq(orders.userId, userId)];
  if (query.tab !== 'all') conditions.push(eq(orders.status, query.tab));
  const keyword = query.keyword.trim();
  if (keyword !== '') {
    // instr, not LIKE: D1 refuses LIKE patterns over 50 bytes (17 Chinese characters), and a
    // keyword's % or _ must not act as wildcards anyway.
    const needle = keyword.toLowerCase();
    const matches = [orders.orderNo, activities.nameEn, activities.nameZhHant, activities.nameZhHans].map((column) => sql`instr(lower(${column}), ${needle}) > 0`);
    conditions.push(or(...matches)!);
  }
  const where = and(...conditions);
  const offset = (query.page - 1) * ORDER_PAGE_SIZE;
  const [rows, [{ total }]] = await Promise.all([
    orderWithShowQuery(db).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).limit(ORDER_PAGE_SIZE).offset(offset),
    db.select({ total: sql<number>`count(*)` }).from(orders).innerJoin(activities, eq(activities.id, orders.activityId)).where(where),
  ]);
  return {
    items: rows.map((row) => summaryOf(row, ctx.locale, table, now)),
    page: query.page,
    pageSize: ORDER_PAGE_SIZE,
    total,
    hasMore: offset + rows.length < total,
  };
}
