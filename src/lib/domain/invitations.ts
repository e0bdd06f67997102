/**
 * Invitation programme rules (SPEC.md section 1: coupons for registered friends): what an invite
 * code looks like, who may accept whose invitation, and the month the inviter's reward cap counts in.
 */
import { REWARD_MONTH_UTC_OFFSET_MS } from '../config/accounts.ts';
import { randomString } from './password.ts';

/** Invite codes are 8 characters of an alphabet without look-alikes; people type them in any case. */
const INVITE_CODE = /^[A-HJ-NP-Z2-9]{8}$/;
const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const INVITE_CODE_LENGTH = 8;

/** A new account's neutral nickname (neither its email nor its phone shows wherever nicknames are shown) and its random invite code. */
export function newAccountNames(): { nickname: string; inviteCode: string } {
  return { nickname: `User-${randomString(6, INVITE_ALPHABET)}`, inviteCode: randomString(INVITE_CODE_LENGTH, INVITE_ALPHABET) };
}

/** The code in canonical form (trimmed, upper case), or null when it cannot be an invite code. */
export function normalizeInviteCode(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const code = raw.trim().toUpperCase();
  return INVITE_CODE.test(code) ? code : null;
}

export type InvitationRefusal = 'invite_self' | 'invite_already_accepted' | 'invite_not_new_user' | 'invite_cycle';

export interface Invitee {
  id: number;
  invitedBy: number | null;
  /** Whether the invitee has paid for an order: invitations are for new users. */
  hasPaidOrder: boolean;
}

/** Why an existing account may not accept an inviter's code, or null when it may. */
export function invitationRefusal(invitee: Invitee, inviter: { id: number; invitedBy: number | null }): InvitationRefusal | null {
  if (invitee.id === inviter.id) return 'invite_self';
  if (invitee.invitedBy !== null) return 'invite_already_accepted';
  if (invitee.hasPaidOrder) return 'invite_not_new_user';
  // Two accounts inviting each other would farm both rewards twice.
  if (inviter.invitedBy === invitee.id) return 'invite_cycle';
  return null;
}

/** The last invite-coupon row whose pop-up this user has seen, from the cookie "userId.rowId" (0 when none). */
export function seenInviteCouponId(cookie: string | null | undefined, userId: number): number {
  const match = /^(\d{1,10})\.(\d{1,10})$/.exec(cookie ?? '');
  return match && Number(match[1]) === userId ? Number(match[2]) : 0;
}

/** The cookie value that marks pop-ups up to row `lastId` as seen by this user. */
export function inviteCouponSeenValue(userId: number, lastId: number): string {
  return `${userId}.${lastId}`;
}

/** When the reward month holding `now` began (epoch ms): the first of the month, 00:00 at UTC+8. */
export function rewardMonthStart(now: number, offsetMs = REWARD_MONTH_UTC_OFFSET_MS): number {
  const local = new Date(now + offsetMs);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - offsetMs;
}
