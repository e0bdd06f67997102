/**
 * Creating an order: the request checked against what checkout read (checkout.ts), the placement
 * built, and its write handed to D1's own batch or to its on-sale's inventory (placing.ts). Tickets
 * go back through the `orders_release_hold` trigger when an unpaid order closes (lifecycle.ts,
 * data/order-expiry.ts).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { PAYMENT_TIME_LIMIT_MS } from '../../config/orders.ts';
import { TAKER_DELIVERY_TYPES, type DeliveryType } from '../../domain/delivery.ts';
import type { PaymentMethod } from '../../domain/payment-methods.ts';
import { known, read } from '../../data/read-together.ts';
import { attendees } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { onSaleNeedingPass } from '../../domain/on-sale.ts';
import { idCardTypeFor } from '../../domain/identity.ts';
import { requestHash, sameRequestOrReused } from '../../domain/idempotency.ts';
import { offeredPaymentMethods, type PaymentSetup } from '../../domain/payment-provider-choice.ts';
import { normalizePhone, phoneProblem, takerNameProblem } from '../../domain/validation.ts';
import { passId } from '../../domain/waiting-room.ts';
import { addressRead, type AddressView } from '../accounts/addresses.ts';
import { checkWaitingRoomPass } from '../on-sale/waiting-room.ts';
import { expireOverdueOrdersStatement } from '../../data/order-expiry.ts';
import type { OrderPlacement } from '../../data/order-placement.ts';
import type { OrderDetail } from './presenters.ts';
import type { Target } from './priced.ts';
import { orderDetailByNo } from './queries.ts';
import type { AfterWriteWork } from '../../data/after-write.ts';
import type { ClaimedUserScope } from '../platform/scope.ts';
import { readSignedIn } from '../accounts/signed-in.ts';
import { checkOrderLimits, checkoutRead, orderLimitsOf, price, standingRead } from './checkout.ts';
import { newOrderNo, orderByKeyStatement, placeInD1, placeThroughInventory } from './placing.ts';

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
    expired: read({ expired: expireOverdueOrdersStatement(db, now, { listingId: input.listingId }) }, () => null),
    expiredMine: read({ expired: expireOverdueOrdersStatement(db, now, { userId: scope.userId }) }, () => null),
    earlier: read({ order: orderByKeyStatement(db, scope.userId, idempotencyKey) }, ({ order: [row] }) => row ?? null),
    checkout: checkoutRead(scope, input.listingId, input.waitlistOfferId),
    standing: standingRead(db, { key: idempotencyKey, userId: scope.userId, listingId: input.listingId, waitingRoomPass: pass }),
    address: input.deliveryType === 'courier' && input.addressId !== undefined ? addressRead(scope, input.addressId) : known(null),
    attendees:
      attendeeIds.length > 0
        ? read(
            {
              found: db
                .select()
                .from(attendees)
                .where(and(eq(attendees.userId, scope.userId), inArray(attendees.id, attendeeIds))),
            },
            ({ found }) => found,
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
