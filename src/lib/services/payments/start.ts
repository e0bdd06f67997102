/**
 * Starting to pay an order: a payment opened at the setup's provider, or the one already started
 * answered again (the same Idempotency-Key, or an open payment by the same method).
 */
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { rawRead, read, readTogether } from '../../data/read-together.ts';
import { orders, payments } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import type { PaymentMethod } from '../../domain/payment-methods.ts';
import type { PaymentStatus } from '../../domain/payment-outcome.ts';
import { requestHash } from '../../domain/idempotency.ts';
import { checkoutProvider, offeredPaymentMethods, type PaymentSetup } from '../../domain/payment-provider-choice.ts';
import { qrSvg } from '../../domain/payment-qr.ts';
import { translator } from '../../i18n/index.ts';
import { localizedPath, type Locale } from '../../i18n/locales.ts';
import { pathTo } from '../../routes.ts';
import { sameRequestOrReused } from '../../domain/idempotency.ts';
import { expireOverdueOrdersStatement } from '../../data/order-expiry.ts';
import type { OrderRow } from '../orders/queries.ts';
import { paymentProvider } from './providers/index.ts';
import type { CreatePaymentInput } from './providers/types.ts';
import type { AfterWriteRide, AfterWriteWork } from '../../data/after-write.ts';
import type { ClaimedUserScope, RequestScope } from '../platform/scope.ts';
import { readSignedIn } from '../accounts/signed-in.ts';
import { orderRow, type PaymentRow } from './rows.ts';
import { syncPayment } from './settlement.ts';

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

/** The public origin (configured, never the Host header) and language the provider's page and return link are built on. */
export interface RequestOrigin {
  origin: string;
  locale: Locale;
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

/** A payment just opened at its provider, as the row records it. */
interface OpenedPayment {
  provider: string;
  ref: string;
  method: PaymentMethod;
  idempotencyKey: string;
  hash: string;
}

/**
 * Records an opened payment and marks its order as paying. One batch: the payment (a concurrent
 * request with the same key got the same provider reference, so only one row is kept), the order
 * marked as paying, the row the key now names, and the API's after-write pass last (one round trip
 * fewer; a batch that fails with it is sent again without it, and the API then runs the pass on its own).
 */
async function recordPayment(
  db: Db,
  order: OrderRow,
  opened: OpenedPayment,
  now: number,
  afterWrite: AfterWriteWork | null,
): Promise<PaymentRow> {
  const { method, idempotencyKey } = opened;
  const record = (ride: AfterWriteRide | undefined) =>
    readTogether(db, {
      recorded: read(
        {
          payment: db
            .insert(payments)
            .values({
              orderId: order.id,
              provider: opened.provider,
              providerRef: opened.ref,
              method,
              amount: order.total,
              currency: order.currency,
              status: 'created',
              idempotencyKey,
              requestHash: opened.hash,
              createdAt: now,
              updatedAt: now,
            })
            .onConflictDoNothing(),
          paying: db
            .update(orders)
            .set({ paymentSubstatus: 'paying', paymentMethod: method, updatedAt: now })
            .where(and(eq(orders.id, order.id), eq(orders.status, 'pending_payment'))),
        },
        () => null,
      ),
      payment: read({ payment: paymentByKeySelect(db, order.id, idempotencyKey) }, ({ payment: [row] }) => row ?? null),
      afterWrite: rawRead({ pass: ride?.statements ?? [] }, ({ pass }) => pass),
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
  if (!written.payment) throw new Error(`Payment of order ${order.id} with key ${idempotencyKey} was not recorded`);
  return written.payment;
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
    expired: read({ expired: expireOverdueOrdersStatement(db, now, { userId }) }, () => null),
    order: read(
      {
        order: db
          .select()
          .from(orders)
          .where(and(eq(orders.id, orderId), eq(orders.userId, userId))),
      },
      ({ order: [row] }) => row ?? null,
    ),
    earlier: read({ payment: paymentByKeySelect(db, orderId, idempotencyKey) }, ({ payment: [row] }) => row ?? null),
    open: read({ payment: openByMethodSelect(db, orderId, method) }, ({ payment: [row] }) => row ?? null),
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
  const payment = await recordPayment(
    db,
    order,
    { provider: provider.name, ref: created.ref, method, idempotencyKey, hash },
    now,
    afterWrite,
  );
  return paymentStartOf(scope, order, sameRequestOrReused(payment, hash), where);
}
