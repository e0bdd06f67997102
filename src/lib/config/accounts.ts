/** Accounts: passwords, codes and their limits, captchas, sessions, Turnstile, invitations. */

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 32;
export const EMAIL_CODE_LENGTH = 6;
/**
 * Inviter rewards one account can earn per calendar month: a real person invites a handful of
 * friends a month; more is the shape of throwaway accounts farming coupons. Friends beyond it still
 * join and get their own coupons; the inviter's reward for them is simply not granted.
 */
export const INVITER_REWARDS_PER_MONTH = 10;
/** The month of that cap runs in UTC+8, the time of Hong Kong, Macao, Taiwan, Mainland China, Singapore, Manila and Kuala Lumpur. */
export const REWARD_MONTH_UTC_OFFSET_MS = 8 * 3600 * 1000;
/** The coupon every new account receives (a bundle coupon grants its bundle count). */
export const NEW_USER_GIFT_COUPON = 'WELCOME100';
export const SESSION_TTL_DAYS = 30;
export const NICKNAME_MAX_LENGTH = 30;
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
/** Seconds the login page waits before it offers to send another code. */
export const CODE_RESEND_SECONDS = 60;
const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/**
 * Code sending, per phone/email and per client address; every attempt counts, refused ones too.
 * The client limits are looser: many phones can share one carrier address.
 */
export const CODE_SEND_LIMITS = {
  targetPerMinute: { limit: 1, windowMs: CODE_RESEND_SECONDS * 1000 },
  targetPerDay: { limit: 10, windowMs: DAY_MS },
  clientPerMinute: { limit: 20, windowMs: MINUTE_MS },
  clientPerDay: { limit: 200, windowMs: DAY_MS },
} as const;
/** Failed sign-ins (wrong password or code) after which a graphic captcha is required, per hour. */
export const CAPTCHA_AFTER_FAILURES = { perAccount: 3, perClient: 20, windowMs: 60 * MINUTE_MS } as const;
export const CAPTCHA_TTL_MS = 5 * MINUTE_MS;
/**
 * Wrong passwords for one account, whatever the client: the first `free` cost nothing more (people
 * mistype), each one after locks password sign-in for `firstLockMs`, doubling up to `maxLockMs`, so
 * a guesser gets about 15 tries an hour however many captchas it solves. The count forgets after
 * `forgetAfterMs` without a failure. Sign-in by code stays open: a locked-out owner still gets in.
 */
export const PASSWORD_LOCKOUT = { free: 5, firstLockMs: MINUTE_MS, maxLockMs: 15 * MINUTE_MS, forgetAfterMs: DAY_MS } as const;
/** Captcha images one client may ask for per minute (each one is a stored challenge). */
export const CAPTCHAS_PER_CLIENT_MINUTE = 30;
export const CAPTCHA_LENGTH = 4;
/**
 * PBKDF2 iterations: the most Cloudflare's production runtime allows (it throws NotSupportedError
 * above 100,000). The open-source workerd behind `wrangler dev` and the API tests does not enforce
 * that cap (workerd#1471: measured, it derives 5,000,000), so the cap is kept here, not discovered.
 */
export const PASSWORD_ITERATIONS = 100_000;
/**
 * Cloudflare Turnstile, the challenge a bot farm must pass to ask a new account's first login code
 * or take a waiting-room place (src/lib/services/protection/turnstile.ts). The script is loaded explicitly, and
 * only on those steps, so browse pages carry none of it.
 */
export const TURNSTILE_SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
/** The action each protected step renders its widget with and the server expects back (Turnstile: [a-z0-9_-], 32 at most). */
export const TURNSTILE_ACTION = { loginCode: 'login_code', waitingRoomJoin: 'waiting_room_join' } as const;
/** Turnstile's tokens are at most 2048 characters (its docs): a longer one is refused before any call. */
export const TURNSTILE_TOKEN_MAX_LENGTH = 2048;
/** Siteverify answers in well under a second; past this a step fails closed rather than hang the request. */
export const TURNSTILE_VERIFY_TIMEOUT_MS = 5_000;
