/**
 * The signature of a provider's webhook: an HMAC over the delivery time and the exact body, sent as
 * `t=<ms>,v1=<signature>`. Signing the time with the body lets the receiver refuse an old delivery
 * (a replay) without trusting a clock inside the body; the event id handles replays within the window.
 */
import { WEBHOOK_TOLERANCE_MS } from '../config/orders.ts';

export interface WebhookSignature {
  /** When the provider sent it, in ms since the epoch. */
  timestamp: number;
  signature: string;
}

const HEADER_PATTERN = /^t=(\d{1,15}),v1=([A-Za-z0-9_-]{16,128})$/;

/** The message the signature covers: the timestamp, a dot, then the body byte for byte. */
export function signedPayload(timestamp: number, body: string): string {
  return `${timestamp}.${body}`;
}

/** The header value carrying a signature. */
export function signatureHeader(signature: WebhookSignature): string {
  return `t=${signature.timestamp},v1=${signature.signature}`;
}

/** Reads a signature header; anything malformed (or missing) is null. */
export function parseSignatureHeader(header: string | null | undefined): WebhookSignature | null {
  const match = header?.trim().match(HEADER_PATTERN);
  if (!match) return null;
  return { timestamp: Number(match[1]), signature: match[2] };
}

/** Whether a delivery's time is close enough to now, in either direction (clocks drift both ways). */
export function timestampFresh(timestamp: number, now: number, toleranceMs: number = WEBHOOK_TOLERANCE_MS): boolean {
  return Math.abs(now - timestamp) <= toleranceMs;
}
