/**
 * The entry secret of an e-ticket, from which its rotating entry code is computed (domain/entry-code.ts).
 *
 * The gate must check codes, so the server needs each secret; rather than keep them in the database
 * it derives them: secret = HMAC-SHA256(app secret, ticket number + the ticket's entry nonce). The
 * nonce is random and stored in the clear, but is worth nothing without the app secret, so a copy
 * of the database (a backup, a leaked export) gives no one a working code. Giving a ticket a new
 * nonce gives it a new secret at once, which is how a reissued ticket's old codes stop admitting
 * (a resold ticket is a new ticket with its own nonce; a ticket reissued in place is given a
 * `newEntryNonce()`). The secret leaves the server only on the voucher (behind its signed
 * link) and to the door devices of the ticket's own seller (services/gate/admission.ts).
 */
import type { ServiceEnv } from '../platform/env.ts';
import { signerFor } from '../platform/secrets.ts';

const PURPOSE = 'entry';

/** A fresh entry nonce: 128 random bits in hex. */
export function newEntryNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The entry secret (base64url, 32 bytes) of each ticket given to the function answered, by its number and nonce. */
export async function entrySecrets(env: ServiceEnv): Promise<(ticketNo: string, entryNonce: string) => Promise<string>> {
  const sign = await signerFor(env, PURPOSE);
  return (ticketNo, entryNonce) => sign(`${ticketNo}:${entryNonce}`);
}
