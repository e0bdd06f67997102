/**
 * Checkout's quote: what is being bought, checked against the listing and the account's limits, and
 * priced with the buyer's coupons, for the confirmation page and for the order made from it
 * (create-order.ts). Stock lives in `listings.quantity_available`: an order takes its tickets with
 * one guarded write in the same D1 batch that inserts it (placing.ts, data/order-placement.ts).
 */
import { and, eq, type Placeholder } from 'drizzle-orm';
import { ACCOUNT_TICKET_CAP, UNPAID_HOLD_LIMITS } from '../../config/orders.ts';
import type { DeliveryType } from '../../domain/delivery.ts';
import { prefixed, prefixedTable } from '../../data/batch-columns.ts';
import type { Db } from '../../data/client.ts';
import { compiledSelect } from '../../data/compiled-select.ts';
import { rawRead, read, type Read } from '../../data/read-together.ts';
import { activitySessions, coupons, listings, ticketTiers, userCoupons, users, waitlistOffers } from '../../db/schema.ts';
import { ACTIVITY_STATUS } from '../../domain/activity.ts';
import { bestOffer, judgeCoupon } from '../../domain/coupons.ts';
import { DomainError } from '../../domain/errors.ts';
import {
  type AccountStanding,
  accountTicketCap,
  listingUnpaidLimit,
  type OrderLimits,
  orderLimitRefusal,
} from '../../domain/order-limits.ts';
import { onSaleOf } from '../../domain/on-sale.ts';
import { convert, type CurrencyTable } from '../../domain/money.ts';
import type { PaymentSetup } from '../../domain/payment-provider-choice.ts';
import { costBreakdown } from '../../domain/pricing.ts';
import { parseDeliveryTypes } from '../../domain/ticket-offer.ts';
import { offerClaimable } from '../../domain/waitlist.ts';
import { showQuery } from '../catalogue/show-query.ts';
import { type StandingQuery, standingOf, standingStatement } from '../../data/order-placement.ts';
import { checkoutQuoteView, type CheckoutQuote } from './presenters.ts';
import type { JudgedCoupon, Priced, Target } from './priced.ts';
import { hasPaidOrderStatement } from './queries.ts';
import type { ClaimedUserScope, UserScope } from '../platform/scope.ts';
import { readSignedIn } from '../accounts/signed-in.ts';

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
export function orderLimitsOf(target: Target): OrderLimits {
  const { accountTickets, listingShare, listingLeast } = UNPAID_HOLD_LIMITS;
  return {
    accountTicketCap: accountTicketCap(target.accountTicketCap, ACCOUNT_TICKET_CAP),
    unpaidTicketLimit: accountTickets,
    listingUnpaidLimit: listingUnpaidLimit(target.listing.quantityTotal, listingShare, listingLeast),
  };
}

/** What the account holds (domain/order-limits.ts), read with the order's other rows. */
export function standingRead(db: Db, query: StandingQuery): Read<AccountStanding> {
  return rawRead({ standing: standingStatement(db.$client, [query]) }, ({ standing }) => standingOf(standing.results[0]));
}

/** Refuses an order the account's limits do not allow, naming the limit. */
export function checkOrderLimits(standing: AccountStanding, quantity: number, limits: OrderLimits): void {
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

export function checkoutRead(scope: UserScope, listingId: number, offerId: number | undefined): Read<CheckoutRows> {
  const { db, userId } = scope;
  return read(
    {
      target: targetStatement(db, { listingId }),
      coupons: db
        .select({ id: prefixed('user_coupon', userCoupons, ['id']).id, coupon: coupons })
        .from(userCoupons)
        .innerJoin(coupons, eq(coupons.id, userCoupons.couponId))
        .where(and(eq(userCoupons.userId, userId), eq(userCoupons.status, 'unused')))
        .orderBy(coupons.validTo, userCoupons.id),
      paid: hasPaidOrderStatement(db, userId),
      offer: db
        .select()
        .from(waitlistOffers)
        .where(eq(waitlistOffers.id, offerId ?? 0)),
    },
    ({ target: [row], coupons: couponRows, paid, offer: [offer] }) => ({
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

export function price(scope: UserScope, input: QuoteInput, rows: CheckoutRows): Priced {
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
