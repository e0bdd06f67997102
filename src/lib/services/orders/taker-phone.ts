/**
 * Confirming a pickup taker's number (domain/taker-phone.ts): the buyer asks for a code sent to it
 * by SMS, with the sign-in codes' send limits, and types back what the taker tells them. The
 * confirmed order's pickup details then go to the taker (migrations/0029's triggers).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { orders } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { takerCodeKey, takerPhoneToConfirm } from '../../domain/taker-phone.ts';
import { type AuthDeps, checkCode, issueCode } from '../accounts/codes.ts';

/** The buyer's order with a taker number still to confirm, and that number's code key; else a refusal. */
async function pendingTaker(deps: AuthDeps, userId: number, orderId: number) {
  const [order] = await deps.db
    .select({
      id: orders.id,
      orderNo: orders.orderNo,
      status: orders.status,
      takerPhone: orders.takerPhone,
      takerPhoneConfirmedAt: orders.takerPhoneConfirmedAt,
    })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) throw new DomainError('order_not_found');
  const takerPhone = takerPhoneToConfirm(order);
  if (takerPhone === null) throw new DomainError('taker_phone_not_pending');
  return { id: order.id, orderNo: order.orderNo, takerPhone, key: takerCodeKey(order.id, takerPhone) };
}

/** Sends a code to the order's taker number, counted against that number's and this client's send limits. */
export async function sendTakerPhoneCode(deps: AuthDeps, userId: number, orderId: number): Promise<void> {
  const order = await pendingTaker(deps, userId, orderId);
  const address = { channel: 'sms', to: order.takerPhone, key: order.key, limited: order.takerPhone } as const;
  await issueCode(deps, address, 'taker_phone', (code, minutes) => ({
    subject: deps.t('orders.taker.codeSubject'),
    text: deps.t('orders.taker.codeSms', { code, minutes, orderNo: order.orderNo }),
  }));
}

/** Confirms the order's taker number with the code sent to it; each guess uses one of the code's attempts. */
export async function confirmTakerPhone(deps: AuthDeps, userId: number, orderId: number, code: string): Promise<void> {
  const order = await pendingTaker(deps, userId, orderId);
  await checkCode(deps, order.key, 'taker_phone', code, true);
  await deps.db
    .update(orders)
    .set({ takerPhoneConfirmedAt: deps.now, updatedAt: deps.now })
    .where(and(eq(orders.id, order.id), isNull(orders.takerPhoneConfirmedAt)));
}
