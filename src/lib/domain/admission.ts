/**
 * Admission at the gate: reading a scanned or typed entry code, whether the ticket it names lets
 * its holder in at this session, and whether this door may admit it (its seller's own door). A ticket admits once; a transferred ticket (its holder
 * resold it: the new holder has a new code) and a void one never do.
 */
import { ENTRY_CODE_PATTERN } from './ticket-code.ts';

/** Characters people type for Crockford base32 ones: I and L read as 1, O as 0. */
const LOOKALIKES: Record<string, string> = { I: '1', L: '1', O: '0' };

/**
 * The entry code in its canonical form ("7K3M-9QXD-2HFP-A8VN") from what a scanner or a person
 * typed: any case, spaces or hyphens anywhere or none, lookalike letters; null when it cannot be one.
 */
export function normalizeEntryCode(text: string): string | null {
  const compact = text
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/[ILO]/g, (char) => LOOKALIKES[char]);
  if (compact.length !== 16) return null;
  const grouped = compact.match(/.{4}/g)!.join('-');
  return ENTRY_CODE_PATTERN.test(grouped) ? grouped : null;
}

export type AdmissionRefusal = 'ticket_other_session' | 'ticket_already_used' | 'ticket_transferred' | 'ticket_void';

export interface ScannedTicket {
  status: 'pending' | 'valid' | 'used' | 'invalid' | 'transferred';
  sessionId: number;
}

/** Why the ticket does not admit at the gate of `gateSessionId`, or null when it does. */
export function admissionRefusal(ticket: ScannedTicket, gateSessionId: number): AdmissionRefusal | null {
  if (ticket.sessionId !== gateSessionId) return 'ticket_other_session';
  if (ticket.status === 'used') return 'ticket_already_used';
  if (ticket.status === 'transferred') return 'ticket_transferred';
  if (ticket.status !== 'valid') return 'ticket_void';
  return null;
}

/**
 * Whether door staff working for `sellers` (a seller's own account, or the sellers who assigned the
 * staff to this session) may admit a ticket issued by `issuerId`: one seller's door never uses up
 * another seller's tickets.
 */
export function admitsFor(sellers: readonly number[], issuerId: number): boolean {
  return sellers.includes(issuerId);
}

/** How a person names the account to add as door staff: an email, or a phone with its calling code ("+852 91234567"). */
export type StaffAccount = { kind: 'email'; email: string } | { kind: 'phone'; callingCode: string; number: string };

/** The account a seller typed, or null when it is neither an email nor "+code number". */
export function parseStaffAccount(text: string): StaffAccount | null {
  const value = text.trim();
  if (value.includes('@')) return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? { kind: 'email', email: value.toLowerCase() } : null;
  const phone = /^(\+\d{1,4})[\s-]*(\d[\d\s-]{5,16}\d)$/.exec(value);
  return phone ? { kind: 'phone', callingCode: phone[1], number: phone[2].replace(/[\s-]/g, '') } : null;
}
