/**
 * Admission at the gate: whether the ticket a scan names lets its holder in at this session,
 * whether this door may admit it (its seller's own door), and the same decision on a door device
 * without signal, from the tickets it synced. A ticket admits once; a transferred ticket (its
 * holder resold it: the new holder has a new ticket and secret) and a void one never do; a code
 * older than the skew window (a screenshot) is refused (domain/entry-code.ts).
 */
import { entryCodeValid } from './entry-code.ts';

export type AdmissionRefusal = 'ticket_other_session' | 'ticket_already_used' | 'ticket_transferred' | 'ticket_void';

export type TicketStatus = 'pending' | 'valid' | 'used' | 'invalid' | 'transferred';

export interface ScannedTicket {
  status: TicketStatus;
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

/** How many characters of an ID number the door sees: enough to match the document in hand, not enough to copy it. */
const ID_ENDING_LENGTH = 4;

/** The end of an attendee's ID number, for the photo-ID check at the door; the rest stays hidden. */
export function idNumberEnding(idCardNo: string): string {
  return idCardNo.slice(-ID_ENDING_LENGTH);
}

/** A ticket as a door device keeps it after syncing its session (services/gate/admission.ts `doorSync`). */
export interface DoorTicket {
  ticketNo: string;
  /** The entry secret of a valid ticket; null once it cannot admit. */
  secret: string | null;
  status: TicketStatus;
  seat: string | null;
  tier: string;
  /** The real-name attendee of the ticket, for the photo-ID check; null when the show is not real-name. */
  attendee: { name: string; idType: 'passport' | 'id_card'; idEnding: string } | null;
  /** When the ticket was admitted, if it was. */
  admittedAt: number | null;
}

/**
 * Why a door device refuses a ticket on its own: the server's refusals, a ticket it never synced, a
 * stale code, or a real-name ticket in a copy synced before attendee changes closed.
 */
export type OfflineRefusal =
  | Exclude<AdmissionRefusal, 'ticket_other_session'>
  | 'ticket_not_found'
  | 'entry_code_expired'
  | 'ticket_synced_before_name_changes';

/** When the device's copy was made, and when the session's attendee changes close (both null before a sync). */
export interface DoorCopy {
  syncedAt: number | null;
  namesFinalAt: number | null;
}

/**
 * What a door device without signal decides for a synced ticket: `code` is the scanned code, or
 * null for the photo-ID check by ticket number; `admittedHere` is when this device admitted it
 * offline, if it did. The server has the last word when the device uploads (one admission per ticket).
 * An approved attendee change replaces a real-name ticket's secret, so such a ticket is admitted
 * offline only from a copy synced after changes closed, which holds every replacement.
 */
export async function offlineRefusal(
  ticket: DoorTicket | undefined,
  code: string | null,
  admittedHere: number | undefined,
  now: number,
  copy: DoorCopy,
): Promise<OfflineRefusal | null> {
  if (!ticket) return 'ticket_not_found';
  if (admittedHere !== undefined || ticket.status === 'used') return 'ticket_already_used';
  if (ticket.status === 'transferred') return 'ticket_transferred';
  if (ticket.status !== 'valid' || !ticket.secret) return 'ticket_void';
  if (ticket.attendee && !namesFinalIn(copy)) return 'ticket_synced_before_name_changes';
  if (code !== null && !(await entryCodeValid(ticket.secret, code, now))) return 'entry_code_expired';
  return null;
}

/** Whether the copy was synced once attendee changes had closed, so its real-name tickets' secrets are final. */
export function namesFinalIn(copy: DoorCopy): boolean {
  return copy.syncedAt !== null && copy.namesFinalAt !== null && copy.syncedAt >= copy.namesFinalAt;
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
