import { describe, expect, it } from 'vitest';
import { postponementProblem, postponementRefundOpen, showChangeRefund } from '../../src/lib/domain/show-changes.ts';

const HOUR = 3_600_000;

describe('the refund of a cancelled or postponed show', () => {
  it('is what was paid minus the service fee and the mailing fee', () => {
    expect(showChangeRefund({ total: 80_600, serviceFee: 3_600, postage: 2_000 })).toBe(75_000);
    expect(showChangeRefund({ total: 40_000, serviceFee: 2_000, postage: 0 })).toBe(38_000);
  });

  it('is never negative when a coupon paid most of it', () => {
    expect(showChangeRefund({ total: 1_000, serviceFee: 3_600, postage: 2_000 })).toBe(0);
  });
});

describe('a postponement', () => {
  const now = Date.UTC(2026, 10, 25);
  const current = { status: 'scheduled' as const, startsAt: now + 10 * 24 * HOUR };
  const later = { startsAt: now + 40 * 24 * HOUR, endsAt: now + 40 * 24 * HOUR + 3 * HOUR, refundUntil: now + 30 * 24 * HOUR };

  it('moves the show later, with a refund deadline between now and the new date', () => {
    expect(postponementProblem(current, later, now)).toBeNull();
    expect(postponementProblem({ ...current, status: 'postponed' }, later, now)).toBeNull();
  });

  it('refuses a cancelled session, an earlier date and a deadline outside the window', () => {
    expect(postponementProblem({ ...current, status: 'cancelled' }, later, now)).toBe('session_cancelled');
    expect(postponementProblem(current, { ...later, startsAt: current.startsAt }, now)).toBe('postpone_date_invalid');
    expect(postponementProblem(current, { ...later, endsAt: later.startsAt }, now)).toBe('postpone_date_invalid');
    expect(postponementProblem(current, { ...later, refundUntil: now }, now)).toBe('refund_deadline_invalid');
    expect(postponementProblem(current, { ...later, refundUntil: later.startsAt + 1 }, now)).toBe('refund_deadline_invalid');
  });

  it('lets buyers ask for the refund only until its deadline', () => {
    const postponed = { status: 'postponed' as const, refundUntil: now + HOUR };
    expect(postponementRefundOpen(postponed, now)).toBe(true);
    expect(postponementRefundOpen(postponed, now + HOUR)).toBe(false);
    expect(postponementRefundOpen({ status: 'scheduled', refundUntil: null }, now)).toBe(false);
  });
});
