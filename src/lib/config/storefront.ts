/** Storefront curation in the console. */

/**
 * The zone the console's storefront times are typed and shown in: the marketplace's home (the
 * browser's datetime-local inputs carry no zone, and every editor schedules for the same clock).
 */
export const STOREFRONT_TIME_ZONE = 'Asia/Hong_Kong';
