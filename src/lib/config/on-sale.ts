/** High-demand on-sales: the waitlist, the inventory object, the automatic switch and the waiting room. */

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
/**
 * The most buyers a minute an operator may set a session's waiting room to admit (services/on-sale/
 * admission-rate.ts): a hundred times the default, beyond which a room no longer paces anything.
 */
export const WAITING_ROOM_MAX_ADMISSIONS_PER_MINUTE = 60_000;
/** The console's on-sales list (services/on-sale/on-sale-console.ts): sessions whose sale opens within this are "soon". */
export const ON_SALE_SOON_MS = 14 * 24 * 3_600_000;
/** The most sessions the console's on-sales list shows at once; a filter narrows it. */
export const ON_SALE_LIST_LIMIT = 100;
