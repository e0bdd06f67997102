/** Messages to buyers and sellers: retries, leases and publishing. */

/**
 * Delivery of a message (src/lib/services/messages/delivery.ts): the waits before each retry after a
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
