/** Which client a per-client rate limit (and a captcha challenge) counts a request against. */

export interface ClientProofs {
  /** The connecting address Cloudflare's edge sets on every request it forwards; null when absent. */
  address: string | null;
  /** The SHA-256 of the session token the request carries, when signed in. */
  sessionTokenHash: string | null;
  /** The browser's device id, issued on the spot when it has none (so only asked for when needed). */
  deviceId: () => string;
}

/**
 * The connecting address when there is one. Without it (a request that did not come through the
 * edge) never one key for every client, or one abuser would lock everyone out: the session, which
 * the client cannot choose, else its device id, which a browser keeps, so its captcha still matches.
 * A client that keeps no cookie gets a new key each request: per-client limits cannot hold it, but
 * the per-account and per-target limits still do.
 */
export function rateLimitClientKey({ address, sessionTokenHash, deviceId }: ClientProofs): string {
  if (address) return address;
  if (sessionTokenHash) return `session:${sessionTokenHash}`;
  return `device:${deviceId()}`;
}
