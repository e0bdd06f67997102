/**
 * Paying for orders through a payment provider (DESIGN.md, Payments).
 *
 * State of one payment (ours, `payments.status`), always copied from what the provider answers:
 *
 *   created ──provider: succeeded──► succeeded ──order was not payable by it──► refunded
 *      │                                 └──seller failed / event cancelled / transfer no longer
 *      │                                    has the tickets (refundOrderPayment)──► refunded
 *      ├──provider: failed──► failed
 *      └──provider: cancelled──► cancelled
 *
 * A webhook or a poll only makes us ask the provider again (`syncPayment`). A succeeded payment
 * confirms its order with one guarded update (applyOrderEvent), so a second confirmation changes
 * nothing. Money that arrives for an order that can no longer take it (expired, cancelled, or paid
 * by another payment already) is refunded through the provider at once, never kept.
 */
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { REFUND_RETRY_AFTER_MS } from '../../config/orders.ts';
import type { Db } from '../../data/client.ts';
import { rawRead, read, readTogether } from '../../data/read-together.ts';
import { listings, orders, payments, paymentWebhookEvents } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import type { Money } from '../../domain/money.ts';
import type { OrderStatus } from '../../domain/order-state.ts';
import type { PaymentMethod } from '../../domain/payment-methods.ts';
import { parseOrderId } from '../../domain/order-pages.ts';
import { paymentStatusOf, reportedMoneyMatches, type PaymentStatus } from '../../domain/payment-outcome.ts';
import { requestHash } from '../../domain/idempotency.ts';
import { checkoutProvider, offeredPaymentMethods, type PaymentSetup } from '../../domain/payment-provider-choice.ts';
import { qrSvg } from '../../domain/payment-qr.ts';
import { translator } from '../../i18n/index.ts';
import { localizedPath, type Locale } from '../../i18n/locales.ts';
import { pathTo } from '../../routes.ts';
import type { ServiceEnv } from '../platform/env.ts';
import { sameRequestOrReused } from '../../domain/idempotency.ts';
import { expireOverdueOrders, expireOverdueOrdersStatement } from '../../data/order-expiry.ts';
import { applyOrderEvent } from '../orders/lifecycle.ts';
import type { OrderDetail } from '../orders/presenters.ts';
import { findOwnOrder, orderDetail, type OrderRow } from '../orders/queries.ts';
import { paymentProvider } from './providers/index.ts';
import type { CreatePaymentInput, PaymentProvider } from './providers/types.ts';
import { fulfilTransferOrder, type TransferReissue } from '../marketplace/transfers.ts';
import type { AfterWriteRide, AfterWriteWork } from '../../data/after-write.ts';
import type { ClaimedUserScope, RequestScope, UserScope } from '../platform/scope.ts';
import { readSignedIn } from '../accounts/signed-in.ts';
import { batch, rawBatch } from '../../data/batch.ts';

export type PaymentRow = typeof payments.$inferSelect;

/** The answer of the pay call: where and how to pay. */
export interface PaymentStart {
  paymentId: number;
  method: string;
  status: PaymentStatus;
  /** The provider's hosted page (card methods open it in a new window). */
  checkoutUrl: string;
  /** What the buyer scans (WeChat Pay, Alipay), else null. */
  qrContent: string | null;
  /** qrContent drawn as a standalone SVG document, else null. */
  qrSvg: string | null;
  deadline: number;
}

/** What the payment page polls. */
export interface PaymentState {
  orderStatus: OrderStatus;
  paymentSubstatus: 'paying' | 'confirming' | null;
  /** The order's latest payment attempt, if any. */
  paymentId: number | null;
  paymentStatus: PaymentStatus | null;
  deadline: number;
}

/** The public origin (configured, never the Host header) and language the provider's page and return link are built on. */
export interface RequestOrigin {
  origin: string;
  locale: Locale;
}

async function orderRow(db: Db, orderId: number): Promise<OrderRow> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!row) throw new DomainError('order_not_found');
  return row;
}

function paymentByKeySelect(db: Db, orderId: number, idempotencyKey: string) {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.idempotencyKey, idempotencyKey)));
}

/** The order's newest open payment by a method. */
function openByMethodSelect(db: Db, orderId: number, method: PaymentMethod) {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'created'), eq(payments.method, method)))
    .orderBy(desc(payments.id))
    .limit(1);
}

/** The order's most recent payment attempt. */
export async function latestPayment(db: Db, orderId: number): Promise<PaymentRow | null> {
  const [row] = await db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(desc(payments.id)).limit(1);
  return row ?? null;
}

function createInput(
  order: OrderRow,
  method: PaymentMethod,
  idempotencyKey: string,
  provider: string,
  where: RequestOrigin,
): CreatePaymentInput {
  const payPage = localizedPath(pathTo('orderPayPage', { id: order.id }), where.locale);
  return {
    merchantRef: `order-${order.id}`,
    idempotencyKey,
    method,
    amount: { amount: order.total, currency: order.currency },
    returnUrl: new URL(`${payPage}?returned=1`, where.origin).href,
    notifyUrl: new URL(`/api/v1/payments/webhooks/${provider}`, where.origin).href,
    locale: where.locale,
    description: translator(where.locale)('payment.providerItem', { orderNo: order.orderNo }),
  };
}

/** The pay call's answer for a payment we already recorded: its page at the provider, as it is now. */
async function paymentStartOf(scope: RequestScope, order: OrderRow, payment: PaymentRow, where: RequestOrigin): Promise<PaymentStart> {
  const provider = paymentProvider(payment.provider, scope.db, scope.env);
  const created = await provider.reopen(
    payment.providerRef,
    createInput(order, payment.method as PaymentMethod, payment.idempotencyKey, provider.name, where),
  );
  return {
    paymentId: payment.id,
    method: payment.method,
    status: payment.status,
    checkoutUrl: created.checkoutUrl,
    qrContent: created.qrContent,
    qrSvg: created.qrContent ? qrSvg(created.qrContent) : null,
    deadline: order.paymentDeadline,
  };
}

/**
 * Starts paying an order, or answers with the payment already started: the same Idempotency-Key
 * (a double-clicked Pay) always gets the same payment, and an open payment by the same method is
 * reused rather than opening a second one. Only the owner, only an unpaid order before its deadline,
 * only a method offered for its currency. A new payment goes to the setup's provider.
 */
export async function startPayment(
  claimed: ClaimedUserScope,
  orderId: number,
  method: PaymentMethod,
  idempotencyKey: string,
  setup: PaymentSetup,
  where: RequestOrigin,
  afterWrite: AfterWriteWork | null = null,
): Promise<PaymentStart> {
  const hash = await requestHash({ method });
  // One round trip: the session, overdue orders closed first, then the order, the payment this key
  // started and an open one by the method.
  const { scope, rows } = await readSignedIn(claimed, ({ db, userId, now }) => ({
    expired: read([expireOverdueOrdersStatement(db, now, { userId })], () => null),
    order: read(
      [
        db
          .select()
          .from(orders)
          .where(and(eq(orders.id, orderId), eq(orders.userId, userId))),
      ],
      ([[row]]) => row ?? null,
    ),
    earlier: read([paymentByKeySelect(db, orderId, idempotencyKey)], ([[row]]) => row ?? null),
    open: read([openByMethodSelect(db, orderId, method)], ([[row]]) => row ?? null),
  }));
  const { db, env, now } = scope;
  const { order, earlier, open } = rows;
  if (!order) throw new DomainError('order_not_found');
  if (earlier) return paymentStartOf(scope, order, sameRequestOrReused(earlier, hash), where);
  if (order.status !== 'pending_payment' || now >= order.paymentDeadline) throw new DomainError('order_not_payable');
  const providerName = checkoutProvider(setup);
  if (!providerName) throw new DomainError('payments_unavailable');
  if (!offeredPaymentMethods(setup, order.currency).includes(method)) throw new DomainError('payment_method_unavailable', {}, 'method');

  if (open) {
    // Reused only while the provider still takes it: a checkout that expired there is closed here first.
    await syncPayment(db, env, open, now);
    const [stillOpen] = await openByMethodSelect(db, order.id, method);
    if (stillOpen) return paymentStartOf(scope, order, stillOpen, where);
    if ((await orderRow(db, order.id)).status !== 'pending_payment') throw new DomainError('order_not_payable');
  }

  const provider = paymentProvider(providerName, db, env);
  const created = await provider.create(createInput(order, method, idempotencyKey, provider.name, where), now);
  // One batch: the payment (a concurrent request with the same key got the same provider reference,
  // so only one row is kept), the order marked as paying, the row the key now names, and the API's
  // after-write pass last (one round trip fewer; a batch that fails with it is sent again without it,
  // and the API then runs the pass on its own).
  const record = (ride: AfterWriteRide | undefined) =>
    readTogether(db, {
      recorded: read(
        [
          db
            .insert(payments)
            .values({
              orderId: order.id,
              provider: provider.name,
              providerRef: created.ref,
              method,
              amount: order.total,
              currency: order.currency,
              status: 'created',
              idempotencyKey,
              requestHash: hash,
              createdAt: now,
              updatedAt: now,
            })
            .onConflictDoNothing(),
          db
            .update(orders)
            .set({ paymentSubstatus: 'paying', paymentMethod: method, updatedAt: now })
            .where(and(eq(orders.id, order.id), eq(orders.status, 'pending_payment'))),
        ],
        () => null,
      ),
      payment: read([paymentByKeySelect(db, order.id, idempotencyKey)], ([[row]]) => row ?? null),
      afterWrite: rawRead(ride?.statements ?? [], (answers) => answers),
    });
  const ride = afterWrite?.ride(now);
  let written: Awaited<ReturnType<typeof record>>;
  try {
    written = await record(ride);
  } catch (error) {
    if (!ride) throw error;
    written = await record(undefined);
  }
  if (ride && written.afterWrite.length > 0) ride.carried(written.afterWrite);
  const { payment } = written;
  if (!payment) throw new Error(`Payment of order ${order.id} with key ${idempotencyKey} was not recorded`);
  return paymentStartOf(scope, order, sameRequestOrReused(payment, hash), where);
}

async function markPayment(db: Db, payment: PaymentRow, status: PaymentStatus, from: PaymentStatus[], now: number): Promise<void> {
  await db
    .update(payments)
    .set({ status, updatedAt: now })
    .where(and(eq(payments.id, payment.id), inArray(payments.status, from)));
}

/** The order is no longer "paying" once none of its payments is open. */
async function clearPayingWhenNoneOpen(db: Db, orderId: number, now: number): Promise<void> {
  await db.run(sql`
    UPDATE orders SET payment_substatus = NULL, updated_at = ${now}
    WHERE id = ${orderId} AND status = 'pending_payment'
      AND NOT EXISTS (SELECT 1 FROM payments WHERE order_id = ${orderId} AND status = 'created')`);
}

/**
 * Gives a succeeded payment back through the provider and records it. When the order it paid for
 * was closed, the order shows the refund too (in the same batch, only if this call made the refund).
 */
async function refundPayment(
  db: Db,
  provider: PaymentProvider,
  payment: PaymentRow,
  amount: number,
  now: number,
  orderClosed: boolean,
): Promise<void> {
  await provider.refund(payment.providerRef, { amount, currency: payment.currency }, now);
  // Raw D1 statements: the order's update must see `changes()` of the payment's, which only plain SQL can say.
  const d1 = db.$client;
  const markRefunded = d1
    .prepare("UPDATE payments SET status = 'refunded', refunded_at = ?1, updated_at = ?1 WHERE id = ?2 AND status = 'succeeded'")
    .bind(now, payment.id);
  if (!orderClosed) {
    await markRefunded.run();
    return;
  }
  const showOnOrder = d1
    .prepare(
      "UPDATE orders SET refund_amount = refund_amount + ?1, updated_at = ?2 WHERE id = ?3 AND status = 'cancelled' AND changes() = 1",
    )
    .bind(amount, now, payment.orderId);
  await rawBatch(d1, { markRefunded, showOnOrder });
}

/** Whether another payment of the order has succeeded and was not refunded: that one paid for it. */
async function paidByAnother(db: Db, payment: PaymentRow): Promise<boolean> {
  const [other] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, payment.orderId), eq(payments.status, 'succeeded'), sql`${payments.id} <> ${payment.id}`))
    .limit(1);
  return other !== undefined;
}

/**
 * The provider says the money is in. Claim the payment as succeeded (guarded), then confirm the
 * order with a guarded transition that stamps the order with the payment's own paidAt, which is
 * how we later know which payment paid it. If the order cannot take the money — past its deadline,
 * cancelled, or paid by another payment (still kept, or since refunded) — the payment is refunded.
 * Repeating this is harmless: the claim and the transition apply once, and the payment that paid
 * its order is left alone.
 */
async function settleSucceeded(
  db: Db,
  env: ServiceEnv,
  provider: PaymentProvider,
  payment: PaymentRow,
  now: number,
  afterWrite: AfterWriteWork | null,
): Promise<void> {
  // One batch: the claim, then the payment and its order as they are after it.
  const {
    claimed: [claimed],
    claimedOrder: [claimedOrder],
  } = await batch(db, {
    claim: db
      .update(payments)
      .set({ status: 'succeeded', paidAt: now, updatedAt: now })
      .where(and(eq(payments.id, payment.id), eq(payments.status, 'created'))),
    claimed: db.select().from(payments).where(eq(payments.id, payment.id)),
    claimedOrder: db
      .select({ order: orders, transfer: sql<boolean>`${listings.sourceOrderId} IS NOT NULL`.mapWith(Boolean) })
      .from(orders)
      .leftJoin(listings, eq(listings.id, orders.listingId))
      .where(eq(orders.id, payment.orderId)),
  });
  if (claimed?.status !== 'succeeded') return;
  if (!claimedOrder) throw new DomainError('order_not_found');

  let order = claimedOrder.order;
  // Only a ticket transfer's order is reissued when paid; any other order is left to its seller.
  const reissue = () => (claimedOrder.transfer ? reissueTransferOrder(db, env, order.id, now) : null);
  if (order.status === 'pending_payment') {
    if (now >= order.paymentDeadline) {
      await expireOverdueOrders(db, now, { userId: order.userId });
    } else if (
      await applyOrderEvent(
        db,
        order.id,
        'payment_confirmed',
        now,
        { paymentSubstatus: null, paymentMethod: claimed.method, paidAt: claimed.paidAt },
        afterWrite,
      )
    ) {
      // A ticket transfer needs nothing from its seller: the tickets are reissued as soon as it is paid.
      await reissue();
      return;
    }
    order = await orderRow(db, payment.orderId);
  }
  if (order.status === 'pending_payment') return;
  if (order.status === 'cancelled') {
    await refundPayment(db, provider, claimed, claimed.amount, now, true);
  } else if ((await paidByAnother(db, claimed)) || order.paidAt !== claimed.paidAt) {
    await refundPayment(db, provider, claimed, claimed.amount, now, false);
  } else if (order.status === 'pending_ticketing') {
    // This payment paid the order: a transfer's reissue that failed after it (a D1 error) is retried.
    await reissue();
  }
}

/**
 * Reissues a paid transfer order's tickets; when its listing no longer has them, the attempt closed
 * the order as refunded and the payment is given back in full. Runs when the payment is confirmed,
 * on later syncs of that payment and from the scheduled sweep, so a reissue that failed after the
 * payment is finished later; repeating it changes nothing. Any other order is left alone. The call
 * that reissues tells the seller their tickets sold.
 */
export async function reissueTransferOrder(db: Db, env: ServiceEnv, orderId: number, now: number): Promise<TransferReissue> {
  const outcome = await fulfilTransferOrder(db, orderId, now);
  if (outcome === 'unavailable') await refundOrderPayment(db, env, orderId, (await orderRow(db, orderId)).total, now);
  return outcome;
}

/**
 * Asks the provider about a payment and brings our records (and the order) in line with its answer;
 * a request's after-write work may ride in the order's confirmation (applyOrderEvent).
 */
export async function syncPayment(
  db: Db,
  env: ServiceEnv,
  payment: PaymentRow,
  now: number,
  afterWrite: AfterWriteWork | null = null,
): Promise<void> {
  if (payment.status !== 'created' && payment.status !== 'succeeded') return;
  const provider = paymentProvider(payment.provider, db, env);
  const remote = await provider.query(payment.providerRef);
  if (!remote) return;
  const reported = paymentStatusOf(remote.status);
  if (reported === 'succeeded') {
    const recorded = { amount: payment.amount, currency: payment.currency };
    if (!reportedMoneyMatches(recorded, remote.amount)) {
      // Never paid on money other than the order's; the payment stays open for someone to look at.
      console.error('Payment not settled: the provider reports other money', {
        paymentId: payment.id,
        provider: payment.provider,
        ref: payment.providerRef,
        recorded,
        reported: remote.amount,
      });
      return;
    }
    await settleSucceeded(db, env, provider, payment, now, afterWrite);
  } else if (reported === 'failed' || reported === 'cancelled') {
    await markPayment(db, payment, reported, ['created'], now);
    await clearPayingWhenNoneOpen(db, payment.orderId, now);
  } else if (reported === 'refunded') {
    await markPayment(db, payment, 'refunded', ['created', 'succeeded'], now);
  }
}

/** Re-checks every payment of an order that may still change: open ones, and succeeded ones not yet settled. */
export async function syncOrderPayments(db: Db, env: ServiceEnv, orderId: number, now: number): Promise<void> {
  const live = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), inArray(payments.status, ['created', 'succeeded'])))
    .orderBy(payments.id);
  for (const payment of live) await syncPayment(db, env, payment, now);
}

/**
 * The order's payment state for the payment page: the provider is asked about the order's
 * payments first, then overdue orders expire, so what is answered is current.
 */
export async function paymentState(scope: UserScope, orderId: number): Promise<PaymentState> {
  const { db, env, userId, now } = scope;
  const order = await findOwnOrder(db, userId, orderId);
  await syncOrderPayments(db, env, order.id, now);
  await expireOverdueOrders(db, now, { userId });
  const current = await orderRow(db, order.id);
  const latest = await latestPayment(db, order.id);
  return {
    orderStatus: current.status,
    paymentSubstatus: current.status === 'pending_payment' ? current.paymentSubstatus : null,
    paymentId: latest?.id ?? null,
    paymentStatus: latest?.status ?? null,
    deadline: current.paymentDeadline,
  };
}

/**
 * A provider's webhook: verified (signature, age), taken once per event id, and then only a
 * trigger to ask the provider again. A replayed event is acknowledged and changes nothing.
 */
export async function receiveWebhook(
  scope: RequestScope,
  providerName: string,
  headers: Headers,
  body: string,
  afterWrite: AfterWriteWork | null = null,
): Promise<{ duplicate: boolean }> {
  const { db, env, now } = scope;
  const provider = paymentProvider(providerName, db, env);
  const notice = await provider.verifyWebhook(headers, body, now);
  // One batch: the event taken (once per id), and the payment it names.
  const {
    taken,
    payment: [payment],
  } = await batch(db, {
    taken: db
      .insert(paymentWebhookEvents)
      .values({ eventId: notice.eventId, provider: provider.name, receivedAt: now })
      .onConflictDoNothing(),
    payment: db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, provider.name), eq(payments.providerRef, notice.ref ?? ''))),
  });
  if (taken.meta.changes !== 1) return { duplicate: true };
  if (notice.ref === null) return { duplicate: false };
  try {
    if (payment) await syncPayment(db, env, payment, now, afterWrite);
  } catch (error) {
    // Let the provider's retry of this event be handled rather than ignored as a replay.
    await db.delete(paymentWebhookEvents).where(eq(paymentWebhookEvents.eventId, notice.eventId));
    throw error;
  }
  return { duplicate: false };
}

/**
 * Refunds `amount` (minor units of the order's currency) of the payment that paid an order, through
 * its provider, and marks the payment refunded. Fulfilment calls it when a seller fails to deliver.
 * Answers the money refunded, or null when the order has no succeeded payment (nothing to give back).
 */
export async function refundOrderPayment(db: Db, env: ServiceEnv, orderId: number, amount: number, now: number): Promise<Money | null> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'succeeded')))
    .orderBy(payments.paidAt, payments.id)
    .limit(1);
  if (!payment || amount <= 0) return null;
  if (!Number.isInteger(amount) || amount > payment.amount) {
    throw new Error(`Cannot refund ${amount} of payment ${payment.id} (${payment.amount} ${payment.currency})`);
  }
  await refundPayment(db, paymentProvider(payment.provider, db, env), payment, amount, now, false);
  return { amount, currency: payment.currency };
}

/**
 * Gives back money still held for orders that can no longer keep it: a refunded order whose refund
 * call failed (or never ran: the worker stopped after the state change), and a cancelled order a
 * late payment was not refunded for. Run by the sweep, only for closes older than
 * REFUND_RETRY_AFTER_MS; provider refunds are idempotent, so a refund that did reach the provider
 * is only recorded. Each payment is tried on its own; one that keeps failing is logged. Answers how
 * many were refunded now.
 */
export async function retryOwedRefunds(db: Db, env: ServiceEnv, now: number): Promise<number> {
  const settledBefore = now - REFUND_RETRY_AFTER_MS;
  const owed = await db
    .select({ payment: payments, orderStatus: orders.status, refundAmount: orders.refundAmount })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(
      and(
        eq(payments.status, 'succeeded'),
        inArray(orders.status, ['refunded', 'cancelled']),
        lt(orders.updatedAt, settledBefore),
        lt(payments.updatedAt, settledBefore),
      ),
    );
  let refunded = 0;
  for (const { payment, orderStatus, refundAmount } of owed) {
    const closed = orderStatus === 'cancelled';
    // A refunded order says how much it gives back; a cancelled one was never paid, so all of it.
    const amount = closed ? payment.amount : Math.min(payment.amount, refundAmount > 0 ? refundAmount : payment.amount);
    try {
      await refundPayment(db, paymentProvider(payment.provider, db, env), payment, amount, now, closed);
      refunded += 1;
    } catch (error) {
      console.error(
        JSON.stringify({ event: 'refund_retry_failed', paymentId: payment.id, orderId: payment.orderId, error: String(error) }),
      );
    }
  }
  return refunded;
}

export interface PaymentPageData {
  state: PaymentState;
  order: OrderDetail;
}

/**
 * What the payment page and the outcome pages show: the payment state (the provider asked first)
 * and the order. Null when the id is malformed, unknown or someone else's order (the 404 page).
 */
export async function paymentPageData(scope: UserScope, rawOrderId: string | null | undefined): Promise<PaymentPageData | null> {
  const orderId = parseOrderId(rawOrderId);
  if (orderId === null) return null;
  try {
    const state = await paymentState(scope, orderId);
    return { state, order: await orderDetail(scope, orderId) };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'order_not_found') return null;
    throw error;
  }
}
