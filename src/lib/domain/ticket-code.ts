/**
 * Tickets of an order: their numbers and the entry code a gate scans. The entry code is derived
 * from a signature of the ticket number under the app secret (services/fulfilment.ts signs), so it
 * can be shown again whenever the voucher opens and is never stored: the database keeps only its
 * SHA-256, which is what a gate looks a scanned code up by. The voucher shows the code as a QR
 * code, drawn here as path data so the page needs neither script nor markup built from strings.
 */
import { create } from 'qrcode/lib/core/qrcode.js';
import { modulesPath } from './payment-qr.ts';

/** Crockford's base32: no I, L, O or U, so a code read aloud or typed is not mistaken. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 4;
/** 16 characters of 5 bits: 80 bits of the signature, far beyond guessing at a gate. */
const CODE_BITS = GROUPS * GROUP_LENGTH * 5;

/** What an entry code looks like: four groups of four Crockford base32 characters. */
export const ENTRY_CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}(?:-[0-9A-HJKMNP-TV-Z]{4}){3}$/;

/**
 * The ticket numbers of an order: its number and each ticket's place in it ("<orderNo>-01").
 * Order numbers are unique, so ticket numbers are too, and fulfilling an order twice collides.
 */
export function ticketNumbers(orderNo: string, quantity: number): string[] {
  if (!Number.isInteger(quantity) || quantity < 1) throw new RangeError(`quantity ${quantity}`);
  const width = Math.max(2, String(quantity).length);
  return Array.from({ length: quantity }, (_, index) => `${orderNo}-${String(index + 1).padStart(width, '0')}`);
}

function base64urlBytes(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new TypeError('not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * The entry code a ticket's signature (base64url HMAC) stands for: its first 80 bits in Crockford
 * base32, in groups of four ("7K3M-9QXD-2HFP-A8VN"). Upper case and digits only, so its QR code
 * uses the compact alphanumeric mode.
 */
export function entryCodeFromSignature(signature: string): string {
  const bytes = base64urlBytes(signature);
  if (bytes.length * 8 < CODE_BITS) throw new RangeError('signature too short');
  let characters = '';
  for (let bit = 0; bit < CODE_BITS; bit += 5) {
    const byte = bit >> 3;
    // Five bits starting at `bit`, read across at most two bytes.
    const window = (bytes[byte] << 8) | (bytes[byte + 1] ?? 0);
    characters += CROCKFORD[(window >> (11 - (bit & 7))) & 31];
  }
  const groups = characters.match(new RegExp(`.{${GROUP_LENGTH}}`, 'g'))!;
  return groups.join('-');
}

/** The quiet zone a scanner needs around a QR symbol, in modules (the standard asks for 4). */
export const QR_QUIET_ZONE = 4;

/**
 * The QR code of an entry code, error correction M (15%: a scuffed or glaring screen still scans):
 * the viewBox side in modules, quiet zone included, and the dark modules as one SVG path.
 */
export function entryQr(code: string): { size: number; path: string } {
  const { modules } = create(code, { errorCorrectionLevel: 'M' });
  return {
    size: modules.size + 2 * QR_QUIET_ZONE,
    path: modulesPath(modules.size, (row, col) => Boolean(modules.get(row, col)), QR_QUIET_ZONE),
  };
}
