/**
 * Checkout: the quote the confirmation page shows, and creating an order with its hold on the
 * tickets. Stock lives in `listings.quantity_available`: an order takes its tickets with one
 * guarded write in the same D1 batch that inserts it (data/order-placement.ts), and gives them back through the
 * `orders_release_hold` trigger when an unpaid order closes (lifecycle.ts, data/order-expiry.ts). A high-demand
 * session's orders are held by its inventory object instead, which writes them to D1 in batches
 * (durable-objects/session-inventory.ts).
 */
import { and, eq, inArray, type Placeholder } from 'drizzle-orm';
import { ACCOUNT_TICKET_CAP, PAYMENT_TIME_LIMIT_MS, UNPAID_HOLD_LIMITS } from '../../config/orders.ts';
import { TAKER_DELIVERY_TYPES, type DeliveryType } from '../../domain/delivery.ts';
import type { PaymentMethod } from '../../domain/payment-methods.ts';
import { prefixed, prefixedTable, rowOf } from '../../data/batch-columns.ts';
import type { Db } from '../../data/client.ts';
import { compiledSelect } from '../../data/compiled-select.ts';
import { known, rawReadOne, read, type Read } from '../../data/read-together.ts';
import {
  activitySessions,
  attendees,
  coupons,
  listings,
  orderAttendees,
  orders,
  ticketTiers,
  userCoupons,
  users,
  waitlistOffers,
} from '../../db/schema.ts';
import { ACTIVITY_STATUS } from '../../domain/activity.ts';
import { bestOffer, judgeCoupon } from '../../domain/coupons.ts';
import type { MinuteCounts } from '../../domain/order-rate.ts';
import { DomainError } from '../../domain/errors.ts';
import {
  type AccountStanding,
  accountTicketCap,
  listingUnpaidLimit,
  type OrderLimits,
  orderLimitRefusal,
} from '../../domain/order-limits.ts';
import { type OnSale, onSaleNeedingPass, onSaleOf } from '../../domain/on-sale.ts';
import { idCardTypeFor } from '../../domain/identity.ts';
import { requestHash, sameRequestOrReused } from '../../domain/idempotency.ts';
import { convert, type CurrencyTable } from '../../domain/money.ts';
import { offeredPaymentMethods, type PaymentSetup } from '../../domain/payment-provider-choice.ts';
import { costBreakdown } from '../../domain/pricing.ts';
import { parseDeliveryTypes } from '../../domain/ticket-offer.ts';
import { normalizePhone, phoneProblem, takerNameProblem } from '../../domain/validation.ts';
import { offerClaimable } from '../../domain/waitlist.ts';
import { passId } from '../../domain/waiting-room.ts';
import { addressRead, type AddressView } from '../accounts/addresses.ts';
import { afterOrderCounted } from '../on-sale/high-demand.ts';
import { showQuery } from '../catalogue/show-query.ts';
import { checkWaitingRoomPass } from '../on-sale/waiting-room.ts';
import { expireOverdueOrdersStatement } from '../../data/order-expiry.ts';
import {
  checkoutHoldStatement,
  offerClaimStatement,
  type OrderPlacement,
  orderRateStatement,
  placementStatements,
  type StandingQuery,
  standingOf,
  standingStatement,
} from '../../data/order-placement.ts';
import { checkoutQuoteView, type CheckoutQuote, type OrderDetail } from './presenters.ts';
import type { JudgedCoupon, Priced, Target } from './priced.ts';
import { hasPaidOrderStatement, orderDetailByNo, orderDetailFrom } from './queries.ts';
import type { AfterWriteWork } from '../../data/after-write.ts';
import type { ClaimedUserScope, UserScope } from '../platform/scope.ts';
import { readSignedIn } from '../accounts/signed-in.ts';
import { rawBatch } from '../../data/batch.ts';

// ---------------------------------------------------------------------------------------------
// What is being bought

// Read by every confirmation page, quote and order: its SQL is built once (compiled-select.ts).
const targetStatement = compiledSelect<{ listingId: number }, ReturnType<typeof targetSelect>>(['listingId'], (db, { listingId }) =>
  targetSelect(db, listingId),
);

function targetSelect(db: Db, listingId: number | Placeholder<'listingId', number>) {
  return showQuery(db, {
    listing: prefixedTable('listing', listings),
    sellerName: users.nickname,
    ...prefixed('session', activitySessions, ['highDemand', 'accountTicketCap']),
    tierHighDemand: prefixed('tier', ticketTiers, ['highDemand']).highDemand,
  })
    .innerJoin(listings, eq(listings.tierId, ticketTiers.id))
    .innerJoin(users, eq(users.id, listings.sellerId))
    .where(eq(listings.id, listingId));
}

type TargetRow = Awaited<ReturnType<typeof targetSelect>>[number];

/** A listing sells while it is active, its activity is on sale and its session has not begun. */
function checkSellable(target: Target, now: number): void {
  const { listing, activity, session } = target;
  const selling = activity.status === ACTIVITY_STATUS.onSale || activity.status === ACTIVITY_STATUS.booking;
  const closed = listing.status === 'withdrawn' || listing.status === 'closed' || session.status === 'cancelled';
  if (closed || !selling || activity.saleStartsAt > now || session.startsAt <= now) {
    throw new DomainError('listing_unavailable');
  }
}

/** Quantities outside the activity's per-order limits are bad input; more than is left is a conflict. */
function checkQuantity(target: Target, quantity: number, held: number): void {
  const min = Math.max(1, target.activity.numMin);
  const max = target.activity.numMax;
  if (!Number.isInteger(quantity) || quantity < min || quantity > max)
    throw new DomainError('quantity_out_of_range', { min, max }, 'quantity');
  const available = target.listing.status === 'active' ? target.listing.quantityAvailable + held : 0;
  if (quantity > available) throw new DomainError('tickets_sold_out', { available });
}

function deliveryTypeOf(target: Target, requested: DeliveryType | undefined): DeliveryType {
  const offered = parseDeliveryTypes(target.listing.deliveryTypes);
  if (requested === undefined) return offered[0];
  if (!offered.includes(requested)) throw new DomainError('delivery_type_unavailable', {}, 'deliveryType');
  return requested;
}

function unitPriceIn(target: Target, currency: string, table: CurrencyTable): number {
  return convert({ amount: target.listing.price, currency: target.listing.currency }, currency, table).amount;
}

/** What the buyer may order of this listing: the session's cap (or the default) and the unpaid limits of config/orders.ts. */
function orderLimitsOf(target: Target): OrderLimits {
  const { accountTickets, listingShare, listingLeast } = UNPAID_HOLD_LIMITS;
  return {
    accountTicketCap: accountTicketCap(target.accountTicketCap, ACCOUNT_TICKET_CAP),
    unpaidTicketLimit: accountTickets,
    listingUnpaidLimit: listingUnpaidLimit(target.listing.quantityTotal, listingShare, listingLeast),
  };
}

/** What the account holds (domain/order-limits.ts), read with the order's other rows. */
function standingRead(db: Db, query: StandingQuery): Read<AccountStanding> {
  return rawReadOne(standingStatement(db.$client, [query]), (answer) => standingOf(answer.results[0]));
}

/** Refuses an order the account's limits do not allow, naming the limit. */
function checkOrderLimits(standing: AccountStanding, quantity: number, limits: OrderLimits): void {
  const refusal = orderLimitRefusal(standing, quantity, limits);
  if (refusal) throw new DomainError(refusal.code, refusal.params);
}

// ---------------------------------------------------------------------------------------------
// Coupons of the buyer, judged against one order

type CouponRow = { id: number; coupon: typeof coupons.$inferSelect };

function judgeUserCoupons(
  rows: readonly CouponRow[],
  order: { ticketAmount: number; currency: string; categoryId: number; hasPaidOrder: boolean },
  table: CurrencyTable,
  now: number,
): JudgedCoupon[] {
  return rows.map(({ id, coupon }) => ({
    id,
    coupon,
    validTo: coupon.validTo,
    verdict: judgeCoupon(coupon, { ...order, now }, table),
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

export interface QuoteInput {
  listingId: number;
  quantity: number;
  deliveryType?: DeliveryType;
  coupon: CouponChoice;
  /** Buys the tickets this waitlist offer holds for the buyer. */
  waitlistOfferId?: number;
}

/** What pricing a purchase reads: the listing with its show, the buyer's unused coupons, whether they ever paid. */
interface CheckoutRows {
  target: Target | null;
  couponRows: CouponRow[];
  paidBefore: boolean;
  offer: typeof waitlistOffers.$inferSelect | null;
}

/** The listing's row as checkout uses it: the session's and the tier's flags come down to the on-sale it goes through. */
function targetOf({ highDemand, tierHighDemand, accountTicketCap: cap, ...row }: TargetRow): Target {
  const onSale = onSaleOf({ id: row.session.id, highDemand }, { id: row.tier.id, highDemand: tierHighDemand });
  return { ...row, sellerName: row.sellerName ?? '', onSale, accountTicketCap: cap };
}

function checkoutRead(scope: UserScope, listingId: number, offerId: number | undefined): Read<CheckoutRows> {
  const { db, userId } = scope;
  return read(
    [
      targetStatement(db, { listingId }),
      db
        .select({ id: prefixed('user_coupon', userCoupons, ['id']).id, coupon: coupons })
        .from(userCoupons)
        .innerJoin(coupons, eq(coupons.id, userCoupons.couponId))
        .where(and(eq(userCoupons.userId, userId), eq(userCoupons.status, 'unused')))
        .orderBy(coupons.validTo, userCoupons.id),
      hasPaidOrderStatement(db, userId),
      db
        .select()
        .from(waitlistOffers)
        .where(eq(waitlistOffers.id, offerId ?? 0)),
    ],
    ([[row], couponRows, paid, [offer]]) => ({
      target: row ? targetOf(row) : null,
      couponRows,
      paidBefore: paid.length > 0,
      offer: offer ?? null,
    }),
  );
}

/**
 * The tickets a waitlist offer holds for this purchase: they count as available to its buyer. Only
 * their own open offer, for this very listing and group, within its hold; anything else is refused.
 */
function heldByOffer(scope: UserScope, input: QuoteInput, offer: CheckoutRows['offer']): number {
  if (input.waitlistOfferId === undefined) return 0;
  const usable =
    offer !== null &&
    offer.userId === scope.userId &&
    offer.listingId === input.listingId &&
    offer.quantity === input.quantity &&
    offerClaimable(offer, scope.now);
  if (!usable) throw new DomainError('waitlist_offer_unavailable');
  return offer.quantity;
}

function price(scope: UserScope, input: QuoteInput, rows: CheckoutRows): Priced {
  const { ctx, currencies: table, userId, now } = scope;
  const { target } = rows;
  if (!target) throw new DomainError('listing_not_found');
  // A seller buying their own listing (a resold ticket back to its holder) would only move money in a circle.
  if (target.listing.sellerId === userId) throw new DomainError('own_listing');
  checkSellable(target, now);
  checkQuantity(target, input.quantity, heldByOffer(scope, input, rows.offer));
  const deliveryType = deliveryTypeOf(target, input.deliveryType);
  const currency = ctx.currency;
  const unitPrice = unitPriceIn(target, currency, table);
  const ticketAmount = unitPrice * input.quantity;
  const order = { ticketAmount, currency, categoryId: target.activity.categoryId, hasPaidOrder: rows.paidBefore };
  const judged = judgeUserCoupons(rows.couponRows, order, table, now);
  const applied = chosenCoupon(judged, input.coupon);
  const couponDiscount = applied?.verdict.usable ? applied.verdict.discount : 0;
  const cost = costBreakdown({ unitPrice, quantity: input.quantity, currency, deliveryType, couponDiscount, table });
  return { target, deliveryType, unitPrice, judged, applied, cost };
}

/**
 * The confirmation page's data: what is bought, the options, the coupons judged, and the cost; the
 * session is read with it, and the signed-in scope it confirmed comes back with the quote.
 */
export async function signedInQuote(
  claimed: ClaimedUserScope,
  setup: PaymentSetup,
  input: QuoteInput,
): Promise<{ scope: UserScope; quote: CheckoutQuote }> {
  const { scope, rows } = await readSignedIn(claimed, (scope) => ({
    checkout: checkoutRead(scope, input.listingId, input.waitlistOfferId),
  }));
  return { scope, quote: checkoutQuoteView(price(scope, input, rows.checkout), input.quantity, scope.ctx, scope.currencies, setup) };
}

export async function quoteCheckout(claimed: ClaimedUserScope, setup: PaymentSetup, input: QuoteInput): Promise<CheckoutQuote> {
  return (await signedInQuote(claimed, setup, input)).quote;
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
  waitlistOfferId?: number;
  /** A high-demand session's checkout takes only buyers its waiting room let through (services/on-sale/waiting-room.ts). */
  waitingRoomPass?: string;
}

interface Recipient {
  shippingAddress: string | null;
  takerName: string | null;
  takerPhone: string | null;
}

function recipientOf(input: CreateOrderInput, address: AddressView | null): Recipient {
  if (input.deliveryType === 'courier') {
    if (input.addressId === undefined) throw new DomainError('delivery_address_required', {}, 'addressId');
    if (!address) throw new DomainError('address_not_found');
    const snapshot = {
      name: address.name,
      phone: `${address.phoneCountryCode} ${address.phone}`,
      countryCode: address.countryCode,
      text: [address.countryName, address.area, address.street, address.postcode].filter(Boolean).join(' '),
    };
    return { shippingAddress: JSON.stringify(snapshot), takerName: null, takerPhone: null };
  }
  if (TAKER_DELIVERY_TYPES.includes(input.deliveryType)) {
    const name = (input.takerName ?? '').trim();
    const nameProblem = takerNameProblem(name);
    if (nameProblem) throw new DomainError(nameProblem, {}, 'takerName');
    const problem = phoneProblem(input.takerPhone ?? '');
    if (problem) throw new DomainError(problem, {}, 'takerPhone');
    const phone = normalizePhone(input.takerPhoneCountryCode || '+852', input.takerPhone ?? '');
    return { shippingAddress: null, takerName: name, takerPhone: `${phone.callingCode} ${phone.number}` };
  }
  return { shippingAddress: null, takerName: null, takerPhone: null };
}

type AttendeeRow = typeof attendees.$inferSelect;

function attendeesOf(target: Target, input: CreateOrderInput, rows: readonly AttendeeRow[]): readonly AttendeeRow[] {
  if (!target.activity.realNameRequired) return [];
  const ids = [...new Set(input.attendeeIds ?? [])];
  if (ids.length !== input.quantity || (input.attendeeIds ?? []).length !== input.quantity) {
    throw new DomainError('attendees_required', { count: input.quantity }, 'attendeeIds');
  }
  if (rows.length !== ids.length) throw new DomainError('attendee_not_found', {}, 'attendeeIds');
  for (const row of rows) {
    if (row.idCardType !== idCardTypeFor(target.countryCode, row.nationality))
      throw new DomainError('attendee_id_type_mismatch', { name: row.name }, 'attendeeIds');
  }
  return rows;
}

export function newOrderNo(now: number): string {
  const digits = crypto.getRandomValues(new Uint32Array(2));
  const date = new Date(now).toISOString().slice(0, 10).replaceAll('-', '');
  return `${date}${String(digits[0] % 100_000).padStart(5, '0')}${String(digits[1] % 100_000).padStart(5, '0')}`;
}

function orderByKeyStatement(db: Db, userId: number, idempotencyKey: string) {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)));
}

function isUniqueViolation(error: unknown): boolean {
  return String((error as { message?: string })?.message ?? error).includes('UNIQUE constraint failed');
}

/**
 * Creates an order and holds its tickets. A retried request (same Idempotency-Key) answers with the
 * order it created the first time. Everything is checked first; the write itself is one D1 batch
 * (atomic): a guarded decrement of the listing's stock that also requires the chosen coupon to be
 * unused, the order inserted only if that decrement happened, the coupon locked to it, its attendees.
 * With a waitlist offer the offer already holds the tickets: the batch claims it instead of the decrement.
 * A high-demand session's order goes to its inventory object, whose batch writes the same statements.
 * A high-demand session's order needs the buyer's own pass from its waiting room, unless it claims their waitlist offer.
 * Every order is held to the account's limits (domain/order-limits.ts): judged on the read, and again
 * by the write's own guard, so orders racing each other cannot pass them together; the pass is spent by its order.
 * Two round trips in all: the session with everything read, then the write carrying the request's
 * after-write work (`afterWrite`). A high-demand order's request makes only the first: its object's
 * batch writes the order and carries that work.
 */
export async function createOrder(
  claimed: ClaimedUserScope,
  setup: PaymentSetup,
  input: CreateOrderInput,
  idempotencyKey: string,
  afterWrite: AfterWriteWork | null,
): Promise<OrderDetail> {
  const hash = await requestHash(input);
  const attendeeIds = [...new Set(input.attendeeIds ?? [])];
  const { db, now } = claimed;
  const pass = input.waitingRoomPass === undefined ? null : passId(input.waitingRoomPass);
  // The session and everything the order is checked against, in one round trip; the listing's and
  // the buyer's overdue holds close first in the same batch, so their tickets count as available
  // and no longer as the buyer's.
  const { scope, rows } = await readSignedIn(claimed, (scope) => ({
    expired: read([expireOverdueOrdersStatement(db, now, { listingId: input.listingId })], () => null),
    expiredMine: read([expireOverdueOrdersStatement(db, now, { userId: scope.userId })], () => null),
    earlier: read([orderByKeyStatement(db, scope.userId, idempotencyKey)], ([[row]]) => row ?? null),
    checkout: checkoutRead(scope, input.listingId, input.waitlistOfferId),
    standing: standingRead(db, { key: idempotencyKey, userId: scope.userId, listingId: input.listingId, waitingRoomPass: pass }),
    address: input.deliveryType === 'courier' && input.addressId !== undefined ? addressRead(scope, input.addressId) : known(null),
    attendees:
      attendeeIds.length > 0
        ? read(
            [
              db
                .select()
                .from(attendees)
                .where(and(eq(attendees.userId, scope.userId), inArray(attendees.id, attendeeIds))),
            ],
            ([found]) => found,
          )
        : known([]),
  }));
  const { ctx, currencies: table, userId } = scope;
  if (rows.earlier) return orderDetailByNo(scope, sameRequestOrReused(rows.earlier, hash).orderNo);

  if (!input.acceptNotes) throw new DomainError('buyer_notes_not_accepted', {}, 'acceptNotes');
  if (!offeredPaymentMethods(setup, ctx.currency).includes(input.paymentMethod))
    throw new DomainError('payment_method_unavailable', {}, 'paymentMethod');
  const priced = price(scope, input, rows.checkout);
  const { target, unitPrice, applied, cost } = priced;
  const passFrom = onSaleNeedingPass(target.onSale, input.waitlistOfferId !== undefined);
  if (passFrom) await checkWaitingRoomPass(scope, passFrom, input.waitingRoomPass);
  const limits = orderLimitsOf(target);
  // A pass not needed (a waitlist offer's claim) is not spent.
  const spentPass = passFrom ? pass : null;
  checkOrderLimits({ ...rows.standing, passUsed: spentPass !== null && rows.standing.passUsed }, input.quantity, limits);
  if (typeof input.coupon === 'number' && applied?.id !== input.coupon) throw new DomainError('coupon_not_usable', {}, 'coupon');
  const recipient = recipientOf(input, rows.address);
  const chosenAttendees = attendeesOf(target, input, rows.attendees);
  if (input.expectedTotal !== cost.total) throw new DomainError('price_changed');

  const placement: OrderPlacement = {
    orderNo: newOrderNo(now),
    userId,
    listingId: target.listing.id,
    activityId: target.activity.id,
    sessionId: target.session.id,
    tierId: target.tier.id,
    quantity: input.quantity,
    currency: cost.currency,
    fxPerHkdMicros: table.get(cost.currency)!.perHkdMicros,
    unitPrice,
    ticketAmount: cost.ticketAmount,
    serviceFee: cost.serviceFee,
    postage: cost.postage,
    couponDiscount: cost.couponDiscount,
    total: cost.total,
    userCouponId: applied?.id ?? null,
    deliveryType: input.deliveryType,
    paymentMethod: input.paymentMethod,
    ...recipient,
    paymentDeadline: now + PAYMENT_TIME_LIMIT_MS,
    idempotencyKey,
    requestHash: hash,
    sellerId: target.listing.sellerId,
    createdAt: now,
    attendees: chosenAttendees.map(({ name, nationality, idCardType, idCardNo }) => ({ name, nationality, idCardType, idCardNo })),
    waitingRoomPass: spentPass,
    limits,
  };
  // A waitlist offer already holds its tickets: claiming it takes nothing from the stock either path keeps.
  if (target.onSale && input.waitlistOfferId === undefined)
    return placeThroughInventory(scope, target, target.onSale, placement, rows.standing, hash, afterWrite);
  return placeInD1(scope, target, placement, input.waitlistOfferId ?? null, hash, afterWrite);
}

/** The created order's detail, made from the rows its write returned and the show it read: no third read. */
function placedOrderDetail(scope: UserScope, target: Target, created: Record<string, unknown>, attendeeRows: Record<string, unknown>[]) {
  const { listing: _listing, onSale: _onSale, accountTicketCap: _cap, ...show } = target;
  return orderDetailFrom(scope, {
    row: { ...show, order: rowOf(orders, created), sellerName: target.sellerName },
    attendeeRows: attendeeRows.map((attendee) => rowOf(orderAttendees, attendee)),
    ticketRows: [],
    listed: new Set(),
  });
}

/**
 * Checkout's own D1 batch: the hold (or the offer's claim) and the order, for one buyer, then the
 * request's after-write work, which commits with them. That work never fails an order: a batch
 * that fails for any other reason than a concurrent retry is sent again without it (the API then
 * settles on its own).
 */
async function placeInD1(
  scope: UserScope,
  target: Target,
  placement: OrderPlacement,
  offerId: number | null,
  hash: string,
  afterWrite: AfterWriteWork | null,
): Promise<OrderDetail> {
  const { db, userId, now } = scope;
  const d1 = db.$client;
  const linkOffer = d1
    .prepare(`UPDATE waitlist_offers SET order_id = (SELECT id FROM orders WHERE order_no = ?1) WHERE id = ?2 AND status = 'claimed'`)
    .bind(placement.orderNo, offerId);
  const written = placementStatements(d1, placement);

  const ride = afterWrite?.ride(now);
  const take = offerId === null ? checkoutHoldStatement(d1, placement) : offerClaimStatement(d1, placement, offerId, now);
  const link = offerId === null ? [] : [linkOffer];
  // A buyer's arrival at a plain session's checkout counts toward its high demand; a claimed offer is no arrival.
  const counted = offerId === null ? [orderRateStatement(d1, placement)] : [];
  const write = () => rawBatch(d1, { take, ...written, link, counted, afterWrite: ride?.statements ?? [] });
  let results: Awaited<ReturnType<typeof write>>;
  try {
    results = await write();
  } catch (error) {
    // A concurrent retry with the same key won the insert; the whole batch (and its hold) rolled back.
    if (isUniqueViolation(error)) {
      const [winner] = await orderByKeyStatement(db, userId, placement.idempotencyKey);
      if (winner) return orderDetailByNo(scope, sameRequestOrReused(winner, hash).orderNo);
    }
    if (ride) return placeInD1(scope, target, placement, offerId, hash, null);
    throw error;
  }
  if (ride) ride.carried(results.afterWrite);
  // Counted whether or not the hold won: a lost race took D1's writer as long as a placed order.
  const [minuteCounts] = results.counted;
  if (minuteCounts) await afterOrderCounted(scope, placement.sessionId, minuteCounts.results[0] as unknown as MinuteCounts, now);
  const [created] = results.order.results;
  if (!created) {
    const why = await whyNotHeld(scope, placement, offerId);
    // A concurrent retry with the same key placed the order first (its hold then refused this one): that order is the answer.
    if (!(why instanceof DomainError)) return orderDetailByNo(scope, sameRequestOrReused(why, hash).orderNo);
    throw why;
  }
  const attendeeRows = results.attendees.flatMap((result) => result.results);
  return placedOrderDetail(scope, target, created, attendeeRows);
}

/**
 * A high-demand on-sale's hold (a session's, or a tier's own) goes through its inventory object, which
 * writes the order to D1 in its next batch. An object being switched off refuses new holds: the order
 * then takes D1's own path, whose hold D1 refuses (409 conflict, try again) until the flag is off.
 */
async function placeThroughInventory(
  scope: UserScope,
  target: Target,
  onSale: OnSale,
  placement: OrderPlacement,
  standing: AccountStanding,
  hash: string,
  afterWrite: AfterWriteWork | null,
): Promise<OrderDetail> {
  const answer = await scope.onSales.inventory(onSale).hold(placement, onSale, afterWrite?.origin ?? null, standing);
  if (answer.outcome === 'closed') return placeInD1(scope, target, placement, null, hash, afterWrite);
  // The object's batch carried the after-write pass for its buyers; a sold-out answer wrote nothing of this request's.
  if (answer.outcome === 'placed') afterWrite?.doneBy(answer.bookmark);
  if (answer.outcome === 'sold_out') {
    afterWrite?.doneBy(null);
    throw new DomainError('tickets_sold_out', { available: answer.available });
  }
  if (answer.outcome === 'coupon_used') throw new DomainError('coupon_not_usable', {}, 'coupon');
  if (answer.outcome === 'key_reused') throw new DomainError('idempotency_key_reused');
  if (answer.outcome === 'refused') throw new DomainError(answer.refusal.code, answer.refusal.params);
  // D1 refused this order alone (the object set it aside for an operator); its tickets went back.
  if (answer.outcome === 'failed') throw new DomainError('internal');
  sameRequestOrReused(rowOf(orders, answer.order), hash);
  return placedOrderDetail(scope, target, answer.order, answer.attendees);
}

/**
 * Why the batch's hold did not happen, in one round trip: a concurrent retry with the same key placed
 * the order (answered with its row), the offer is no longer claimable, the session (or the tier) became high
 * demand meanwhile (its inventory object holds from now on: try again), the tickets went (to another
 * buyer, or are kept for a waiting group they fit), an order placed meanwhile left the account at a
 * limit (domain/order-limits.ts), or else the coupon was used meanwhile.
 */
async function whyNotHeld(
  scope: UserScope,
  placement: OrderPlacement,
  offerId: number | null,
): Promise<DomainError | { orderNo: string; requestHash: string | null }> {
  const { db, now } = scope;
  const { listingId, quantity, userId, waitingRoomPass } = placement;
  const d1 = db.$client;
  const { earlier, offers, listings, standings } = await rawBatch(d1, {
    earlier: d1
      .prepare('SELECT order_no AS orderNo, request_hash AS requestHash FROM orders WHERE user_id = ?1 AND idempotency_key = ?2')
      .bind(userId, placement.idempotencyKey),
    offers: d1.prepare('SELECT * FROM waitlist_offers WHERE id = ?1').bind(offerId),
    listings: d1
      .prepare(`
    SELECT status, quantity_available AS available, EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.tier_id = listings.tier_id
      AND w.status = 'waiting' AND w.quantity <= listings.quantity_available AND w.user_id <> listings.seller_id) AS kept,
      (SELECT max(s.high_demand, t.high_demand) FROM ticket_tiers t JOIN activity_sessions s ON s.id = t.session_id WHERE t.id = listings.tier_id) AS highDemand
    FROM listings WHERE id = ?1`)
      .bind(listingId),
    standings: standingStatement(d1, [{ key: '', userId, listingId, waitingRoomPass }]),
  });
  const [winner] = earlier.results as { orderNo: string; requestHash: string | null }[];
  if (winner) return winner;
  const refusal = orderLimitRefusal(standingOf(standings.results[0]), quantity, placement.limits);
  if (offerId !== null) {
    const offer = offers.results[0] && rowOf(waitlistOffers, offers.results[0]);
    if (!offer || !offerClaimable(offer, now)) return new DomainError('waitlist_offer_unavailable');
    return refusal ? new DomainError(refusal.code, refusal.params) : new DomainError('coupon_not_usable', {}, 'coupon');
  }
  const listing = listings.results[0] as { status: string; available: number; kept: number; highDemand: number } | undefined;
  if (listing?.highDemand) return new DomainError('conflict');
  const available = listing?.status === 'active' && !listing.kept ? listing.available : 0;
  if (available < quantity) return new DomainError('tickets_sold_out', { available });
  if (refusal) return new DomainError(refusal.code, refusal.params);
  return new DomainError('coupon_not_usable', {}, 'coupon');
}
