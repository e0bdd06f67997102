import { describe, expect, it } from 'vitest';
import { decideHold, nextWakeAt, poisonHolds, ticketsLeft, writtenHold } from '../../src/lib/domain/session-inventory.ts';

const active = (stock: number) => ({ status: 'active', stock });

describe('tickets left', () => {
  it('are D1’s stock less the holds not yet written to it', () => {
    expect(ticketsLeft(active(100), 0)).toBe(100);
    expect(ticketsLeft(active(100), 37)).toBe(63);
  });

  it('are none on a listing that no longer sells, and never fewer than none', () => {
    expect(ticketsLeft({ status: 'withdrawn', stock: 10 }, 0)).toBe(0);
    expect(ticketsLeft({ status: 'sold_out', stock: 0 }, 0)).toBe(0);
    expect(ticketsLeft(active(2), 3)).toBe(0);
  });
});

describe('a hold', () => {
  it('is accepted whole while the tickets left cover it', () => {
    expect(decideHold(active(5), 3, 2)).toEqual({ accepted: true });
    expect(decideHold(active(1), 0, 1)).toEqual({ accepted: true });
  });

  it('is refused with what is left when they do not', () => {
    expect(decideHold(active(5), 4, 2)).toEqual({ accepted: false, available: 1 });
    expect(decideHold(active(0), 0, 1)).toEqual({ accepted: false, available: 0 });
    expect(decideHold({ status: 'closed', stock: 9 }, 0, 1)).toEqual({ accepted: false, available: 0 });
  });

  it('never lets more holds than tickets through, one at a time', () => {
    let unwritten = 0;
    const accepted = Array.from({ length: 1000 }, () => {
      const decision = decideHold(active(100), unwritten, 1);
      if (decision.accepted) unwritten += 1;
      return decision.accepted;
    });
    expect(accepted.filter(Boolean)).toHaveLength(100);
    expect(accepted.slice(0, 100).every(Boolean)).toBe(true);
  });
});

describe('a written hold', () => {
  it('is placed when D1 has its order, also one an unacknowledged flush wrote', () => {
    expect(writtenHold(true, active(0), 2, null)).toBe('placed');
  });

  it('is sold out when D1’s stock no longer covers it, or the listing is gone', () => {
    expect(writtenHold(false, active(1), 2, null)).toBe('sold_out');
    expect(writtenHold(false, { status: 'withdrawn', stock: 5 }, 2, null)).toBe('sold_out');
    expect(writtenHold(false, undefined, 1, null)).toBe('sold_out');
  });

  it('met a limit of its account when an order written since left no room for it', () => {
    expect(writtenHold(false, active(5), 2, 'waiting_room_pass_used')).toBe('waiting_room_pass_used');
    expect(writtenHold(false, active(1), 2, 'account_ticket_cap')).toBe('sold_out');
  });

  it('lost its coupon when the stock covered it and no limit was met', () => {
    expect(writtenHold(false, active(5), 2, null)).toBe('coupon_used');
  });
});

describe('the holds set aside after a failed batch', () => {
  const outcomes = [
    { key: 'a', written: true },
    { key: 'b', written: false },
    { key: 'c', written: true },
    { key: 'd', written: false },
  ];

  it('are those D1 refused alone while it still took a write', () => {
    expect(poisonHolds(outcomes, true)).toEqual(['b', 'd']);
    expect(poisonHolds([{ key: 'a', written: true }], true)).toEqual([]);
  });

  it('are none when D1 took no write: the batch waits, whole', () => {
    expect(poisonHolds(outcomes, false)).toBeNull();
    expect(poisonHolds([{ key: 'a', written: false }], false)).toBeNull();
  });
});

describe('the object’s next wake', () => {
  const now = 1_000_000;

  it('is soon while holds wait to be written', () => {
    expect(nextWakeAt({ unwrittenHolds: 2, nextDeadline: now + 60_000, now }, 1000, 10_000)).toBe(now + 1000);
  });

  it('is the next payment deadline, rounded up to the step, once all are written', () => {
    expect(nextWakeAt({ unwrittenHolds: 0, nextDeadline: 1_234_567, now }, 1000, 10_000)).toBe(1_240_000);
    expect(nextWakeAt({ unwrittenHolds: 0, nextDeadline: 1_240_000, now }, 1000, 10_000)).toBe(1_240_000);
  });

  it('is none when nothing is due', () => {
    expect(nextWakeAt({ unwrittenHolds: 0, nextDeadline: null, now }, 1000, 10_000)).toBeNull();
  });
});
