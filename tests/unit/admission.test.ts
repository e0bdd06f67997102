import { describe, expect, it } from 'vitest';
import { ENTRY_CODE_STEP_SECONDS } from '../../src/lib/config/gate.ts';
import { ATTENDEE_CHANGE_CUTOFF_MS } from '../../src/lib/config/orders.ts';
import {
  admissionRefusal,
  admitsFor,
  type DoorTicket,
  idNumberEnding,
  offlineRefusal,
  parseStaffAccount,
} from '../../src/lib/domain/admission.ts';
import { currentEntryCode } from '../../src/lib/domain/entry-code.ts';

describe('admissionRefusal', () => {
  it('admits a valid ticket of this session once', () => {
    expect(admissionRefusal({ status: 'valid', sessionId: 7 }, 7)).toBeNull();
    expect(admissionRefusal({ status: 'used', sessionId: 7 }, 7)).toBe('ticket_already_used');
  });

  it('refuses a ticket of another session before anything else', () => {
    expect(admissionRefusal({ status: 'valid', sessionId: 8 }, 7)).toBe('ticket_other_session');
    expect(admissionRefusal({ status: 'used', sessionId: 8 }, 7)).toBe('ticket_other_session');
  });

  it('refuses a resold ticket and a void one', () => {
    expect(admissionRefusal({ status: 'transferred', sessionId: 7 }, 7)).toBe('ticket_transferred');
    expect(admissionRefusal({ status: 'invalid', sessionId: 7 }, 7)).toBe('ticket_void');
    expect(admissionRefusal({ status: 'pending', sessionId: 7 }, 7)).toBe('ticket_void');
  });
});

describe('door staff', () => {
  it('admit only the tickets of the sellers they work for', () => {
    expect(admitsFor([7], 7)).toBe(true);
    expect(admitsFor([7, 9], 9)).toBe(true);
    expect(admitsFor([7], 8)).toBe(false);
    expect(admitsFor([], 7)).toBe(false);
  });

  it('are named by an email, or a phone with its calling code', () => {
    expect(parseStaffAccount('  Door@Example.COM ')).toEqual({ kind: 'email', email: 'door@example.com' });
    expect(parseStaffAccount('+852 9123 4567')).toEqual({ kind: 'phone', callingCode: '+852', number: '91234567' });
    expect(parseStaffAccount('+86-138-0013-8000')).toEqual({ kind: 'phone', callingCode: '+86', number: '13800138000' });
    for (const text of ['door', 'door@example', '91234567', '+852', '@example.com', '+852 12'])
      expect(parseStaffAccount(text), text).toBeNull();
  });
});

describe('the door device without signal', () => {
  const secret = Buffer.from('12345678901234567890123456789012').toString('base64url');
  const now = Date.UTC(2026, 10, 1, 12, 0, 7);
  const ticket: DoorTicket = { ticketNo: '2026-01', secret, status: 'valid', seat: null, tier: 'VIP', attendee: null, admittedAt: null };
  /** A copy synced on the show's day, after attendee changes closed. */
  const copy = { syncedAt: now - 3_600_000, namesFinalAt: now - ATTENDEE_CHANGE_CUTOFF_MS };

  it('admits a synced valid ticket by its current code, or after an ID check by its number alone', async () => {
    expect(await offlineRefusal(ticket, await currentEntryCode(secret, now), undefined, now, copy)).toBeNull();
    expect(await offlineRefusal(ticket, null, undefined, now, copy)).toBeNull();
  });

  it('refuses a code older than the window (a screenshot), a second scan, and what it never synced', async () => {
    const screenshot = await currentEntryCode(secret, now - 2 * ENTRY_CODE_STEP_SECONDS * 1000);
    expect(await offlineRefusal(ticket, screenshot, undefined, now, copy)).toBe('entry_code_expired');
    expect(await offlineRefusal(ticket, await currentEntryCode(secret, now), now - 1000, now, copy)).toBe('ticket_already_used');
    expect(await offlineRefusal({ ...ticket, status: 'used', secret: null, admittedAt: now - 60_000 }, null, undefined, now, copy)).toBe(
      'ticket_already_used',
    );
    expect(await offlineRefusal(undefined, '123456', undefined, now, copy)).toBe('ticket_not_found');
  });

  it('refuses a resold ticket and a void one, whatever the code', async () => {
    const code = await currentEntryCode(secret, now);
    expect(await offlineRefusal({ ...ticket, status: 'transferred', secret: null }, code, undefined, now, copy)).toBe('ticket_transferred');
    expect(await offlineRefusal({ ...ticket, status: 'invalid', secret: null }, code, undefined, now, copy)).toBe('ticket_void');
  });

  it('admits a real-name ticket only from a copy synced after attendee changes closed, which holds every replaced code', async () => {
    const named: DoorTicket = { ...ticket, attendee: { name: 'Chan Tai Man', idType: 'id_card', idEnding: '4567' } };
    const code = await currentEntryCode(secret, now);
    expect(await offlineRefusal(named, code, undefined, now, copy)).toBeNull();
    expect(await offlineRefusal(named, null, undefined, now, { ...copy, syncedAt: copy.namesFinalAt })).toBeNull();
    const early = { ...copy, syncedAt: copy.namesFinalAt - 1 };
    expect(await offlineRefusal(named, code, undefined, now, early)).toBe('ticket_synced_before_name_changes');
    expect(await offlineRefusal(named, null, undefined, now, early)).toBe('ticket_synced_before_name_changes');
    expect(await offlineRefusal(named, code, undefined, now, { syncedAt: null, namesFinalAt: null })).toBe(
      'ticket_synced_before_name_changes',
    );
    // A ticket without a named attendee never changes hands this way.
    expect(await offlineRefusal(ticket, code, undefined, now, early)).toBeNull();
  });

  it('shows the door only the end of an ID number', () => {
    expect(idNumberEnding('A1234567')).toBe('4567');
    expect(idNumberEnding('X9')).toBe('X9');
  });
});
