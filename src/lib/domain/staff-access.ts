/**
 * The rules of staff access: when an invitation can still be accepted, where the console's sign-in
 * may send someone back to, that the marketplace always keeps an operator, and a passkey's name.
 */
import type { StaffRole } from './staff.ts';
import { hasControlCharacter } from './text.ts';
import { safeRedirect } from './validation.ts';
import { LOCALES } from '../i18n/locales.ts';
import { PASSKEY_NAME_MAX_LENGTH } from '../config/staff.ts';

export interface InvitationState {
  expiresAt: number;
  acceptedAt: number | null;
  revokedAt: number | null;
}

/** Why an invitation can no longer be accepted. */
export type StaffInvitationRefusal = 'staff_invitation_revoked' | 'staff_invitation_used' | 'staff_invitation_expired';

/** Null while the invitation can be accepted; else why not (revoked and used win over expired: they say more). */
export function invitationRefusal(invitation: InvitationState, now: number): StaffInvitationRefusal | null {
  if (invitation.revokedAt !== null) return 'staff_invitation_revoked';
  if (invitation.acceptedAt !== null) return 'staff_invitation_used';
  if (invitation.expiresAt <= now) return 'staff_invitation_expired';
  return null;
}

/** What the staff screen calls an invitation. */
export type InvitationStatus = 'open' | 'revoked' | 'accepted' | 'expired';

export function invitationStatus(invitation: InvitationState, now: number): InvitationStatus {
  const refusal = invitationRefusal(invitation, now);
  if (refusal === 'staff_invitation_revoked') return 'revoked';
  if (refusal === 'staff_invitation_used') return 'accepted';
  return refusal === 'staff_invitation_expired' ? 'expired' : 'open';
}

const CONSOLE_PATH = /^\/ops(?:[/?#]|$)/;

/**
 * Where the console's sign-in goes back to: a same-site path into the console (`/ops…`, or with a
 * locale prefix, `/zh-HK/ops…`), else null. Anything else, the storefront included, is no place a
 * staff sign-in was sent from.
 */
export function consoleReturnPath(value: string | null | undefined): string | null {
  const path = safeRedirect(value);
  if (!path) return null;
  const locale = LOCALES.find((candidate) => path.startsWith(`/${candidate}/`));
  return CONSOLE_PATH.test(locale ? path.slice(locale.length + 1) : path) ? path : null;
}

/**
 * Whether a change of one member's roles leaves the marketplace without an operator: `operators`
 * are today's, `userId` the member changed, `rolesAfter` theirs after the change (none: removed).
 */
export function leavesNoOperator(operators: readonly number[], userId: number, rolesAfter: readonly StaffRole[]): boolean {
  if (rolesAfter.includes('operator')) return false;
  return operators.every((operator) => operator === userId);
}

/** Problem with a passkey's name, or null. */
export function passkeyNameProblem(value: string): 'passkey_name_required' | 'passkey_name_invalid' | null {
  const name = value.trim();
  if (name === '') return 'passkey_name_required';
  return [...name].length > PASSKEY_NAME_MAX_LENGTH || hasControlCharacter(name) ? 'passkey_name_invalid' : null;
}

/** A phone as an invitation page shows it to whoever holds the link: the calling code and the last digits only. */
export function maskedPhone(callingCode: string, number: string): string {
  const digits = number.replace(/\D/g, '');
  return `${callingCode} ${'•'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}
