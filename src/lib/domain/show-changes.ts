/**
 * A show's session cancelled or postponed (SPEC.md, refund rules; DESIGN.md, order states): what a
 * buyer gets back, when a postponement's refund can still be asked for, and whether a new date is
 * acceptable. Pure; src/lib/services/catalogue/show-changes.ts applies it.
 */
export const SESSION_STATUSES = ['scheduled', 'cancelled', 'postponed'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** The order amounts the refund is computed from (minor units of the order's currency). */
export interface PaidOrderAmounts {
  total: number;
  serviceFee: number;
  postage: number;
}

/**
 * What a buyer gets back when the show is cancelled, or postponed and they ask: what they paid minus
 * the platform service fee and the paper-ticket mailing fee. A coupon's part is not money; the coupon
 * itself is given back.
 */
export function showChangeRefund(order: PaidOrderAmounts): number {
  return Math.max(0, order.total - order.serviceFee - order.postage);
}

export interface SessionState {
  status: SessionStatus;
  refundUntil: number | null;
}

/** Whether a buyer of a postponed session may still ask for the refund. */
export function postponementRefundOpen(session: SessionState, now: number): boolean {
  return session.status === 'postponed' && session.refundUntil !== null && now < session.refundUntil;
}

export interface Postponement {
  startsAt: number;
  endsAt: number;
  refundUntil: number;
}

export type PostponementProblem = 'session_cancelled' | 'postpone_date_invalid' | 'refund_deadline_invalid';

/**
 * Why a postponement cannot be applied, or null: the session must not be cancelled, the new date must
 * be later than the current one and end after it starts, and buyers must have until a moment between
 * now and the new date to ask for their refund.
 */
export function postponementProblem(
  current: { status: SessionStatus; startsAt: number },
  next: Postponement,
  now: number,
): PostponementProblem | null {
  if (current.status === 'cancelled') return 'session_cancelled';
  if (next.startsAt <= current.startsAt || next.endsAt <= next.startsAt) return 'postpone_date_invalid';
  if (next.refundUntil <= now || next.refundUntil > next.startsAt) return 'refund_deadline_invalid';
  return null;
}
