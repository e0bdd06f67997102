/** Staff accounts: invitations, passkeys and the audit log's pages. */

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** An invitation link works for a week: long enough to reach someone on leave, short enough that a forwarded link goes stale. */
export const STAFF_INVITATION_TTL_MS = 7 * DAY_MS;
/** A WebAuthn challenge must be answered within this (the browser's own prompt times out at about a minute). */
export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * MINUTE_MS;
/** What the browser's passkey prompt waits for before giving up. */
export const WEBAUTHN_PROMPT_TIMEOUT_MS = 60_000;
/**
 * Passkey sign-in calls (options and answers alike) per client: a person needs two per sign-in and
 * rarely more than a few tries; a script guessing at stored challenges is stopped long before it matters.
 */
export const PASSKEY_SIGN_IN_LIMITS = {
  perMinute: { limit: 20, windowMs: MINUTE_MS },
  perDay: { limit: 200, windowMs: DAY_MS },
} as const;
/** The longest name a staff member may give a passkey ("Work laptop"). */
export const PASSKEY_NAME_MAX_LENGTH = 60;
/** Audit rows per page of the console and the API. */
export const AUDIT_PAGE_SIZE = 50;
