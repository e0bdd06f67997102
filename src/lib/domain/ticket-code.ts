/**
 * Tickets of an order: their numbers, and the QR code of what a voucher shows at the gate (the
 * ticket number and its rotating entry code, domain/entry-code.ts), drawn as SVG path data so the
 * server and the voucher's script draw it alike, with neither markup built from strings.
 */
import { create } from 'qrcode/lib/core/qrcode.js';
import { modulesPath } from './payment-qr.ts';

/**
 * The ticket numbers of an order: its number and each ticket's place in it ("<orderNo>-01").
 * Order numbers are unique, so ticket numbers are too, and fulfilling an order twice collides.
 */
export function ticketNumbers(orderNo: string, quantity: number): string[] {
  if (!Number.isInteger(quantity) || quantity < 1) throw new RangeError(`quantity ${quantity}`);
  const width = Math.max(2, String(quantity).length);
  return Array.from({ length: quantity }, (_, index) => `${orderNo}-${String(index + 1).padStart(width, '0')}`);
}

/** The quiet zone a scanner needs around a QR symbol, in modules (the standard asks for 4). */
export const QR_QUIET_ZONE = 4;

/**
 * The QR code of a voucher's payload, error correction M (15%: a scuffed or glaring screen still
 * scans): the viewBox side in modules, quiet zone included, and the dark modules as one SVG path.
 * A payload of digits, hyphens and a space uses the compact alphanumeric mode.
 */
export function entryQr(payload: string): { size: number; path: string } {
  const { modules } = create(payload, { errorCorrectionLevel: 'M' });
  return {
    size: modules.size + 2 * QR_QUIET_ZONE,
    path: modulesPath(modules.size, (row, col) => Boolean(modules.get(row, col)), QR_QUIET_ZONE),
  };
}
