import { describe, expect, it } from 'vitest';
import type { DoorTicket } from '../../src/lib/domain/admission.ts';
import { synced, withAdmitted, type DoorState } from '../../src/islands/gate/door-device.ts';

const ticket = (ticketNo: string): DoorTicket => ({
  ticketNo,
  secret: `secret-${ticketNo}`,
  status: 'valid',
  seat: null,
  tier: 'VIP',
  attendee: null,
  admittedAt: null,
});

describe("a door device's copy of its session", () => {
  it('marks a ticket admitted, without its secret, and leaves an unknown ticket alone', () => {
    const state: DoorState = { syncedAt: 1, namesFinalAt: 0, timeZone: 'Asia/Hong_Kong', tickets: { 'A-01': ticket('A-01') }, pending: [] };
    const admitted = withAdmitted(state, 'A-01', 500);
    expect(admitted.tickets['A-01']).toMatchObject({ status: 'used', secret: null, admittedAt: 500 });
    expect(state.tickets['A-01'].status).toBe('valid');
    expect(withAdmitted(state, 'B-01', 500)).toBe(state);
  });

  it('keeps the admissions still waiting to upload applied over a fresh sync', () => {
    const waiting = { ticketNo: 'A-01', admittedAt: 700, method: 'code' as const };
    const before: DoorState = { syncedAt: 1, namesFinalAt: 0, timeZone: 'Asia/Taipei', tickets: {}, pending: [waiting] };
    const after = synced(before, { syncedAt: 900, namesFinalAt: 800, timeZone: 'Asia/Taipei', tickets: [ticket('A-01'), ticket('A-02')] });
    expect(after).toMatchObject({ syncedAt: 900, namesFinalAt: 800 });
    expect(after.pending).toEqual([waiting]);
    expect(after.tickets['A-01']).toMatchObject({ status: 'used', admittedAt: 700, secret: null });
    expect(after.tickets['A-02']).toMatchObject({ status: 'valid', secret: 'secret-A-02' });
  });
});
