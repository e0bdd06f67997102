import { describe, expect, it } from 'vitest';
import { invitationRefusal, inviteCouponSeenValue, normalizeInviteCode, seenInviteCouponId } from '../../src/lib/domain/invitations.ts';

describe('normalizeInviteCode', () => {
  it('accepts 8 characters of the invite alphabet in any case, trimmed', () => {
    expect(normalizeInviteCode('ABCD2345')).toBe('ABCD2345');
    expect(normalizeInviteCode('  abcd2345 ')).toBe('ABCD2345');
  });

  it('refuses look-alike characters, other lengths and non-strings', () => {
    expect(normalizeInviteCode('ABCD2340')).toBeNull();
    expect(normalizeInviteCode('ABCDI234')).toBeNull();
    expect(normalizeInviteCode('ABCDO234')).toBeNull();
    expect(normalizeInviteCode('ABC2345')).toBeNull();
    expect(normalizeInviteCode('ABCD23456')).toBeNull();
    expect(normalizeInviteCode("ABCD'--1")).toBeNull();
    expect(normalizeInviteCode('')).toBeNull();
    expect(normalizeInviteCode(null)).toBeNull();
    expect(normalizeInviteCode(undefined)).toBeNull();
  });
});

describe('invitationRefusal', () => {
  const newUser = { id: 2, invitedBy: null, hasPaidOrder: false };
  const inviter = { id: 1, invitedBy: null };

  it('lets a new, uninvited account accept another user', () => {
    expect(invitationRefusal(newUser, inviter)).toBeNull();
  });

  it("refuses one's own code first", () => {
    expect(invitationRefusal({ ...newUser, id: 1 }, inviter)).toBe('invite_self');
    expect(invitationRefusal({ id: 1, invitedBy: 3, hasPaidOrder: true }, { id: 1, invitedBy: 3 })).toBe('invite_self');
  });

  it('refuses a second invitation, a buyer, and a friend one invited', () => {
    expect(invitationRefusal({ ...newUser, invitedBy: 5 }, inviter)).toBe('invite_already_accepted');
    expect(invitationRefusal({ ...newUser, hasPaidOrder: true }, inviter)).toBe('invite_not_new_user');
    expect(invitationRefusal(newUser, { id: 1, invitedBy: 2 })).toBe('invite_cycle');
  });
});

describe('the invite-coupon pop-up mark', () => {
  it('round-trips the last shown row for its user only', () => {
    expect(seenInviteCouponId(inviteCouponSeenValue(7, 42), 7)).toBe(42);
    expect(seenInviteCouponId(inviteCouponSeenValue(7, 42), 8)).toBe(0);
  });

  it('treats a missing or malformed cookie as nothing shown', () => {
    expect(seenInviteCouponId(undefined, 7)).toBe(0);
    expect(seenInviteCouponId('7', 7)).toBe(0);
    expect(seenInviteCouponId('7.x', 7)).toBe(0);
    expect(seenInviteCouponId('7.42.1', 7)).toBe(0);
  });
});
