/**
 * Admission at the gate: reading a scanned or typed entry code, and whether the ticket it names
 * lets its holder in at this session. A ticket admits once; a transferred ticket (its holder
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
  const compact = text.toUpperCase().replace(/[\s-]/g, '').replace(/[ILO]/g, (char) => LOOKALIKES[char]);
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
