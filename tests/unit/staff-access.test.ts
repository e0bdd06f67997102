import { describe, expect, it } from 'vitest';
import {
  consoleReturnPath,
  invitationRefusal,
  invitationStatus,
  leavesNoOperator,
  maskedPhone,
  passkeyNameProblem,
} from '../../src/lib/domain/staff-access.ts';

const NOW = 1_800_000_000_000;
const open = { expiresAt: NOW + 1, acceptedAt: null, revokedAt: null };

describe('an invitation', () => {
  it('can be accepted until it expires, once, unless revoked', () => {
    expect(invitationRefusal(open, NOW)).toBeNull();
    expect(invitationRefusal({ ...open, expiresAt: NOW }, NOW)).toBe('staff_invitation_expired');
    expect(invitationRefusal({ ...open, acceptedAt: NOW - 5 }, NOW)).toBe('staff_invitation_used');
    expect(invitationRefusal({ ...open, revokedAt: NOW - 5 }, NOW)).toBe('staff_invitation_revoked');
  });

  it('says revoked or used before expired, which say more', () => {
    expect(invitationRefusal({ expiresAt: NOW - 10, acceptedAt: NOW - 20, revokedAt: null }, NOW)).toBe('staff_invitation_used');
    expect(invitationRefusal({ expiresAt: NOW - 10, acceptedAt: null, revokedAt: NOW - 20 }, NOW)).toBe('staff_invitation_revoked');
  });

  it('reads as a status on the staff screen', () => {
    expect(invitationStatus(open, NOW)).toBe('open');
    expect(invitationStatus({ ...open, expiresAt: NOW - 1 }, NOW)).toBe('expired');
    expect(invitationStatus({ ...open, acceptedAt: NOW }, NOW)).toBe('accepted');
    expect(invitationStatus({ ...open, revokedAt: NOW }, NOW)).toBe('revoked');
  });
});

describe('the console sign-in sends back', () => {
  it('to console paths only, with or without a locale prefix and a query', () => {
    expect(consoleReturnPath('/ops')).toBe('/ops');
    expect(consoleReturnPath('/ops/staff?tab=1')).toBe('/ops/staff?tab=1');
    expect(consoleReturnPath('/zh-HK/ops/audit')).toBe('/zh-HK/ops/audit');
  });

  it('nowhere else: the storefront, look-alike paths, other sites', () => {
    for (const path of [
      '/',
      '/orders',
      '/opsx',
      '/ops-evil',
      '/zh-HK/orders',
      '/xx/ops',
      '//evil.example/ops',
      'https://evil.example/ops',
      '/\\evil.example',
      null,
      '',
    ]) {
      expect(consoleReturnPath(path), String(path)).toBeNull();
    }
  });
});

describe('the last operator', () => {
  it('is kept: no change may leave the marketplace without one', () => {
    expect(leavesNoOperator([1], 1, ['editor'])).toBe(true);
    expect(leavesNoOperator([1], 1, [])).toBe(true);
    expect(leavesNoOperator([1], 1, ['operator'])).toBe(false);
    expect(leavesNoOperator([1, 2], 1, [])).toBe(false);
    expect(leavesNoOperator([1], 2, [])).toBe(false);
  });
});

describe('a passkey name', () => {
  it('is required, at most 60 characters, no control characters', () => {
    expect(passkeyNameProblem('Work laptop')).toBeNull();
    expect(passkeyNameProblem('   ')).toBe('passkey_name_required');
    expect(passkeyNameProblem('鑰'.repeat(60))).toBeNull();
    expect(passkeyNameProblem('鑰'.repeat(61))).toBe('passkey_name_invalid');
    expect(passkeyNameProblem('a\u0007b')).toBe('passkey_name_invalid');
  });
});

describe('an invited phone', () => {
  it('shows only its last four digits', () => {
    expect(maskedPhone('+852', '91234567')).toBe('+852 ••••4567');
  });
});
