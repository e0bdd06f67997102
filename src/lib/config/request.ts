/** The request: its context and defaults (SPEC.md section 7), the cookies and headers that carry it, and the bounds on what it may send. */

export const CLIENT_TYPE = 12;
export const DEFAULT_CURRENCY = 'HKD';
export const DEFAULT_CITY_ID = 341;
/** City id sent when a URL asks to ignore the city (`ignoreCityId=true`). */
export const IGNORED_CITY_ID = -1;
export const REQUEST_TIMEOUT_MS = 10_000;
/** The largest request body the API reads; a bigger one is a 413 before any database work. */
export const MAX_BODY_BYTES = 64 * 1024;
/**
 * The deepest nesting and the most object keys a JSON body may hold: no route takes more than a few
 * levels or a few hundred keys, and the texts' walk (domain/text.ts) recurses once per level, so a
 * 64 KB body of brackets would otherwise overflow the stack (a 500) instead of being bad input.
 */
export const MAX_JSON_DEPTH = 16;
export const MAX_JSON_KEYS = 1_000;
/** Session cookie names of SPEC.md section 3: token and user id. */
export const TOKEN_COOKIE = 'pner';
export const USER_ID_COOKIE = 'pnid';
export const LANGUAGE_COOKIE = 'language';
export const CURRENCY_COOKIE = 'currencyCode';
export const CITY_COOKIE = 'cityId';
export const CHANNEL_COOKIE = 'channel';
/** How long the `channel` a visitor arrived through (`?channel=`) is kept. */
export const CHANNEL_COOKIE_MAX_AGE_S = 30 * 24 * 3600;
/** What a personal page tells every cache, the browser's included: keep nothing. */
export const PERSONAL_CACHE_CONTROL = 'private, no-store';
export const HIDE_APP_INFO_COOKIE = 'hideAppInfo';
/** Set when the home pop-up boxes are closed; like hideAppInfo it lasts until the end of the day. */
export const HIDE_POP_BOX_COOKIE = 'hidePopBox';
/**
 * The invite-coupon pop-ups already shown on the home page: "userId.lastUserCouponId". Coupon rows
 * only grow, so one id per user marks every earlier pop-up as shown once.
 */
export const INVITE_COUPON_SEEN_COOKIE = 'inviteCouponSeen';
/** The device id cookie of GET /v1/setDvid: ties location history to a browser without an account. */
export const DEVICE_ID_COOKIE = 'dvid';
/** How long the language, currency, city and device cookies last. */
export const PREFERENCE_COOKIE_MAX_AGE_S = 365 * 24 * 3600;
export const AD_CLICK_PARAMS = ['gclid', 'gbraid', 'gad_source', 'gad_campaignid'] as const;
/** Request headers every call carries (SPEC.md section 7). */
export const HEADER = {
  language: 'language',
  currency: 'currency',
  clientType: 'client-type',
  cityId: 'city-id',
  idempotencyKey: 'idempotency-key',
  /** The client's address, set by Cloudflare's edge on every request it forwards. */
  connectingAddress: 'cf-connecting-ip',
} as const;
/**
 * Where each part of the request context (SPEC.md section 7) comes from: the header a call carries
 * it in, the cookie a browser keeps it in and the value when neither has one. The API client fills
 * the headers from the cookies; the server reads the header, then the cookie, then the fallback.
 */
export const REQUEST_CONTEXT = {
  language: { header: HEADER.language, cookie: LANGUAGE_COOKIE },
  currency: { header: HEADER.currency, cookie: CURRENCY_COOKIE, fallback: DEFAULT_CURRENCY },
  clientType: { header: HEADER.clientType, fallback: CLIENT_TYPE },
  /** `ignored` is sent when a URL asks to ignore the city. */
  cityId: { header: HEADER.cityId, cookie: CITY_COOKIE, fallback: DEFAULT_CITY_ID, ignored: IGNORED_CITY_ID },
} as const;
/** The HttpOnly cookie naming the captcha challenge the client was shown. */
export const CAPTCHA_COOKIE = 'pncap';
/**
 * The D1 bookmark of the browser's last write (data/client.ts): its next requests read from a replica
 * that has caught up with it, so a buyer always sees what they just did. Replicas catch up within
 * seconds; after an hour every replica has, and the cookie can go.
 */
export const REPLICA_BOOKMARK_COOKIE = 'd1bm';
export const REPLICA_BOOKMARK_MAX_AGE_S = 3600;
/** The header a local build (only) answers a captcha image with, holding its answer: the e2e tests' way to solve it. */
export const DEV_CAPTCHA_ANSWER_HEADER = 'x-dev-captcha-answer';
/** The largest row id D1 hands out here (a 32-bit integer); a bigger id in a request names nothing. */
export const MAX_ID = 2_147_483_647;
