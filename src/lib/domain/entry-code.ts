/**
 * The rotating entry code of an e-ticket: a time-based one-time password (RFC 6238 TOTP over the
 * HOTP of RFC 4226) from the ticket's entry secret and the clock, so a screenshot stops admitting
 * within a step or two. The voucher computes it on the holder's phone and the gate checks it, on
 * the server or on a door device that synced the secrets, all with Web Crypto and no network.
 * What the QR code carries is the ticket number and the current code ("<ticketNo> <code>"); a
 * ticket number alone is what door staff type for the photo-ID check.
 */
import { ENTRY_CODE_DIGITS, ENTRY_CODE_SKEW_STEPS, ENTRY_CODE_STEP_SECONDS } from '../config/gate.ts';

export type TotpHash = 'SHA-1' | 'SHA-256' | 'SHA-512';

export interface TotpParams {
  stepSeconds: number;
  digits: number;
  hash: TotpHash;
}

/** The entry code's parameters: SHA-256 (the entry secret is a 32-byte HMAC-SHA256), with the step and length of config/gate.ts. */
export const ENTRY_TOTP: TotpParams = { stepSeconds: ENTRY_CODE_STEP_SECONDS, digits: ENTRY_CODE_DIGITS, hash: 'SHA-256' };

/** The bytes of a base64url text (an entry secret as the voucher and the gate sync carry it). */
export function base64urlBytes(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new TypeError('not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** The time step a moment falls in (RFC 6238's T: whole steps since the Unix epoch). */
export function timeStep(timeMs: number, stepSeconds: number): number {
  return Math.floor(timeMs / 1000 / stepSeconds);
}

/** Milliseconds until the code of `timeMs` changes, for the voucher's countdown. */
export function msUntilNextStep(timeMs: number, stepSeconds: number): number {
  const stepMs = stepSeconds * 1000;
  return stepMs - (((timeMs % stepMs) + stepMs) % stepMs);
}

/** HOTP (RFC 4226): the `digits`-digit code of a counter, by HMAC and dynamic truncation. */
export async function hotp(key: Uint8Array<ArrayBuffer>, counter: number, digits: number, hash: TotpHash): Promise<string> {
  if (!Number.isSafeInteger(counter) || counter < 0) throw new RangeError(`counter ${counter}`);
  if (!Number.isInteger(digits) || digits < 6 || digits > 9) throw new RangeError(`digits ${digits}`);
  const message = new DataView(new ArrayBuffer(8));
  // The counter is 8 bytes big-endian; a safe integer needs more than 32 bits, so it goes in two halves.
  message.setUint32(0, Math.floor(counter / 2 ** 32));
  message.setUint32(4, counter >>> 0);
  const hmacKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, message.buffer));
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** TOTP (RFC 6238): the code of the step `timeMs` falls in. */
export function totp(key: Uint8Array<ArrayBuffer>, timeMs: number, params: TotpParams): Promise<string> {
  return hotp(key, timeStep(timeMs, params.stepSeconds), params.digits, params.hash);
}

/** Equal strings, compared without stopping at the first difference (a code is a secret while it is current). */
function sameCode(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * Which step within `skewSteps` of `timeMs` the code belongs to, as an offset (-1 a step behind,
 * 0 current, +1 ahead), or null when it is none of them: older than the window (a screenshot or a
 * code noted down) or not this ticket's.
 */
export async function matchingStep(
  key: Uint8Array<ArrayBuffer>,
  code: string,
  timeMs: number,
  params: TotpParams,
  skewSteps: number,
): Promise<number | null> {
  const current = timeStep(timeMs, params.stepSeconds);
  let matched: number | null = null;
  // Every step of the window is computed, so the answer's timing does not tell which one matched.
  for (let offset = -skewSteps; offset <= skewSteps; offset++) {
    if (current + offset < 0) continue;
    if (sameCode(await hotp(key, current + offset, params.digits, params.hash), code) && matched === null) matched = offset;
  }
  return matched;
}

/** Whether `code` admits the holder of the entry secret `secret` at `timeMs` (the entry parameters and skew window of config/gate.ts). */
export async function entryCodeValid(secret: string, code: string, timeMs: number): Promise<boolean> {
  return (await matchingStep(base64urlBytes(secret), code, timeMs, ENTRY_TOTP, ENTRY_CODE_SKEW_STEPS)) !== null;
}

/** The current entry code of a ticket's secret. */
export function currentEntryCode(secret: string, timeMs: number): Promise<string> {
  return totp(base64urlBytes(secret), timeMs, ENTRY_TOTP);
}

/** What the voucher's QR code carries: the ticket number and its current code. */
export function entryPayload(ticketNo: string, code: string): string {
  return `${ticketNo} ${code}`;
}

/** A ticket number: an order number and the ticket's place in it ("2026110112345-01"). */
const TICKET_NO_PATTERN = /^[0-9A-Z]+(?:-[0-9A-Z]+)+$/;
const TICKET_NO_MAX_LENGTH = 48;

/** What door staff scanned or typed: a voucher's QR code (ticket number and code) or a ticket number alone (the photo-ID check). */
export type EntryScan = { kind: 'code'; ticketNo: string; code: string } | { kind: 'ticket'; ticketNo: string };

/** The scan in `text` (any case, extra spaces, a slash instead of the space), or null when it is neither form. */
export function parseEntryScan(text: string, digits = ENTRY_CODE_DIGITS): EntryScan | null {
  const parts = text
    .trim()
    .toUpperCase()
    .split(/[\s/]+/);
  const ticketNo = parts[0];
  if (!ticketNo || ticketNo.length > TICKET_NO_MAX_LENGTH || !TICKET_NO_PATTERN.test(ticketNo)) return null;
  if (parts.length === 1) return { kind: 'ticket', ticketNo };
  if (parts.length === 2 && new RegExp(`^\\d{${digits}}$`).test(parts[1])) return { kind: 'code', ticketNo, code: parts[1] };
  return null;
}
