/**
 * The marketplace schema (SPEC.md section 3). Money is integer minor units of the row's currency;
 * times are epoch milliseconds; localized names carry one column per script
 * (en, Traditional Chinese `zhHant`, Simplified Chinese `zhHans`).
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { PaymentMethod } from '../domain/payment-methods.ts';
import type { MessageKind } from '../domain/messages.ts';
import { STAFF_ROLES } from '../domain/staff.ts';

const localizedName = {
  nameEn: text('name_en').notNull(),
  nameZhHant: text('name_zh_hant').notNull(),
  nameZhHans: text('name_zh_hans').notNull(),
};

const createdAt = integer('created_at').notNull().default(sql`(unixepoch() * 1000)`);

export const languages = sqliteTable('languages', {
  id: integer('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  languageType: integer('language_type').notNull(),
  sort: integer('sort').notNull().default(0),
});

export const currencies = sqliteTable('currencies', {
  code: text('code').primaryKey(),
  desc: text('desc').notNull(),
  currencyType: integer('currency_type').notNull().unique(),
  /** Digits after the decimal point in the minor unit (HKD 2, TWD 0, IDR 0). */
  minorDigits: integer('minor_digits').notNull(),
  sort: integer('sort').notNull().default(0),
});

/** How many `quote` units one HKD buys, in millionths, so conversion stays in integers. */
export const fxRates = sqliteTable('fx_rates', {
  quote: text('quote')
    .primaryKey()
    .references(() => currencies.code),
  perHkdMicros: integer('per_hkd_micros').notNull(),
  updatedAt: integer('updated_at').notNull(),
  /** Where the rate came from (migration 0035): the demo seed, the provider's refresh (services/rates), an operator's pin. */
  source: text('source', { enum: ['seed', 'provider', 'manual'] })
    .notNull()
    .default('seed'),
  /** When the provider's refresh last wrote it. */
  fetchedAt: integer('fetched_at'),
  /** Pinned by hand: the refresh leaves it until an operator unpins it. */
  pinnedBy: integer('pinned_by').references(() => users.id),
  pinnedAt: integer('pinned_at'),
});

export const countries = sqliteTable('countries', {
  id: integer('id').primaryKey(),
  code: text('code').notNull().unique(),
  callingCode: text('calling_code').notNull(),
  ...localizedName,
});

export const cities = sqliteTable(
  'cities',
  {
    id: integer('id').primaryKey(),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id),
    ...localizedName,
    firstLetter: text('first_letter').notNull(),
    isHotCity: integer('is_hot_city', { mode: 'boolean' }).notNull().default(false),
    isChina: integer('is_china', { mode: 'boolean' }).notNull().default(false),
    cityCode: text('city_code').notNull().unique(),
    timeZone: text('time_zone').notNull(),
    longitude: real('longitude').notNull(),
    latitude: real('latitude').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('cities_country_idx').on(t.countryId)],
);

export const categories = sqliteTable('categories', {
  id: integer('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  ...localizedName,
  pinyin: text('pinyin').notNull(),
  sort: integer('sort').notNull().default(0),
});

export const venues = sqliteTable(
  'venues',
  {
    id: integer('id').primaryKey(),
    cityId: integer('city_id')
      .notNull()
      .references(() => cities.id),
    ...localizedName,
    addressEn: text('address_en').notNull(),
    addressZh: text('address_zh').notNull(),
    longitude: real('longitude').notNull(),
    latitude: real('latitude').notNull(),
    /** The venue's own map link (https only, migration 0032); null: the link made from its coordinates. */
    mapUrl: text('map_url'),
  },
  (t) => [index('venues_city_idx').on(t.cityId)],
);

export const artists = sqliteTable('artists', {
  id: integer('id').primaryKey(),
  ...localizedName,
  pinyin: text('pinyin').notNull().default(''),
});

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    phoneCountryCode: text('phone_country_code'),
    phone: text('phone'),
    email: text('email'),
    nickname: text('nickname').notNull(),
    passwordHash: text('password_hash'),
    passwordSalt: text('password_salt'),
    passwordIterations: integer('password_iterations'),
    isSeller: integer('is_seller', { mode: 'boolean' }).notNull().default(false),
    inviteCode: text('invite_code').notNull().unique(),
    invitedBy: integer('invited_by'),
    languageCode: text('language_code'),
    currencyCode: text('currency_code'),
    cityId: integer('city_id'),
    createdAt,
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email), uniqueIndex('users_phone_idx').on(t.phoneCountryCode, t.phone)],
);

/** 0 draft, 1 on sale, 4 priority booking, 6 not yet on sale, 7 ended: the card tags of SPEC.md section 4. */
export const activities = sqliteTable(
  'activities',
  {
    id: integer('id').primaryKey(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id),
    cityId: integer('city_id')
      .notNull()
      .references(() => cities.id),
    venueId: integer('venue_id')
      .notNull()
      .references(() => venues.id),
    artistId: integer('artist_id').references(() => artists.id),
    ...localizedName,
    descriptionEn: text('description_en').notNull(),
    descriptionZhHant: text('description_zh_hant').notNull(),
    descriptionZhHans: text('description_zh_hans').notNull(),
    poster: text('poster').notNull(),
    status: integer('status').notNull(),
    isHot: integer('is_hot', { mode: 'boolean' }).notNull().default(false),
    isRare: integer('is_rare', { mode: 'boolean' }).notNull().default(false),
    realNameRequired: integer('real_name_required', { mode: 'boolean' }).notNull().default(false),
    numMin: integer('num_min').notNull().default(1),
    numMax: integer('num_max').notNull().default(6),
    /** First and last session start, kept with the row so listings filter by date without a join. */
    startsAt: integer('starts_at').notNull(),
    endsAt: integer('ends_at').notNull(),
    saleStartsAt: integer('sale_starts_at').notNull(),
    /** The seller account that sells each tier's quota at face value once it is published (services/catalogue-editing/box-office.ts); null: resale only. */
    boxOfficeSellerId: integer('box_office_seller_id').references(() => users.id),
    createdAt,
    /** The status it shows once published (1, 4, 6 or 7); `status` is 0 while it is not (migration 0032). */
    saleStatus: integer('sale_status').notNull().default(1),
    /** When it was last published; null while a draft or unpublished. */
    publishedAt: integer('published_at'),
    buyingNotesEn: text('buying_notes_en').notNull().default(''),
    buyingNotesZhHant: text('buying_notes_zh_hant').notNull().default(''),
    buyingNotesZhHans: text('buying_notes_zh_hans').notNull().default(''),
  },
  (t) => [
    index('activities_city_starts_idx').on(t.cityId, t.startsAt),
    index('activities_category_starts_idx').on(t.categoryId, t.startsAt),
  ],
);

export const activitySessions = sqliteTable(
  'activity_sessions',
  {
    id: integer('id').primaryKey(),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id),
    startsAt: integer('starts_at').notNull(),
    endsAt: integer('ends_at').notNull(),
    /** Cancelled or postponed by an operator (src/lib/services/catalogue/show-changes.ts). */
    status: text('status', { enum: ['scheduled', 'cancelled', 'postponed'] })
      .notNull()
      .default('scheduled'),
    /** When it was cancelled or last postponed. */
    changedAt: integer('changed_at'),
    /** A postponed session's first date. */
    originalStartsAt: integer('original_starts_at'),
    /** Until when buyers of a postponed session may ask for their refund. */
    refundUntil: integer('refund_until'),
    /** Buyers queue for its on-sale and its holds go through its inventory object (migration 0019). */
    highDemand: integer('high_demand', { mode: 'boolean' }).notNull().default(false),
    /** Tickets one account may have in its orders of this session; null: ACCOUNT_TICKET_CAP (domain/order-limits.ts). */
    accountTicketCap: integer('account_ticket_cap'),
    /** Its own sale window (migration 0032): on sale from `onSaleAt` until `offSaleAt`, at the latest its start. */
    onSaleAt: integer('on_sale_at'),
    offSaleAt: integer('off_sale_at'),
  },
  (t) => [index('sessions_activity_idx').on(t.activityId, t.startsAt)],
);

/**
 * Checkout's orders for a session in one minute of the clock (ms / 60,000), toward the session
 * turning high demand by itself (migration 0024, docs/hot-on-sale.md); the sweep deletes past minutes.
 */
export const sessionOrderRates = sqliteTable(
  'session_order_rates',
  {
    minute: integer('minute').notNull(),
    sessionId: integer('session_id').notNull(),
    orders: integer('orders').notNull(),
  },
  (t) => [primaryKey({ columns: [t.minute, t.sessionId] })],
);

/** An operator's last switch of a session's high demand: from then on the order rate never switches it (services/on-sale/high-demand.ts). */
export const operatorHighDemandSwitches = sqliteTable('operator_high_demand_switches', {
  sessionId: integer('session_id')
    .primaryKey()
    .references(() => activitySessions.id),
  highDemand: integer('high_demand', { mode: 'boolean' }).notNull(),
  switchedAt: integer('switched_at').notNull(),
});

/** A ticket category ("specification" in SPEC.md) of one session, with its face value. */
export const ticketTiers = sqliteTable(
  'ticket_tiers',
  {
    id: integer('id').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => activitySessions.id),
    ...localizedName,
    faceValue: integer('face_value').notNull(),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    sort: integer('sort').notNull().default(0),
    /**
     * This tier alone is on sale as high demand (migration 0026): its buyers queue in its own waiting
     * room and its holds go through its own inventory object; a high-demand session covers all its tiers.
     */
    highDemand: integer('high_demand', { mode: 'boolean' }).notNull().default(false),
    /** Tickets of this tier the show has (migration 0032); never below those already ordered. */
    quota: integer('quota').notNull().default(0),
  },
  // The face value in the index lets a card's price read the tiers from it alone (migration 0023).
  (t) => [index('tiers_session_idx').on(t.sessionId, t.id, t.faceValue)],
);

/**
 * A seller's offer for a tier. `quantityAvailable` is the stock: holds decrement it with a guarded
 * write (`WHERE quantity_available >= ?`), so availability is always derived from this row.
 */
export const listings = sqliteTable(
  'listings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tierId: integer('tier_id')
      .notNull()
      .references(() => ticketTiers.id),
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id),
    price: integer('price').notNull(),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    quantityTotal: integer('quantity_total').notNull(),
    quantityAvailable: integer('quantity_available').notNull(),
    seating: text('seating', { enum: ['together', 'not_adjacent'] }).notNull(),
    /** Comma-separated delivery types of config DELIVERY_TYPES. */
    deliveryTypes: text('delivery_types').notNull(),
    status: text('status', { enum: ['active', 'withdrawn', 'sold_out', 'closed'] })
      .notNull()
      .default('active'),
    /** The order whose tickets this listing resells (ticket transfer), when it does. */
    sourceOrderId: integer('source_order_id'),
    createdAt,
  },
  // Covering what a card's price reads (migration 0023), in the order (tier, status, price, id) it had.
  (t) => [
    index('listings_tier_idx').on(t.tierId, t.status, t.price, t.id, t.currency, t.quantityAvailable),
    index('listings_seller_idx').on(t.sellerId),
  ],
);

export const authSessions = sqliteTable(
  'auth_sessions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: integer('expires_at').notNull(),
    createdAt,
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

export const verificationCodes = sqliteTable(
  'verification_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    /** What the code proves: an account's address, or a taker's number for one order (`order:<id>:<number>`). */
    target: text('target').notNull(),
    purpose: text('purpose', { enum: ['login', 'register', 'reset_password', 'taker_phone'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt,
  },
  (t) => [index('codes_target_idx').on(t.target, t.purpose)],
);

/** Local/dev builds deliver codes and messages here instead of a mail or SMS provider. */
export const devOutbox = sqliteTable(
  'dev_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    channel: text('channel').notNull(),
    target: text('target').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** The email's HTML part; null for SMS and login codes. */
    html: text('html'),
    /** The `messages` row delivered (also a login code's own id): delivering it twice stores it once. */
    messageId: text('message_id'),
    createdAt,
  },
  (t) => [uniqueIndex('dev_outbox_message_idx').on(t.messageId)],
);

/**
 * The outbox of messages to buyers and sellers. Database triggers write a row in the same
 * statement as the state change it reports (migrations/0014_messages.sql), keyed by that change, so
 * a retried or racing change writes it once and a change that did not happen writes none. The
 * queue consumer (src/lib/services/messages/delivery.ts) delivers it: pending → sent, or dead after
 * the last try.
 */
export const messages = sqliteTable(
  'messages',
  {
    id: text('id').primaryKey(),
    /** The state change reported, e.g. "payment_received:42": unique, so it is reported once. */
    dedupeKey: text('dedupe_key').notNull().unique(),
    kind: text('kind').$type<MessageKind>().notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    target: text('target').notNull(),
    orderId: integer('order_id'),
    /** What the change was (JSON): a deadline, an amount, a tracking number, the offer or lottery it is about. */
    payload: text('payload').notNull().default('{}'),
    status: text('status', { enum: ['pending', 'sending', 'sent', 'dead'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** While a consumer is delivering it: another delivery of the same queue message waits until then. */
    leaseUntil: integer('lease_until'),
    lastError: text('last_error'),
    /** Last handed to the queue; null until then (the outbox relay picks those up). */
    enqueuedAt: integer('enqueued_at'),
    sentAt: integer('sent_at'),
    createdAt,
  },
  (t) => [index('messages_status_idx').on(t.status, t.enqueuedAt), index('messages_user_idx').on(t.userId, t.createdAt)],
);

/** A graphic captcha shown after repeated failures; its answer is stored hashed and used once. */
export const captchaChallenges = sqliteTable('captcha_challenges', {
  id: text('id').primaryKey(),
  answerHash: text('answer_hash').notNull(),
  /** Who asked for it (client address or device id), so a challenge only counts for its client. */
  clientKey: text('client_key').notNull(),
  expiresAt: integer('expires_at').notNull(),
  usedAt: integer('used_at'),
  createdAt,
});

/** Fixed-window counters for rate limits (code sending, login attempts). */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: integer('window_start').notNull(),
  count: integer('count').notNull(),
});

/** Wrong passwords of one account in a row (reset by a sign-in), and until when password sign-in is locked. */
export const loginFailures = sqliteTable('login_failures', {
  accountKey: text('account_key').primaryKey(),
  failures: integer('failures').notNull(),
  lockedUntil: integer('locked_until'),
  updatedAt: integer('updated_at').notNull(),
});

export const addresses = sqliteTable(
  'addresses',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    phoneCountryCode: text('phone_country_code').notNull(),
    phone: text('phone').notNull(),
    countryCode: text('country_code').notNull(),
    province: text('province').notNull().default(''),
    city: text('city').notNull().default(''),
    district: text('district').notNull().default(''),
    street: text('street').notNull(),
    postcode: text('postcode').notNull().default(''),
    isDefault: integer('is_default', { mode: 'boolean' }).notNull().default(false),
    createdAt,
  },
  (t) => [index('addresses_user_idx').on(t.userId)],
);

export const attendees = sqliteTable(
  'attendees',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    nationality: text('nationality').notNull(),
    idCardType: text('id_card_type', { enum: ['passport', 'id_card'] }).notNull(),
    idCardNo: text('id_card_no').notNull(),
    createdAt,
  },
  (t) => [index('attendees_user_idx').on(t.userId)],
);

export const coupons = sqliteTable('coupons', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  code: text('code').notNull().unique(),
  ...localizedName,
  kind: text('kind', { enum: ['rate', 'amount'] }).notNull(),
  /** Discount as a fold times ten (85 = 8.5 fold = 15% off), for kind 'rate'. */
  foldTenths: integer('fold_tenths'),
  amount: integer('amount'),
  currency: text('currency').references(() => currencies.code),
  minSpend: integer('min_spend').notNull().default(0),
  newUserOnly: integer('new_user_only', { mode: 'boolean' }).notNull().default(false),
  bundleCount: integer('bundle_count').notNull().default(1),
  validFrom: integer('valid_from').notNull(),
  validTo: integer('valid_to').notNull(),
  purpose: text('purpose', { enum: ['general', 'invitee', 'inviter', 'compensation', 'campaign'] })
    .notNull()
    .default('general'),
  categoryId: integer('category_id').references(() => categories.id),
});

export const orders = sqliteTable(
  'orders',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderNo: text('order_no').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    listingId: integer('listing_id')
      .notNull()
      .references(() => listings.id),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id),
    sessionId: integer('session_id')
      .notNull()
      .references(() => activitySessions.id),
    tierId: integer('tier_id')
      .notNull()
      .references(() => ticketTiers.id),
    quantity: integer('quantity').notNull(),
    status: text('status', {
      enum: ['pending_payment', 'pending_ticketing', 'pending_receipt', 'completed', 'cancelled', 'refunded'],
    }).notNull(),
    paymentSubstatus: text('payment_substatus', { enum: ['paying', 'confirming'] }),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    /** The FX rate locked when the order was created (quote per HKD, micros). */
    fxPerHkdMicros: integer('fx_per_hkd_micros').notNull(),
    unitPrice: integer('unit_price').notNull(),
    ticketAmount: integer('ticket_amount').notNull(),
    serviceFee: integer('service_fee').notNull(),
    postage: integer('postage').notNull(),
    couponDiscount: integer('coupon_discount').notNull().default(0),
    total: integer('total').notNull(),
    userCouponId: integer('user_coupon_id'),
    deliveryType: text('delivery_type').notNull(),
    paymentMethod: text('payment_method').$type<PaymentMethod>(),
    shippingAddress: text('shipping_address'),
    takerName: text('taker_name'),
    takerPhone: text('taker_phone'),
    /** When the buyer confirmed the taker's number (services/orders/taker-phone.ts): only then do messages go to it. */
    takerPhoneConfirmedAt: integer('taker_phone_confirmed_at'),
    pickupAddress: text('pickup_address'),
    pickupTime: integer('pickup_time'),
    trackingNo: text('tracking_no'),
    paymentDeadline: integer('payment_deadline').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of the creating request's body (src/lib/domain/idempotency.ts); null for orders we make ourselves. */
    requestHash: text('request_hash'),
    cancelReason: text('cancel_reason'),
    /**
     * The listing's seller, kept on the order so fulfilment queries need no join. Always set; the
     * column is nullable only because SQLite cannot add a NOT NULL reference to an existing table.
     */
    sellerId: integer('seller_id').references(() => users.id),
    paidAt: integer('paid_at'),
    ticketedAt: integer('ticketed_at'),
    /** When the order reached completed, cancelled or refunded. */
    closedAt: integer('closed_at'),
    refundAmount: integer('refund_amount').notNull().default(0),
    createdAt,
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('orders_user_idx').on(t.userId, t.status, t.createdAt),
    index('orders_seller_idx').on(t.sellerId, t.status),
    uniqueIndex('orders_idempotency_idx').on(t.userId, t.idempotencyKey),
    index('orders_deadline_idx').on(t.status, t.paymentDeadline),
  ],
);

/**
 * The order each waiting-room pass bought (domain/order-limits.ts): a pass buys one order. One row
 * per pass (its claims' text, `passId`); an order that lapsed unpaid gives its pass back, as its row
 * is then taken over by the pass's next order (data/order-placement.ts).
 */
export const waitingRoomPassOrders = sqliteTable('waiting_room_pass_orders', {
  pass: text('pass').primaryKey(),
  orderId: integer('order_id')
    .notNull()
    .references(() => orders.id),
});

export const userCoupons = sqliteTable(
  'user_coupons',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    couponId: integer('coupon_id')
      .notNull()
      .references(() => coupons.id),
    status: text('status', { enum: ['unused', 'locked', 'used'] })
      .notNull()
      .default('unused'),
    orderId: integer('order_id'),
    /** The invitation an inviter's reward coupon was granted for (withdrawn while unused if its order is refunded). */
    invitationId: integer('invitation_id'),
    createdAt,
  },
  (t) => [
    index('user_coupons_user_idx').on(t.userId, t.status),
    index('user_coupons_invitation_idx').on(t.invitationId),
    index('user_coupons_coupon_idx').on(t.couponId, t.userId),
  ],
);

export const orderAttendees = sqliteTable('order_attendees', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  orderId: integer('order_id')
    .notNull()
    .references(() => orders.id),
  name: text('name').notNull(),
  nationality: text('nationality').notNull(),
  idCardType: text('id_card_type', { enum: ['passport', 'id_card'] }).notNull(),
  idCardNo: text('id_card_no').notNull(),
});

/** One row per ticket of an order: what the voucher shows and the gate scans. */
export const tickets = sqliteTable(
  'tickets',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    ticketNo: text('ticket_no').notNull().unique(),
    /**
     * An e-ticket's entry nonce (null for a paper ticket): random, and no secret by itself; the
     * entry secret is derived from it under the app secret (services/gate/entry-secrets.ts), and a new
     * nonce is a new secret.
     */
    entryNonce: text('entry_nonce'),
    seat: text('seat'),
    status: text('status', { enum: ['pending', 'valid', 'used', 'invalid', 'transferred'] }).notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('tickets_order_idx').on(t.orderId)],
);

/**
 * Who admitted a ticket at the gate, when and how: one row per ticket (the unique index), written
 * with the ticket's move from valid to used. `method` is the scanned code or the ticket number
 * with a photo-ID check; `offline` admissions were made on a door device without signal and
 * uploaded later (`admittedAt` is the device's time, `recordedAt` the server's).
 */
export const admissions = sqliteTable(
  'admissions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id),
    sessionId: integer('session_id')
      .notNull()
      .references(() => activitySessions.id),
    staffId: integer('staff_id')
      .notNull()
      .references(() => users.id),
    method: text('method', { enum: ['code', 'id_check'] }).notNull(),
    offline: integer('offline', { mode: 'boolean' }).notNull().default(false),
    admittedAt: integer('admitted_at').notNull(),
    recordedAt: integer('recorded_at').notNull(),
  },
  (t) => [uniqueIndex('admissions_ticket_unique').on(t.ticketId), index('admissions_session_idx').on(t.sessionId)],
);

/**
 * A buyer's request to change one real-name attendee of an order, and its outcome: the audit of who
 * asked, whom for whom, who decided and when. ID numbers are masked with a keyed hash; the new
 * attendee's full number is kept only while the request waits (approving copies it to the order).
 */
export const attendeeChangeRequests = sqliteTable(
  'attendee_change_requests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    orderAttendeeId: integer('order_attendee_id')
      .notNull()
      .references(() => orderAttendees.id),
    /** The ticket the attendee holds; null while the order is not yet ticketed. */
    ticketId: integer('ticket_id').references(() => tickets.id),
    requestedBy: integer('requested_by')
      .notNull()
      .references(() => users.id),
    oldName: text('old_name').notNull(),
    oldNationality: text('old_nationality').notNull(),
    oldIdCardType: text('old_id_card_type', { enum: ['passport', 'id_card'] }).notNull(),
    oldIdMasked: text('old_id_masked').notNull(),
    oldIdHash: text('old_id_hash').notNull(),
    newName: text('new_name').notNull(),
    newNationality: text('new_nationality').notNull(),
    newIdCardType: text('new_id_card_type', { enum: ['passport', 'id_card'] }).notNull(),
    newIdCardNo: text('new_id_card_no'),
    newIdMasked: text('new_id_masked').notNull(),
    newIdHash: text('new_id_hash').notNull(),
    status: text('status', { enum: ['pending', 'approved', 'refused', 'withdrawn'] })
      .notNull()
      .default('pending'),
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: integer('decided_at'),
    createdAt,
  },
  (t) => [
    index('attendee_change_requests_order_idx').on(t.orderId, t.id),
    index('attendee_change_requests_status_idx').on(t.status, t.createdAt),
    uniqueIndex('attendee_change_requests_pending_idx').on(t.orderAttendeeId).where(sql`status = 'pending'`),
  ],
);

/**
 * The exact tickets a transfer listing resells. A ticket is in at most one active listing (the
 * partial unique index); withdrawing a listing deactivates its rows, and a sale names the buyer's
 * order that received the ticket's reissue.
 */
export const listingTickets = sqliteTable(
  'listing_tickets',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    listingId: integer('listing_id')
      .notNull()
      .references(() => listings.id),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    buyerOrderId: integer('buyer_order_id').references(() => orders.id),
    createdAt,
  },
  (t) => [
    uniqueIndex('listing_tickets_active_ticket_idx').on(t.ticketId).where(sql`active = 1`),
    index('listing_tickets_listing_idx').on(t.listingId, t.buyerOrderId),
  ],
);

/** What a transfer seller is owed for one sold order: the ticket amount less the platform fee, payable after the event. */
export const sellerPayouts = sqliteTable(
  'seller_payouts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id),
    orderId: integer('order_id')
      .notNull()
      .unique()
      .references(() => orders.id),
    listingId: integer('listing_id')
      .notNull()
      .references(() => listings.id),
    amount: integer('amount').notNull(),
    platformFee: integer('platform_fee').notNull(),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    payableAfter: integer('payable_after').notNull(),
    status: text('status', { enum: ['pending', 'paid'] })
      .notNull()
      .default('pending'),
    createdAt,
  },
  (t) => [index('seller_payouts_seller_idx').on(t.sellerId, t.status)],
);

export const payments = sqliteTable(
  'payments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref').notNull().unique(),
    method: text('method').$type<PaymentMethod>().notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['created', 'succeeded', 'failed', 'cancelled', 'refunded'] }).notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of the request that opened it (src/lib/domain/idempotency.ts). */
    requestHash: text('request_hash'),
    paidAt: integer('paid_at'),
    refundedAt: integer('refunded_at'),
    createdAt,
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('payments_order_idx').on(t.orderId), uniqueIndex('payments_idempotency_idx').on(t.orderId, t.idempotencyKey)],
);

/**
 * The built-in sandbox payment provider's own ledger: what its hosted page shows and what a
 * re-query answers. It stands apart from `payments` as a real provider's records would.
 */
export const sandboxPayments = sqliteTable('sandbox_payments', {
  ref: text('ref').primaryKey(),
  merchantRef: text('merchant_ref').notNull(),
  method: text('method').$type<PaymentMethod>().notNull(),
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  status: text('status', { enum: ['pending', 'approved', 'declined', 'cancelled', 'refunded'] }).notNull(),
  returnUrl: text('return_url').notNull(),
  notifyUrl: text('notify_url').notNull(),
  createdAt,
  updatedAt: integer('updated_at').notNull(),
});

/** Webhook deliveries already taken: a replayed event id is acknowledged and ignored. */
export const paymentWebhookEvents = sqliteTable('payment_webhook_events', {
  eventId: text('event_id').primaryKey(),
  provider: text('provider').notNull(),
  receivedAt: integer('received_at').notNull(),
});

export const invitations = sqliteTable(
  'invitations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    inviterId: integer('inviter_id')
      .notNull()
      .references(() => users.id),
    inviteeId: integer('invitee_id')
      .notNull()
      .unique()
      .references(() => users.id),
    /** The inviter's reward: waiting for the friend's first paid order, granted, or over the month's cap. */
    rewardState: text('reward_state', { enum: ['waiting', 'granted', 'capped'] })
      .notNull()
      .default('waiting'),
    /** The friend's paid order that decided the reward (a refund of it sends the reward back to waiting). */
    rewardOrderId: integer('reward_order_id'),
    rewardedAt: integer('rewarded_at'),
    createdAt,
  },
  (t) => [index('invitations_inviter_reward_idx').on(t.inviterId, t.rewardedAt)],
);

/** Door staff: a seller (or an operator) lets an account admit the seller's tickets at one session's gate. */
export const gateStaff = sqliteTable(
  'gate_staff',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sessionId: integer('session_id')
      .notNull()
      .references(() => activitySessions.id),
    /** Whose tickets the staff admits: the seller who assigned them. */
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id),
    staffId: integer('staff_id')
      .notNull()
      .references(() => users.id),
    createdAt,
  },
  (t) => [
    uniqueIndex('gate_staff_unique').on(t.sessionId, t.sellerId, t.staffId),
    index('gate_staff_staff_idx').on(t.staffId, t.sessionId),
  ],
);

export const lotteries = sqliteTable('lotteries', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  activityId: integer('activity_id')
    .notNull()
    .references(() => activities.id),
  tierId: integer('tier_id')
    .notNull()
    .references(() => ticketTiers.id),
  prizeCount: integer('prize_count').notNull(),
  maxCodesPerEntry: integer('max_codes_per_entry').notNull(),
  drawAt: integer('draw_at').notNull(),
  /** SHA-256 of the draw seed, published before the draw; the seed is published after it. */
  seedCommitment: text('seed_commitment').notNull(),
  /** Stored from the start (the draw needs it) but answered only once the lottery is drawn. */
  seed: text('seed'),
  /** open → drawing (codes frozen, claimed by one sweep or reader) → drawn (winners recorded). */
  status: text('status', { enum: ['open', 'drawing', 'drawn'] })
    .notNull()
    .default('open'),
  /** Tickets of the lottery's tier in each winner's free order. */
  ticketsPerPrize: integer('tickets_per_prize').notNull().default(1),
  drawnAt: integer('drawn_at'),
  /** Entries (and friends' help) are taken from `entryOpensAt` until `entryClosesAt`, or until the draw when null. */
  entryOpensAt: integer('entry_opens_at').notNull().default(0),
  entryClosesAt: integer('entry_closes_at'),
  /** A retired lottery takes no entries, never draws, and buyers no longer see it. */
  retiredAt: integer('retired_at'),
});

export const lotteryEntries = sqliteTable(
  'lottery_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    lotteryId: integer('lottery_id')
      .notNull()
      .references(() => lotteries.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    shareToken: text('share_token').notNull().unique(),
    createdAt,
  },
  (t) => [uniqueIndex('lottery_entries_user_idx').on(t.lotteryId, t.userId)],
);

export const lotteryCodes = sqliteTable(
  'lottery_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    entryId: integer('entry_id')
      .notNull()
      .references(() => lotteryEntries.id),
    /**
     * Kept on the code so a code is unique within its lottery and a friend helps once per lottery.
     * Nullable only because SQLite cannot add a NOT NULL reference to an existing table; always set.
     */
    lotteryId: integer('lottery_id').references(() => lotteries.id),
    code: text('code').notNull(),
    /** The friend whose help earned this code; null for the code given on joining. */
    helperUserId: integer('helper_user_id').references(() => users.id),
    isWinner: integer('is_winner', { mode: 'boolean' }).notNull().default(false),
    createdAt,
  },
  (t) => [
    uniqueIndex('lottery_codes_code_idx').on(t.entryId, t.code),
    uniqueIndex('lottery_help_idx').on(t.entryId, t.helperUserId),
    uniqueIndex('lottery_codes_lottery_code_idx').on(t.lotteryId, t.code),
    uniqueIndex('lottery_codes_lottery_helper_idx').on(t.lotteryId, t.helperUserId),
  ],
);

export const favourites = sqliteTable(
  'favourites',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id),
    type: integer('type').notNull(),
    createdAt,
  },
  (t) => [primaryKey({ columns: [t.userId, t.activityId, t.type] })],
);

export const hotKeywords = sqliteTable('hot_keywords', {
  id: integer('id').primaryKey(),
  locale: text('locale', { enum: ['en', 'zh-Hant', 'zh-Hans'] }).notNull(),
  keyword: text('keyword').notNull(),
  landingPageType: integer('landing_page_type').notNull().default(1),
  landingPageParams: text('landing_page_params').notNull().default(''),
  content: text('content').notNull().default(''),
  sort: integer('sort').notNull().default(0),
  /** Live from `startsAt` until `endsAt` (never ending when null) unless retired (domain/storefront-schedule.ts). */
  startsAt: integer('starts_at').notNull().default(0),
  endsAt: integer('ends_at'),
  retiredAt: integer('retired_at'),
});

export const banners = sqliteTable('banners', {
  id: integer('id').primaryKey(),
  cityId: integer('city_id').references(() => cities.id),
  activityId: integer('activity_id').references(() => activities.id),
  poster: text('poster').notNull(),
  url: text('url').notNull(),
  sort: integer('sort').notNull().default(0),
  /** Live from `startsAt` until `endsAt` (never ending when null) unless retired (domain/storefront-schedule.ts). */
  startsAt: integer('starts_at').notNull().default(0),
  endsAt: integer('ends_at'),
  retiredAt: integer('retired_at'),
});

export const popUpBoxes = sqliteTable('pop_up_boxes', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  sceneType: text('scene_type').notNull(),
  /** JSON string, as the spec's pop-up box carries it. */
  content: text('content').notNull(),
  currency: text('currency')
    .notNull()
    .references(() => currencies.code),
  validFrom: integer('valid_from').notNull(),
  validTo: integer('valid_to').notNull(),
  retiredAt: integer('retired_at'),
});

export const locationHistory = sqliteTable('location_history', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: integer('user_id'),
  deviceId: text('device_id'),
  cityId: integer('city_id')
    .notNull()
    .references(() => cities.id),
  createdAt,
});

/**
 * Each activity's cheapest listing as a card shows it, kept by the triggers of migration 0027 so that
 * a card reads one row (services/catalogue/catalogue.ts cheapestListing): the answer for picked_at <= now <
 * on_sale_until (null: not on sale, the answer for every later time). No row: no listing but withdrawn ones.
 */
export const activityCheapestListings = sqliteTable(
  'activity_cheapest_listings',
  {
    activityId: integer('activity_id').primaryKey(),
    listingId: integer('listing_id').notNull(),
    price: integer('price').notNull(),
    currency: text('currency').notNull(),
    faceValue: integer('face_value').notNull(),
    onSaleUntil: integer('on_sale_until'),
    pickedAt: integer('picked_at').notNull(),
  },
  (t) => [index('activity_cheapest_listings_until_idx').on(t.onSaleUntil)],
);

/**
 * One row (id 1): the version of what the shared browse pages show. Triggers of migration
 * 0012_page_cache_version bump it on every write that changes a card, a price, a sale state or a
 * rate, so the edge cache's key moves on and no page shows a stale price for long (http/page-cache.ts).
 */
export const catalogueVersion = sqliteTable('catalogue_version', {
  id: integer('id').primaryKey(),
  version: integer('version').notNull(),
});

/**
 * A buyer waiting for a sold-out tier with a group of tickets. The earliest entry whose
 * whole group fits in one listing's returned tickets gets an offer; `id` order is the queue order.
 */
export const waitlistEntries = sqliteTable(
  'waitlist_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tierId: integer('tier_id')
      .notNull()
      .references(() => ticketTiers.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    quantity: integer('quantity').notNull(),
    /** waiting → offered → bought, or left (the buyer) / lapsed (the offer ran out). */
    status: text('status', { enum: ['waiting', 'offered', 'bought', 'left', 'lapsed'] })
      .notNull()
      .default('waiting'),
    createdAt,
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('waitlist_entries_tier_idx').on(t.tierId, t.status, t.id), index('waitlist_entries_user_idx').on(t.userId, t.status)],
);

/** Tickets of one listing held for one waiting buyer until `expiresAt`; claimed by their order. */
export const waitlistOffers = sqliteTable(
  'waitlist_offers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    entryId: integer('entry_id')
      .notNull()
      .unique()
      .references(() => waitlistEntries.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    listingId: integer('listing_id')
      .notNull()
      .references(() => listings.id),
    quantity: integer('quantity').notNull(),
    status: text('status', { enum: ['open', 'claimed', 'lapsed', 'withdrawn'] })
      .notNull()
      .default('open'),
    expiresAt: integer('expires_at').notNull(),
    orderId: integer('order_id'),
    createdAt,
  },
  (t) => [index('waitlist_offers_status_idx').on(t.status, t.expiresAt), index('waitlist_offers_user_idx').on(t.userId, t.status)],
);

/** The marketplace's staff: each row one role of one account (domain/staff.ts says what each may do). */
export const staffRoles = sqliteTable(
  'staff_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role', { enum: STAFF_ROLES }).notNull(),
    /** Who gave it; null for the first operator, made by the deploy command. */
    grantedBy: integer('granted_by').references(() => users.id),
    grantedAt: integer('granted_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);

/** Every change a staff member made: who, when, what, and the subject before and after (JSON). */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    actorId: integer('actor_id').references(() => users.id),
    at: integer('at').notNull(),
    /** What was done, e.g. `activity.publish` (services/staff/audit.ts). */
    action: text('action').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    beforeJson: text('before_json'),
    afterJson: text('after_json'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at, t.id),
    index('audit_log_actor_idx').on(t.actorId, t.at),
    index('audit_log_subject_idx').on(t.subjectType, t.subjectId, t.at),
  ],
);

// Storefront curation: coupon campaigns.

/** A coupon (terms and validity on its `coupons` row, purpose 'campaign') offered to an audience, up to `claimLimit` claims while it runs. */
export const couponCampaigns = sqliteTable(
  'coupon_campaigns',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    couponId: integer('coupon_id')
      .notNull()
      .references(() => coupons.id),
    audience: text('audience', { enum: ['all', 'new_buyers', 'city'] }).notNull(),
    /** The city whose buyers may claim, for audience 'city'. */
    cityId: integer('city_id').references(() => cities.id),
    claimLimit: integer('claim_limit').notNull(),
    startsAt: integer('starts_at').notNull(),
    endsAt: integer('ends_at').notNull(),
    retiredAt: integer('retired_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('coupon_campaigns_coupon_idx').on(t.couponId)],
);
/** A session's waiting-room admission rate set by an operator; a session without a row admits at WAITING_ROOM_ADMISSIONS_PER_MINUTE. */
export const sessionAdmissionRates = sqliteTable('session_admission_rates', {
  sessionId: integer('session_id')
    .primaryKey()
    .references(() => activitySessions.id),
  perMinute: integer('per_minute').notNull(),
  setBy: integer('set_by').references(() => users.id),
  setAt: integer('set_at').notNull(),
});

// Uploaded images.

/** A poster or banner uploaded from the console: its master JPEG is the MEDIA bucket's object `key`, its variants beside it. */
export const images = sqliteTable(
  'images',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['activity', 'banner'] }).notNull(),
    key: text('key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    contentType: text('content_type').notNull(),
    bytes: integer('bytes').notNull(),
    /** Null for the demo seed's images. */
    uploadedBy: integer('uploaded_by').references(() => users.id),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('images_key_unique').on(t.key), index('images_kind_created_idx').on(t.kind, t.createdAt)],
);

// Staff sign-in: passkeys, their one-time challenges, and invitations.

/** A staff member's passkey (WebAuthn credential): its COSE public key (base64url) and the authenticator's last signature count. */
export const staffPasskeys = sqliteTable(
  'staff_passkeys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The credential's id, base64url, as the browser names it. */
    credentialId: text('credential_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    publicKey: text('public_key').notNull(),
    signCount: integer('sign_count').notNull().default(0),
    /** JSON array of the transports the authenticator said it speaks (`internal`, `usb`, `hybrid`…). */
    transports: text('transports').notNull().default('[]'),
    /** The staff member's own name for it ("Work laptop"). */
    name: text('name').notNull(),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
  },
  (t) => [uniqueIndex('staff_passkeys_credential_idx').on(t.credentialId), index('staff_passkeys_user_idx').on(t.userId)],
);

/** A WebAuthn challenge handed out and not yet answered: its SHA-256, what it is for, until when; answering deletes it. */
export const webauthnChallenges = sqliteTable(
  'webauthn_challenges',
  {
    challengeHash: text('challenge_hash').primaryKey(),
    purpose: text('purpose', { enum: ['sign_in', 'registration'] }).notNull(),
    /** Whose registration it is; null for a sign-in, which names nobody until the passkey answers. */
    userId: integer('user_id').references(() => users.id),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('webauthn_challenges_expiry_idx').on(t.expiresAt)],
);

/** An operator's invitation of a person (by phone) to a staff role; the link's token is stored as its SHA-256 only. */
export const staffInvitations = sqliteTable(
  'staff_invitations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tokenHash: text('token_hash').notNull(),
    role: text('role', { enum: STAFF_ROLES }).notNull(),
    /** The invitee's phone, as accounts store it ("+852", "91234567"): only its code signs in to accept. */
    phoneCountryCode: text('phone_country_code').notNull(),
    phone: text('phone').notNull(),
    invitedBy: integer('invited_by')
      .notNull()
      .references(() => users.id),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    acceptedBy: integer('accepted_by').references(() => users.id),
    acceptedAt: integer('accepted_at'),
    revokedAt: integer('revoked_at'),
  },
  (t) => [uniqueIndex('staff_invitations_token_idx').on(t.tokenHash), index('staff_invitations_created_idx').on(t.createdAt)],
);
