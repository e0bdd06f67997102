/**
 * Business constants of SPEC.md section 9 and the settled values of DESIGN.md, in one place.
 * Everything that reads a limit, a delay or a default imports it from here.
 */
export const CLIENT_TYPE = 12;
export const DEFAULT_CURRENCY = 'HKD';
export const DEFAULT_CITY_ID = 341;
/** City id sent when a URL asks to ignore the city (`ignoreCityId=true`). */
export const IGNORED_CITY_ID = -1;
export const REQUEST_TIMEOUT_MS = 10_000;
/**
 * How long an isolate reuses the reference tables (cities, categories, currencies and FX rates, hot
 * words: services/reference-data.ts) when the request read no version to check them against (API
 * answers, signed-in pages). Every request needs them while they change a few times a day: a minute
 * saves a D1 read per request and bounds how stale a rate can be there.
 */
export const REFERENCE_DATA_TTL_MS = 60_000;
/**
 * Shared browse pages (http/page-cache.ts): served as rendered for PAGE_CACHE_FRESH_MS, then once
 * more while a new render replaces them, up to PAGE_CACHE_STALE_MS later. A write that changes the
 * catalogue retires them at once (its version is in their key).
 */
export const PAGE_CACHE_FRESH_MS = 30_000;
export const PAGE_CACHE_STALE_MS = 60_000;
/**
 * The bodies of shared pages an isolate keeps in its own memory besides the Cache API
 * (http/page-memory.ts): a hot page then costs no cache lookup. A page is about 35–75 KB of HTML,
 * so this holds a few hundred of the most recently used, a small part of an isolate's 128 MB.
 */
export const PAGE_MEMORY_BYTES = 16 * 1024 * 1024;
/**
 * robots.txt and the sitemaps: a crawler reads them now and then, and a 50,000-URL part takes about
 * 2 s to build at 100,000 activities, so the edge keeps them an hour whatever the catalogue does
 * (their key has no version), then serves them a day more while a new build replaces them.
 */
export const CRAWLER_FILE_FRESH_MS = 3_600_000;
export const CRAWLER_FILE_STALE_MS = 86_400_000;
/**
 * How long an isolate reuses the catalogue version it read (pages/shared-page-cache.ts). A hot page
 * is asked for many times a second: reading the version once a second instead of per request takes
 * the only D1 round trip off a cached answer, and a catalogue write (a price, stock running out)
 * shows on shared pages at most this long after it commits, plus the replica's lag.
 */
export const CATALOGUE_VERSION_REUSE_MS = 1_000;
/** The largest request body the API reads; a bigger one is a 413 before any database work. */
export const MAX_BODY_BYTES = 64 * 1024;
/**
 * The deepest nesting and the most object keys a JSON body may hold: no route takes more than a few
 * levels or a few hundred keys, and the texts' walk (domain/text.ts) recurses once per level, so a
 * 64 KB body of brackets would otherwise overflow the stack (a 500) instead of being bad input.
 */
export const MAX_JSON_DEPTH = 16;
export const MAX_JSON_KEYS = 1_000;

export const SEARCH_HISTORY_MAX = 20;
export const SEARCH_HISTORY_TTL_DAYS = 90;
export const SUGGESTION_DELAY_MS = 300;
export const CITY_SEARCH_DELAY_MS = 100;
/** Longest text the city picker's autocomplete accepts. */
export const CITY_KEYWORD_MAX_LENGTH = 50;
export const PULL_TO_REFRESH_CLOSE_MS = 300;
/** Activities per page of a category list or search result. */
export const LISTING_PAGE_SIZE = 20;
/** Suggestions shown under the search box. */
export const SUGGESTION_LIMIT = 8;
/**
 * Keys the suggestion table keeps per typed word or character (migration 0022, whose triggers hold
 * the same number, 32; docs/search.md): the soonest buyable matches, a few suggestion lists deep so
 * that shows ending between two sweeps rarely leave a prefix with fewer than SUGGESTION_LIMIT to show.
 */
export const SUGGESTION_PREFIX_DEPTH = 4 * SUGGESTION_LIMIT;
/**
 * The most matches a search ranks or counts (docs/search.md). A query with no more matches than
 * this in the whole index is ranked by bm25 as a full ranking would; a broader one lists its first
 * this-many matches in index order (buyable, soonest first) and shows "500+ results", so its cost
 * stays that of this many rows however large the catalogue grows.
 */
export const SEARCH_CANDIDATE_LIMIT = 500;
export const HOT_WORD_ROTATION_MS = 2000;

/** How long a browser may reuse the header dialogs' lists (cities, languages, currencies) without asking again. */
export const HEADER_CHOICES_MAX_AGE_S = 300;

export const HOME_POPUP_SCENE = 'HOME';
export const HOT_KEYWORDS_SHOWN = 5;
export const RECENT_SHOWS_DAYS = 15;

export const GEOLOCATION_OPTIONS = { enableHighAccuracy: true, timeout: 5000, maximumAge: 0 } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 32;
export const EMAIL_CODE_LENGTH = 6;

/** Payment time limit (DESIGN.md): the hold on the tickets ends with it. */
export const PAYMENT_TIME_LIMIT_MS = 15 * 60 * 1000;

/**
 * How long money for a closed order may sit unreturned before the sweep gives it back: long enough
 * that the request closing the order has finished its own refund call, so the two do not race.
 */
export const REFUND_RETRY_AFTER_MS = 5 * 60 * 1000;

/**
 * How long returned tickets stay held for the waiting buyer they are offered to. The offer
 * reaches them as a message on their phone, often while they are at work or asleep in another time
 * zone: an hour lets a real buyer see it and pay, yet the tickets pass to the next in line the same
 * evening if they do not. Shorter (the 15-minute payment limit) would lapse most offers unseen.
 */
export const WAITLIST_OFFER_HOLD_MS = 60 * 60 * 1000;
/** Offers one offer pass tries in one D1 batch; a pass with more to offer runs further batches. */
export const WAITLIST_OFFERS_PER_BATCH = 20;

/**
 * Holds a high-demand session's inventory object writes to D1 in one batch (docs/hot-on-sale.md).
 * Each takes three statements plus one per attendee; 25 keep a batch near 100 statements, a few
 * milliseconds of D1's single writer, while holds arriving meanwhile wait for the next batch.
 */
export const INVENTORY_FLUSH_MAX_HOLDS = 25;
/**
 * Checkout's orders a minute at which a plain session turns high demand by itself
 * (docs/hot-on-sale.md; the worker's env may set another, `HIGH_DEMAND_ORDERS_PER_MINUTE`). 100 a
 * second: at about five statements an order, half of what D1's single writer takes (about 1,000
 * queries a second), beyond which one show's checkout crowds out the rest of the marketplace's writes.
 */
export const HIGH_DEMAND_ORDERS_PER_MINUTE = 6000;
/** How soon the inventory object tries again to write holds a failed or interrupted flush left waiting. */
export const INVENTORY_RETRY_MS = 1000;
/** The object wakes at its orders' payment deadlines rounded up to this step, so a burst of orders sets few alarms. */
export const INVENTORY_EXPIRY_STEP_MS = 10_000;
/**
 * How many buyers a high-demand on-sale's waiting room lets through to checkout each minute
 * (docs/hot-on-sale.md): what checkout can take for one show without the rest of the marketplace
 * slowing down. A room keeps the rate it started with, slower while its checkout falls behind
 * (CHECKOUT_HEALTH); a local build can change it (dev route).
 */
export const WAITING_ROOM_ADMISSIONS_PER_MINUTE = 600;
/**
 * When a waiting room slows down for its checkout (domain/waiting-room.ts `pacedAdmissionRate`):
 * checkout keeps up while a buyer's order is in D1 within `holdTargetMs` of their request (checkout's
 * reads, the hold, its batch: tens of milliseconds when nothing queues), or within `calmFactor` times
 * the quickest hold reported in this on-sale when that is sooner; a report older than
 * `freshMs` no longer slows anything (no batch: nothing to slow down for); the room never falls
 * below `leastShare` of its rate, so the line always moves; and the inventory object reports at most
 * once every `reportEveryMs` (the slowest hold since its last report).
 */
export const CHECKOUT_HEALTH = { holdTargetMs: 250, calmFactor: 2, freshMs: 5000, leastShare: 0.2, reportEveryMs: 1000 } as const;
/**
 * Checkout's door of a waiting room: buyers first seen through enter one at a time at the room's
 * (paced) rate, so those let through while away (the early group reloads over minutes) and those let
 * through since never reach checkout together above it. While the door's queue is longer than
 * `backlogMs` the line lets nobody new through; a queue longer than `mostMs` can only be a clock that
 * moved back (a test's), and is forgotten.
 */
export const WAITING_ROOM_ENTRY = { backlogMs: 5000, mostMs: 60_000 } as const;
/**
 * How long an admitted buyer's pass lets them place their order: long enough to choose delivery and
 * fill in attendees on a slow phone, short enough that a pass is no ticket to come back later.
 */
export const WAITING_ROOM_PASS_LIFETIME_MS = 10 * 60 * 1000;
/**
 * Tickets of one session an account may have in orders paid or awaiting payment, when the session
 * sets no cap of its own (`activity_sessions.account_ticket_cap`): the largest per-order limit the
 * catalogue uses (num_max up to 8), so a family or group buys together, while one admitted account
 * can no longer buy out an on-sale order after order (security review: one pass, 35 tickets).
 */
export const ACCOUNT_TICKET_CAP = 8;
/**
 * What one account may hold unpaid, since an unpaid order keeps its tickets from everyone for
 * PAYMENT_TIME_LIMIT_MS (security review: two unpaid orders of 6 sold a 12-ticket listing out).
 * `accountTickets` across every listing: one full order at the largest per-order limit, so a buyer
 * pays (or lets go) before holding more. `listingShare` of one listing's tickets, rounded down, so
 * nobody holds a large listing whole; but never fewer than `listingLeast`, so a seller's small group
 * of seats (four together, the most resale listings hold) still sells to one buyer in one order.
 */
export const UNPAID_HOLD_LIMITS = { accountTickets: 8, listingShare: 0.5, listingLeast: 4 } as const;
/** The waiting page asks again after this long at the front of the line, and never waits longer than the most. */
export const WAITING_ROOM_POLL_MS = { least: 2000, most: 30_000 } as const;
/**
 * Each answer's interval is made later by up to this share of itself at random, so that pages which
 * joined or moved together do not go on asking together (a herd that arrived in the same second
 * otherwise polls in the same second, every interval, for the whole wait).
 */
export const WAITING_ROOM_POLL_JITTER = 0.5;
/**
 * Once the early group is drawn, each early buyer's page asks for its position after a random delay
 * up to this long, so that a crowd who all waited for the opening reaches the room spread over two
 * minutes (100,000 early buyers: about 830 a second, within a Durable Object's 1,000; docs/hot-on-sale.md).
 * Nobody loses by it: the order is drawn already, and a pass's time starts when its buyer is seen through.
 */
export const WAITING_ROOM_DRAW_SPREAD_MS = 120_000;

export const SUPPORT_HOURS = { weekdays: '10:00-18:00', weekends: '10:00-17:00' } as const;
export const SUPPORT_PHONES = ['+852 3001 8866', '+852 3001 8877'] as const;
export const SUPPORT_EMAIL = 'support@ticketwing.example';
export const SOCIAL_LINKS = [
  { name: 'Facebook', url: 'https://www.facebook.com/' },
  { name: 'Instagram', url: 'https://www.instagram.com/' },
  { name: 'YouTube', url: 'https://www.youtube.com/' },
  { name: 'X', url: 'https://x.com/' },
] as const;

export const TERMS_LAST_UPDATED = '2024-07-16';
export const COPYRIGHT_YEAR = 2024;
export const LIABILITY_CAP_HKD_MINOR = 50_000;
export const SLOW_PAGE_THRESHOLD_MS = 10_000;

export const DELIVERY_TYPES = ['e_ticket', 'on_site', 'self_pickup', 'courier'] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];

export const PAYMENT_METHODS = [
  'amex',
  'alipay',
  'paynow',
  'card_aggregator',
  'wechat_pay',
  'credit_card',
  'bank_card',
  'paypal',
  'visa',
  'mastercard',
  'unionpay',
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Methods paid by scanning a QR code (SPEC.md section 9); every other method opens the provider's page. */
export const QR_PAYMENT_METHODS: readonly PaymentMethod[] = ['wechat_pay', 'alipay'];
/** The built-in sandbox provider (DESIGN.md, Payments): local builds only, never a deployed worker. */
export const SANDBOX_PROVIDER = 'sandbox';
/** Stripe (src/lib/services/payment-providers/stripe.ts): deployed builds with STRIPE_SECRET_KEY set. */
export const STRIPE_PROVIDER = 'stripe';
/** The Stripe account's country when STRIPE_ACCOUNT_COUNTRY is not set: it decides the methods Stripe offers. */
export const STRIPE_DEFAULT_ACCOUNT_COUNTRY = 'HK';
/** Stripe keeps a Checkout Session open at least 30 minutes; a payment that arrives after its order expired is refunded. */
export const STRIPE_SESSION_MIN_LIFETIME_MS = 30 * 60 * 1000;
/** How often the payment page asks for the order's payment state. */
export const PAYMENT_POLL_INTERVAL_MS = 3000;
/** A signed webhook older or newer than this is refused, so a captured one cannot be replayed later. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60 * 1000;

/** The payment logos of the footer (SPEC.md section 2): card brands, WeChat, Alipay, PayPal, PayNow. */
export const FOOTER_PAYMENT_LOGOS = ['visa', 'mastercard', 'amex', 'unionpay', 'wechat_pay', 'alipay', 'paypal', 'paynow'] as const;

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

export const MAX_PAGE_WIDTH_PX = 600;
export const SESSION_TTL_DAYS = 30;

/** Accounts (sign in by code or password): code life, attempts, sending limits, captcha thresholds. */
export const NICKNAME_MAX_LENGTH = 30;
/** The person who collects a pickup order's tickets: a name, which goes out in the pickup SMS. */
export const TAKER_NAME_MAX_LENGTH = 50;
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
/** The HttpOnly cookie naming the captcha challenge the client was shown. */
export const CAPTCHA_COOKIE = 'pncap';
/**
 * The D1 bookmark of the browser's last write (db/client.ts): its next requests read from a replica
 * that has caught up with it, so a buyer always sees what they just did. Replicas catch up within
 * seconds; after an hour every replica has, and the cookie can go.
 */
export const REPLICA_BOOKMARK_COOKIE = 'd1bm';
export const REPLICA_BOOKMARK_MAX_AGE_S = 3600;
/** The header a local build (only) answers a captcha image with, holding its answer: the e2e tests' way to solve it. */
export const DEV_CAPTCHA_ANSWER_HEADER = 'x-dev-captcha-answer';
/**
 * PBKDF2 iterations: the most Cloudflare's production runtime allows (it throws NotSupportedError
 * above 100,000). The open-source workerd behind `wrangler dev` and the API tests does not enforce
 * that cap (workerd#1471: measured, it derives 5,000,000), so the cap is kept here, not discovered.
 */
export const PASSWORD_ITERATIONS = 100_000;

/**
 * Checkout pricing. The service fee is a share of the ticket amount (basis points); courier postage
 * and its fuel surcharge are fixed HKD amounts converted into the order's currency.
 */
export const SERVICE_FEE_BASIS_POINTS = 800;
export const COURIER_POSTAGE = { amount: 3_000, currency: 'HKD' } as const;
export const COURIER_FUEL_SURCHARGE = { amount: 600, currency: 'HKD' } as const;
/** On-site tickets are handed out from this long before the show (SPEC.md section 9). */
export const ON_SITE_PICKUP_LEAD_MS = 60 * 60 * 1000;
/** Delivery types that need the name and phone of whoever collects the tickets. */
export const TAKER_DELIVERY_TYPES: readonly DeliveryType[] = ['on_site', 'self_pickup'];
/** Orders per page of the order list. */
export const ORDER_PAGE_SIZE = 10;
/** Longest order-list search text. */
export const ORDER_KEYWORD_MAX_LENGTH = 100;
/**
 * The zone an order's own times (placed, paid, deadline) are shown in, with its offset: the
 * platform's home, since the server rendering them does not know the buyer's zone.
 */
export const ORDER_TIME_ZONE = 'Asia/Hong_Kong';
/** The guarantee's compensation coupon (up to 1:1 of the ticket amount) stays valid this long. */
export const COMPENSATION_COUPON_DAYS = 365;
/** The largest row id D1 hands out here (a 32-bit integer); a bigger id in a request names nothing. */
export const MAX_ID = 2_147_483_647;
/** Door staff one seller may assign to one session: a large venue's doors, with room to spare. */
export const GATE_STAFF_MAX = 50;
/**
 * A real-name attendee can be changed until this long before the show: the seller needs the time to
 * decide, the buyer to get the reissued voucher to the new attendee, and the venue to load the final
 * names onto its ID-check lists the day before.
 */
export const ATTENDEE_CHANGE_CUTOFF_MS = 48 * 3600 * 1000;
/**
 * The rotating entry code (domain/entry-code.ts): a new code every 15 s, so a screenshot passed on
 * stops admitting within seconds, yet a holder walking up to the door is not rushed; 6 digits keep
 * the QR code small and leave a guesser one chance in a million per try.
 */
export const ENTRY_CODE_STEP_SECONDS = 15;
export const ENTRY_CODE_DIGITS = 6;
/**
 * Steps either side of the checker's clock a code may be from: one covers a phone's clock a few
 * seconds off and a code that changed while the holder walked to the scanner (up to 30 s late),
 * and nothing older, so a screenshot is refused within 30 s of being taken.
 */
export const ENTRY_CODE_SKEW_STEPS = 1;
/**
 * A door device with admissions made offline tries to upload them this often, besides when the
 * browser says it is back online (an event a flaky venue network does not always give).
 */
export const GATE_UPLOAD_RETRY_MS = 15_000;
/** Admissions a door device made offline, uploaded in one request: a busy door's hour without signal. */
export const OFFLINE_ADMISSIONS_MAX = 500;
/** Resales followed back to a ticket's issuing seller: a ticket resold more often than this is not one a door expects. */
export const RESALE_CHAIN_MAX = 16;
/**
 * Ticket transfer (resale by a holder): the price per ticket must lie within this band of the
 * tier's face value, and the platform keeps this share of the ticket amount from the seller.
 */
export const TRANSFER_PRICE_BAND = { minPercent: 50, maxPercent: 300 } as const;
export const TRANSFER_PLATFORM_FEE_BASIS_POINTS = 1_000;

/**
 * Delivery of a message (src/lib/services/message-delivery.ts): the waits before each retry after a
 * provider failure, growing so a provider's outage of up to about an hour is ridden out without
 * hammering it; after the last one the message is dead (visible to operators) instead of retried.
 */
export const MESSAGE_RETRY_DELAYS_S = [10, 60, 300, 900, 2700] as const;
/** Tries in all: the first and one after each delay. */
export const MESSAGE_MAX_ATTEMPTS = MESSAGE_RETRY_DELAYS_S.length + 1;
/** A delivery in progress keeps its message this long (longer than a provider's 8 s timeout); a crashed one frees it after. */
export const MESSAGE_LEASE_MS = 60_000;
/** A pending message handed to the queue this long ago and still not delivered was lost there: hand it over again. */
export const MESSAGE_REPUBLISH_AFTER_MS = 90 * 60_000;
/** Messages the outbox relay hands to the queue at a time (a queue's sendBatch takes up to 100). */
export const MESSAGE_PUBLISH_BATCH = 100;
/** Where `npm start` serves: the links of a local build's messages published with no request to take an origin from (the cron). */
export const LOCAL_START_ORIGIN = 'http://localhost:4321';
/**
 * A notify-me subscriber hears that a sale started if it started within this long: the cron sweep
 * runs every minute, and a day covers a sweep that was down for hours without telling of old news.
 */
export const SALE_STARTED_NOTICE_WINDOW_MS = 24 * 3600 * 1000;
/**
 * Cloudflare Turnstile, the challenge a bot farm must pass to ask a new account's first login code
 * or take a waiting-room place (src/lib/services/turnstile.ts). The script is loaded explicitly, and
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
