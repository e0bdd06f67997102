import { describe, expect, it } from 'vitest';
import { admissionRefusal, admitsFor, normalizeEntryCode, parseStaffAccount } from '../../src/lib/domain/admission.ts';

describe('normalizeEntryCode', () => {
  it('accepts the code as shown, typed in lower case, without hyphens or with spaces', () => {
    for (const typed of ['7K3M-9QXD-2HFP-A8VN', '7k3m-9qxd-2hfp-a8vn', '7K3M9QXD2HFPA8VN', ' 7K3M 9QXD 2HFP A8VN ']) {
      expect(normalizeEntryCode(typed), typed).toBe('7K3M-9QXD-2HFP-A8VN');
    }
  });

  it('reads the letters people mistake for digits as those digits', () => {
    expect(normalizeEntryCode('OOOO-IIII-LLLL-0000')).toBe('0000-1111-1111-0000');
  });

  it('refuses anything that cannot be a code', () => {
    for (const typed of ['', '7K3M-9QXD-2HFP', '7K3M-9QXD-2HFP-A8VNX', '7K3M-9QXD-2HFP-A8VU', '<script>', '7K3M_9QXD_2HFP_A8VN']) {
      expect(normalizeEntryCode(typed), typed).toBeNull();
    }
  });
});

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
