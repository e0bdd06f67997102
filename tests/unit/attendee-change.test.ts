import { describe, expect, it } from 'vitest';
import { ATTENDEE_CHANGE_CUTOFF_MS } from '../../src/lib/config/orders.ts';
import { attendeeChangeDeadline, attendeeChangeRefusal, ticketChangeable } from '../../src/lib/domain/attendee-change.ts';

const HOUR = 3600 * 1000;
const startsAt = Date.UTC(2026, 11, 12, 12);
const paid = { realName: true, status: 'pending_receipt' as const, sessionStartsAt: startsAt };

describe('attendee change cut-off', () => {
  it('is 48 hours before the show', () => {
    expect(ATTENDEE_CHANGE_CUTOFF_MS).toBe(48 * HOUR);
    expect(attendeeChangeDeadline(startsAt)).toBe(startsAt - 48 * HOUR);
  });

  it('allows a change up to the last millisecond before the cut-off, not at it or after', () => {
    const deadline = attendeeChangeDeadline(startsAt);
    expect(attendeeChangeRefusal(paid, deadline - 30 * 24 * HOUR)).toBeNull();
    expect(attendeeChangeRefusal(paid, deadline - 1)).toBeNull();
    expect(attendeeChangeRefusal(paid, deadline)).toBe('attendee_change_closed');
    expect(attendeeChangeRefusal(paid, startsAt + HOUR)).toBe('attendee_change_closed');
  });

  it('needs a real-name order, paid and still open', () => {
    const early = startsAt - 10 * 24 * HOUR;
    expect(attendeeChangeRefusal({ ...paid, realName: false }, early)).toBe('attendee_change_not_real_name');
    for (const status of ['pending_ticketing', 'pending_receipt', 'completed'] as const) {
      expect(attendeeChangeRefusal({ ...paid, status }, early)).toBeNull();
    }
    for (const status of ['pending_payment', 'cancelled', 'refunded'] as const) {
      expect(attendeeChangeRefusal({ ...paid, status }, early)).toBe('attendee_change_not_paid');
    }
    // A show without real names says so first, whatever the order's state or the time.
    expect(attendeeChangeRefusal({ ...paid, realName: false, status: 'cancelled' }, startsAt)).toBe('attendee_change_not_real_name');
  });

  it('changes only a ticket that still admits, or one not yet issued', () => {
    expect(ticketChangeable(null)).toBe(true);
    expect(ticketChangeable('valid')).toBe(true);
    for (const status of ['pending', 'used', 'invalid', 'transferred'] as const) expect(ticketChangeable(status)).toBe(false);
  });
});
