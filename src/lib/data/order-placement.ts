/**
 * Writing an order with its hold on the tickets, as D1 statements of one batch: a guarded decrement
 * of the listing's stock, then the order inserted only if that decrement happened (`changes()`),
 * the coupon locked to it and its attendees copied. Checkout runs them for one order at a time
 * (services/orders/placing.ts); a high-demand session's inventory object runs many orders' in one batch
 * (durable-objects/session-inventory.ts). Raw D1 statements: the insert needs `changes()` of the statement before,
 * which only plain SQL can say.
 */
import type { AccountStanding, OrderLimits } from '../domain/order-limits.ts';
import { minuteOf } from '../domain/order-rate.ts';

/** Everything an order row is made of, checked and priced by checkout before it is written. */
export interface OrderPlacement {
  orderNo: string;
  userId: number;
  listingId: number;
  activityId: number;
  sessionId: number;
  tierId: number;
  quantity: number;
  currency: string;
  fxPerHkdMicros: number;
  unitPrice: number;
  ticketAmount: number;
  serviceFee: number;
  postage: number;
  couponDiscount: number;
  total: number;
  userCouponId: number | null;
  deliveryType: string;
  paymentMethod: string;
  shippingAddress: string | null;
  takerName: string | null;
  takerPhone: string | null;
  paymentDeadline: number;
  idempotencyKey: string;
  requestHash: string;
  sellerId: number;
  createdAt: number;
  attendees: { name: string; nationality: string; idCardType: string; idCardNo: string }[];
  /** The waiting-room pass the order spends (`passId`), or null when its on-sale needs none. */
  waitingRoomPass: string | null;
  /** What the account may order (domain/order-limits.ts): the write guards them again. */
  limits: OrderLimits;
}

/** Orders that count toward the session's cap: paid, or awaiting payment. */
const LIVE_STATUSES = `('pending_payment', 'pending_ticketing', 'pending_receipt', 'completed')`;

/**
 * The account's standing as SQL over one order's `userId`, `listingId` and `pass` expressions: the
 * tickets of its listing's session in live orders, its unpaid tickets, of every listing and of this
 * one, and whether the pass bought an order that has not lapsed (cancelled; a paid then refunded
 * order spent it).
 */
function standingColumns(userId: string, listingId: string, pass: string) {
  return {
    sessionTickets: `(SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.user_id = ${userId} AND o.status IN ${LIVE_STATUSES}
      AND o.session_id = (SELECT t.session_id FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id WHERE l.id = ${listingId}))`,
    unpaidTickets: `(SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.user_id = ${userId} AND o.status = 'pending_payment')`,
    unpaidOnListing: `(SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.user_id = ${userId} AND o.status = 'pending_payment'
      AND o.listing_id = ${listingId})`,
    passUsed: `EXISTS (SELECT 1 FROM waiting_room_pass_orders u JOIN orders o ON o.id = u.order_id
      WHERE u.pass = ${pass} AND o.status <> 'cancelled')`,
  };
}

/**
 * The limits as a condition of a hold's statement, its parameters numbered from `?first`
 * (`limitsParameters`): judged in the write itself, so of two orders racing past checkout's read
 * (one pass, or the last tickets the cap allows), the one written second is refused. A placement
 * stored by an inventory object before the limits existed has none, and is held to none.
 */
function limitsCondition(first: number): string {
  const [userId, listingId, quantity, cap, unpaid, onListing, pass] = Array.from({ length: 7 }, (_, i) => `?${first + i}`);
  const standing = standingColumns(userId, listingId, pass);
  return `(${cap} IS NULL OR ${standing.sessionTickets} + ${quantity} <= ${cap})
      AND (${unpaid} IS NULL OR ${standing.unpaidTickets} + ${quantity} <= ${unpaid})
      AND (${onListing} IS NULL OR ${standing.unpaidOnListing} + ${quantity} <= ${onListing})
      AND (${pass} IS NULL OR NOT ${standing.passUsed})`;
}

function limitsParameters(p: OrderPlacement) {
  const limits = p.limits as OrderLimits | undefined;
  return [
    p.userId,
    p.listingId,
    p.quantity,
    limits?.accountTicketCap ?? null,
    limits?.unpaidTicketLimit ?? null,
    limits?.listingUnpaidLimit ?? null,
    p.waitingRoomPass ?? null,
  ];
}

/** What an order's account holds, for checkout's read and an inventory object's refused holds (`standingStatement`). */
export interface StandingQuery {
  key: string;
  userId: number;
  listingId: number;
  waitingRoomPass: string | null;
}

/** The standing of each query's account, one row each under its `key`, in one statement. */
export function standingStatement(d1: D1Database, queries: readonly StandingQuery[]): D1PreparedStatement {
  const field = (name: keyof StandingQuery) => `json_extract(q.value, '$.${name}')`;
  const columns = standingColumns(field('userId'), field('listingId'), field('waitingRoomPass'));
  return d1
    .prepare(`
    SELECT ${field('key')} AS key, ${columns.sessionTickets} AS sessionTickets, ${columns.unpaidTickets} AS unpaidTickets,
      ${columns.unpaidOnListing} AS unpaidOnListing, ${columns.passUsed} AS passUsed
    FROM json_each(?1) q`)
    .bind(JSON.stringify(queries));
}

/** A row of `standingStatement` as the rules read it. */
export function standingOf(row: Record<string, unknown> | undefined): AccountStanding {
  return {
    sessionTickets: Number(row?.sessionTickets ?? 0),
    unpaidTickets: Number(row?.unpaidTickets ?? 0),
    unpaidOnListing: Number(row?.unpaidOnListing ?? 0),
    passUsed: Boolean(row?.passUsed),
  };
}

/** Whether the order's coupon (if any) is still the buyer's and unused: both decrements require it. */
const COUPON_UNUSED = `(?3 IS NULL OR EXISTS (SELECT 1 FROM user_coupons WHERE id = ?3 AND user_id = ?4 AND status = 'unused'))`;

/**
 * Checkout's hold: takes the tickets only from an active listing with enough stock, and not from a
 * high-demand session's or tier's, which only its inventory object holds from. Returned tickets a waiting
 * group fits are the line's (services/on-sale/waitlist.ts): a direct buyer does not get them.
 */
export function checkoutHoldStatement(d1: D1Database, placement: OrderPlacement): D1PreparedStatement {
  return d1
    .prepare(`
    UPDATE listings SET quantity_available = quantity_available - ?1
    WHERE id = ?2 AND status = 'active' AND quantity_available >= ?1 AND ${COUPON_UNUSED}
      AND NOT EXISTS (SELECT 1 FROM ticket_tiers t JOIN activity_sessions s ON s.id = t.session_id
        WHERE t.id = listings.tier_id AND (s.high_demand = 1 OR t.high_demand = 1))
      AND NOT EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.tier_id = listings.tier_id AND w.status = 'waiting'
        AND w.quantity <= listings.quantity_available AND w.user_id <> listings.seller_id)
      AND ${limitsCondition(5)}`)
    .bind(placement.quantity, placement.listingId, placement.userCouponId, placement.userId, ...limitsParameters(placement));
}

/**
 * Checkout's claim of the buyer's waitlist offer, which already holds its tickets: only
 * their own open offer for this listing and group, with the coupon unused and within the limits.
 */
export function offerClaimStatement(d1: D1Database, placement: OrderPlacement, offerId: number, now: number): D1PreparedStatement {
  const p = placement;
  return d1
    .prepare(`
    UPDATE waitlist_offers SET status = 'claimed'
    WHERE id = ?1 AND user_id = ?2 AND status = 'open' AND expires_at > ?3 AND listing_id = ?4 AND quantity = ?5
      AND (?6 IS NULL OR EXISTS (SELECT 1 FROM user_coupons WHERE id = ?6 AND user_id = ?2 AND status = 'unused'))
      AND ${limitsCondition(7)}`)
    .bind(offerId, p.userId, now, p.listingId, p.quantity, p.userCouponId, ...limitsParameters(p));
}

/**
 * The inventory object's hold: the same stock guard, and none at all when the order is already
 * in D1, so writing a batch again after a flush whose answer was lost neither holds twice nor
 * inserts twice. An order of the same buyer and key (one checkout wrote before the session became
 * high demand) skips it too, rather than fail the whole batch on the unique key.
 */
export function inventoryHoldStatement(d1: D1Database, placement: OrderPlacement): D1PreparedStatement {
  return d1
    .prepare(`
    UPDATE listings SET quantity_available = quantity_available - ?1
    WHERE id = ?2 AND status = 'active' AND quantity_available >= ?1 AND ${COUPON_UNUSED}
      AND NOT EXISTS (SELECT 1 FROM orders WHERE order_no = ?5 OR (user_id = ?4 AND idempotency_key = ?6))
      AND ${limitsCondition(7)}`)
    .bind(
      placement.quantity,
      placement.listingId,
      placement.userCouponId,
      placement.userId,
      placement.orderNo,
      placement.idempotencyKey,
      ...limitsParameters(placement),
    );
}

/** An order's statements by what they write, each answered under its name when a batch names them. */
export interface PlacementStatements {
  order: D1PreparedStatement;
  coupon: D1PreparedStatement;
  attendees: D1PreparedStatement[];
  pass: D1PreparedStatement[];
}

/**
 * The order, inserted only when the statement just before it held the tickets, then its coupon,
 * attendees and waiting-room pass, which join the order of this number and this buyer (a number is random, not unique by design).
 */
export function placementStatements(d1: D1Database, placement: OrderPlacement): PlacementStatements {
  const p = placement;
  const insertOrder = d1
    .prepare(`
    INSERT INTO orders (order_no, user_id, listing_id, activity_id, session_id, tier_id, quantity, status, currency,
      fx_per_hkd_micros, unit_price, ticket_amount, service_fee, postage, coupon_discount, total, user_coupon_id, delivery_type,
      payment_method, shipping_address, taker_name, taker_phone, taker_phone_confirmed_at, payment_deadline, idempotency_key, request_hash,
      seller_id, created_at, updated_at)
    SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, 'pending_payment', ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21,
      -- The buyer's own number, proven by their sign-in code, needs no second confirmation.
      (SELECT ?26 FROM users WHERE id = ?2 AND phone_country_code || ' ' || phone = ?21),
      ?22, ?23, ?24, ?25, ?26, ?26
    WHERE changes() = 1
    RETURNING *`)
    .bind(
      p.orderNo,
      p.userId,
      p.listingId,
      p.activityId,
      p.sessionId,
      p.tierId,
      p.quantity,
      p.currency,
      p.fxPerHkdMicros,
      p.unitPrice,
      p.ticketAmount,
      p.serviceFee,
      p.postage,
      p.couponDiscount,
      p.total,
      p.userCouponId,
      p.deliveryType,
      p.paymentMethod,
      p.shippingAddress,
      p.takerName,
      p.takerPhone,
      p.paymentDeadline,
      p.idempotencyKey,
      p.requestHash,
      p.sellerId,
      p.createdAt,
    );
  const lockCoupon = d1
    .prepare(`
    UPDATE user_coupons SET status = 'locked', order_id = (SELECT id FROM orders WHERE order_no = ?1 AND user_id = ?3)
    WHERE id = ?2 AND status = 'unused' AND EXISTS (SELECT 1 FROM orders WHERE order_no = ?1 AND user_id = ?3)`)
    .bind(p.orderNo, p.userCouponId, p.userId);
  // The n-th attendee joins an order that has n-1: written again, a batch copies none twice.
  const copyAttendees = p.attendees.map((attendee, index) =>
    d1
      .prepare(`
    INSERT INTO order_attendees (order_id, name, nationality, id_card_type, id_card_no)
    SELECT id, ?2, ?3, ?4, ?5 FROM orders WHERE order_no = ?1 AND user_id = ?7
      AND (SELECT count(*) FROM order_attendees a WHERE a.order_id = orders.id) = ?6
    RETURNING *`)
      .bind(p.orderNo, attendee.name, attendee.nationality, attendee.idCardType, attendee.idCardNo, index, p.userId),
  );
  // The pass's row goes to this order, or passes to it from an order of the pass that lapsed unpaid;
  // the hold's condition let the order in only then. Written again, a batch sets the same order.
  const spendPass = d1
    .prepare(`
    INSERT INTO waiting_room_pass_orders (pass, order_id) SELECT ?1, id FROM orders WHERE order_no = ?2 AND user_id = ?3
    ON CONFLICT (pass) DO UPDATE SET order_id = excluded.order_id
    WHERE (SELECT status FROM orders WHERE id = waiting_room_pass_orders.order_id) = 'cancelled'`)
    .bind(p.waitingRoomPass, p.orderNo, p.userId);
  return { order: insertOrder, coupon: lockCoupon, attendees: copyAttendees, pass: p.waitingRoomPass ? [spendPass] : [] };
}

/** The same statements in their order, for a batch that reads none of their answers. */
export function placementRun(d1: D1Database, placement: OrderPlacement): D1PreparedStatement[] {
  const { order, coupon, attendees, pass } = placementStatements(d1, placement);
  return [order, coupon, ...attendees, ...pass];
}

/**
 * Counts a plain session's order toward the session turning high demand by itself
 * (docs/hot-on-sale.md), in the order's own batch: one upsert of the session's count for the order's
 * minute, answering it with the previous minute's count (`MinuteCounts`). Its own table, never the
 * session row, whose every write bumps the catalogue version (migration 0012).
 */
export function orderRateStatement(d1: D1Database, placement: OrderPlacement): D1PreparedStatement {
  return d1
    .prepare(`
    INSERT INTO session_order_rates (minute, session_id, orders) VALUES (?1, ?2, 1)
    ON CONFLICT (minute, session_id) DO UPDATE SET orders = orders + 1
    RETURNING orders AS current,
      coalesce((SELECT p.orders FROM session_order_rates p WHERE p.minute = ?1 - 1 AND p.session_id = ?2), 0) AS previous`)
    .bind(minuteOf(placement.createdAt), placement.sessionId);
}
