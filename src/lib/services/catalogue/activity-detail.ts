/**
 * The activity detail and its ticket picker data (SPEC.md sections 3, 4 and 7): the activity with its
 * open sessions and tiers, the ticket categories, the DIRECT_BUY offer of a tier (its seller listings),
 * and the notify-me subscriptions. Prices are stored in each listing's currency and shown converted to
 * the request currency; stock comes from the listings' `quantity_available`.
 */
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { SALE_STARTED_NOTICE_WINDOW_MS } from '../../config/messages.ts';
import { ACCOUNT_TICKET_CAP } from '../../config/orders.ts';
import type { DeliveryType } from '../../domain/delivery.ts';
import type { Db } from '../../data/client.ts';
import { prefixedTable } from '../../data/batch-columns.ts';
import { type Bound, compiledSelect } from '../../data/compiled-select.ts';
import { read, readOne, type Read } from '../../data/read-together.ts';
import {
  activities,
  activitySessions,
  artists,
  type categories,
  type cities,
  favourites,
  listings,
  ticketTiers,
  venues,
} from '../../db/schema.ts';
import {
  availability,
  listingOnSale,
  sessionOpen,
  ticketsAvailable,
  type Availability,
  type SaleState,
} from '../../domain/availability.ts';
import { ACTIVITY_STATUS } from '../../domain/activity.ts';
import { formatDateRange } from '../../domain/datetime.ts';
import { accountTicketCap } from '../../domain/order-limits.ts';
import { DomainError } from '../../domain/errors.ts';
import { convert, formatMoney, type CurrencyTable, type Money } from '../../domain/money.ts';
import type { RequestContext } from '../../domain/request-context.ts';
import { allInAmount, fromPriceOf } from '../../domain/pricing.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import type { SessionStatus } from '../../domain/show-changes.ts';
import {
  compareListings,
  DIRECT_BUY,
  parseDeliveryTypes,
  quantityRange,
  rangeAllows,
  type OrderLimits,
  type Seating,
} from '../../domain/ticket-offer.ts';
import { venueMapUrl } from '../../domain/venue.ts';
import { translator } from '../../i18n/index.ts';
import { localizedAddress, localizedName, type Locale } from '../../i18n/locales.ts';
import type { RequestScope, UserScope } from '../platform/scope.ts';

/** Favourite type 1 of the spec's `v1/activity/favorite/{id}?type=1`: notify me when tickets are available. */
export const FAVOURITE_TYPE_NOTIFY = 1;
export const FAVOURITE_TYPES = [FAVOURITE_TYPE_NOTIFY] as const;

/** A listing with this many tickets or fewer carries a "tickets left" tip. */
const LOW_STOCK_TIP_AT = 5;

export interface TierView {
  id: number;
  /** The tier's name: the spec's ticket category "specification". */
  specification: string;
  hasTicket: boolean;
  available: number;
  /** Face value, converted to the request currency (minor units). */
  faceValue: number;
  faceValueView: string;
  /**
   * One ticket of the cheapest listing with tickets left, all-in (service fee included) in the request
   * currency and rounded up to whole units as a "from" price; null when none.
   */
  lowPrice: number | null;
  lowPriceView: string | null;
  /** On sale as high demand of its own ("Per tier"): its buyers queue in its own waiting room. */
  highDemand: boolean;
}

export interface SessionView {
  id: number;
  startsAt: number;
  endsAt: number;
  /** Cancelled or postponed by an operator (services/catalogue/show-changes.ts); a postponed one keeps its first date. */
  status: SessionStatus;
  originalStartsAt: number | null;
  /** Date, weekday and time in the venue's time zone and the page's locale. */
  label: string;
  hasTicket: boolean;
  /** Its buyers queue in its waiting room before checkout. */
  highDemand: boolean;
  /** Tickets one account may buy of it, paid or awaiting payment (domain/order-limits.ts). */
  accountTicketCap: number;
  tiers: TierView[];
}

export interface ActivityDetail {
  id: number;
  name: string;
  poster: string;
  description: string;
  category: { id: number; slug: string; name: string };
  venue: { name: string; address: string; mapUrl: string; city: string; latitude: number; longitude: number };
  /** The city's time zone, where the sessions' clock times are. */
  timeZone: string;
  /** The artist's name, when the activity names one. */
  performer: string | null;
  timeRange: string;
  status: number;
  saleStartsAt: number;
  saleState: SaleState;
  bookable: boolean;
  notifyMe: boolean;
  realNameRequired: boolean;
  numMin: number;
  numMax: number;
  currency: string;
  /** The lowest all-in "from" price with tickets left, with the spec's '+', or null. */
  lowPriceView: string | null;
  /**
   * The range of the tiers' prices (each tier at its all-in "from" price, else its face value), in
   * minor units of `currency` with `minorDigits`; null when there is no tier.
   */
  priceRange: { low: number; high: number } | null;
  minorDigits: number;
  /** Sessions still to come, earliest first. */
  sessions: SessionView[];
}

export interface TicketCategoryView {
  id: number;
  specification: string;
  hasTicket: boolean;
  sessionId: number;
  sessionTime: string;
  faceValueView: string;
  lowPriceView: string | null;
}

export interface TicketGroupInfo {
  /** The quantity preselected for this listing: the smallest allowed. */
  selectCount: number;
  /** A short note for the buyer ("3 tickets left"), or ''. */
  tip: string;
  currency: string;
  /** All-in total (service fee included) for `selectCount` tickets, formatted. */
  totalPriceView: string;
  /**
   * `id` is the listing id an order is placed on; prices are converted minor units of `currency`:
   * `salePrice` is one ticket without the service fee, as checkout's unit price (pricing.ts allInAmount adds it).
   */
  ticketGroup: { id: number; originPrice: number; salePrice: number };
  /** One ticket all-in (service fee included), exact in minor units. */
  salePriceView: string;
  originPriceView: string;
  available: number;
  minQuantity: number;
  maxQuantity: number;
  seating: Seating;
  deliveryTypes: DeliveryType[];
}

export interface TicketOffer {
  type: typeof DIRECT_BUY;
  numMin: number;
  numMax: number;
  /** The quantities any listing of the offer allows (selectNumMax 0 when none has tickets). */
  selectNumMin: number;
  selectNumMax: number;
  currency: string;
  /** Digits of the currency's minor unit, so the picker formats totals as the server does. */
  minorDigits: number;
  ticketGroupInfoList: TicketGroupInfo[];
}

type ActivityRow = typeof activities.$inferSelect;
type ListingRow = typeof listings.$inferSelect;
type TierRow = typeof ticketTiers.$inferSelect;
type SessionRow = typeof activitySessions.$inferSelect;

interface Names {
  nameEn: string;
  nameZhHant: string;
  nameZhHans: string;
}

/** The names of a left-joined row: null when the join found none. */
function joinedNames(row: { [K in keyof Names]: string | null }): Names | null {
  const { nameEn, nameZhHant, nameZhHans } = row;
  return nameEn !== null && nameZhHant !== null && nameZhHans !== null ? { nameEn, nameZhHant, nameZhHans } : null;
}

interface LoadedActivity {
  activity: ActivityRow;
  venue: typeof venues.$inferSelect;
  /** Null when the activity names no artist. */
  artist: Names | null;
  city: typeof cities.$inferSelect;
  category: typeof categories.$inferSelect;
}

/** What formatting prices in the request currency needs. */
interface Pricing {
  table: CurrencyTable;
  currency: string;
  digits: number;
  locale: Locale;
}

function pricing(table: CurrencyTable, ctx: RequestContext): Pricing {
  return { table, currency: ctx.currency, digits: table.get(ctx.currency)?.minorDigits ?? 2, locale: ctx.locale };
}

function inRequestCurrency(money: Money, p: Pricing): Money {
  return convert(money, p.currency, p.table);
}

function view(money: Money, p: Pricing): string {
  return formatMoney(money, p.locale, p.digits);
}

type ActivityValues = { activityId: number };

const activitySelect = (db: Db, activityId: Bound<number>) =>
  db
    .select({
      activity: activities,
      venue: prefixedTable('venue', venues),
      artist: {
        nameEn: sql<string | null>`${artists.nameEn}`.as('artist.name_en'),
        nameZhHant: sql<string | null>`${artists.nameZhHant}`.as('artist.name_zh_hant'),
        nameZhHans: sql<string | null>`${artists.nameZhHans}`.as('artist.name_zh_hans'),
      },
    })
    .from(activities)
    .innerJoin(venues, eq(venues.id, activities.venueId))
    .leftJoin(artists, eq(artists.id, activities.artistId))
    .where(eq(activities.id, activityId));

const sessionsSelect = (db: Db, activityId: Bound<number>) =>
  db.select().from(activitySessions).where(eq(activitySessions.activityId, activityId)).orderBy(asc(activitySessions.startsAt));

const tiersSelect = (db: Db, activityId: Bound<number>) =>
  db
    .select({ tier: ticketTiers })
    .from(ticketTiers)
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .where(eq(activitySessions.activityId, activityId))
    .orderBy(asc(ticketTiers.sort), asc(ticketTiers.id));

const listingsSelect = (db: Db, activityId: Bound<number>) =>
  db
    .select({ listing: listings })
    .from(listings)
    .innerJoin(ticketTiers, eq(ticketTiers.id, listings.tierId))
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .where(and(eq(activitySessions.activityId, activityId), ne(listings.status, 'withdrawn')));

// Read by every rendered detail page: the text of its four selects is built once (data/compiled-select.ts).
const activityStatement = compiledSelect<ActivityValues, ReturnType<typeof activitySelect>>(['activityId'], (db, { activityId }) =>
  activitySelect(db, activityId),
);
const sessionsStatement = compiledSelect<ActivityValues, ReturnType<typeof sessionsSelect>>(['activityId'], (db, { activityId }) =>
  sessionsSelect(db, activityId),
);
const tiersStatement = compiledSelect<ActivityValues, ReturnType<typeof tiersSelect>>(['activityId'], (db, { activityId }) =>
  tiersSelect(db, activityId),
);
const listingsStatement = compiledSelect<ActivityValues, ReturnType<typeof listingsSelect>>(['activityId'], (db, { activityId }) =>
  listingsSelect(db, activityId),
);

/** An activity with its venue, city and category, its sessions, tiers and the listings that are not withdrawn, in one batch. */
function activityRead(scope: RequestScope, id: number): Read<Loaded | null> {
  const { db, reference, currencies: table } = scope;
  const values = { activityId: id };
  return read(
    [activityStatement(db, values), sessionsStatement(db, values), tiersStatement(db, values), listingsStatement(db, values)],
    ([[row], sessionRows, tierRows, listingRows]) => {
      const city = row && reference.cities.find((each) => each.id === row.activity.cityId);
      const category = row && reference.categories.find((each) => each.id === row.activity.categoryId);
      // Drafts (status 0) are not published.
      if (!row || !city || !category || row.activity.status === 0) return null;
      return {
        ...row,
        artist: joinedNames(row.artist),
        city,
        category,
        sessionRows,
        tierRows: tierRows.map((r) => r.tier),
        listingRows: listingRows.map((r) => r.listing),
        table,
      };
    },
  );
}

function groupBy<T>(rows: readonly T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

function tierView(tier: TierRow, tierListings: readonly ListingRow[], p: Pricing): TierView {
  const available = ticketsAvailable(tierListings);
  const prices = tierListings.filter(listingOnSale).map((l) => fromPriceOf({ amount: l.price, currency: l.currency }, p.currency, p.table));
  const low = prices.reduce<Money | null>((min, price) => (min === null || price.amount < min.amount ? price : min), null);
  const face = inRequestCurrency({ amount: tier.faceValue, currency: tier.currency }, p);
  return {
    id: tier.id,
    specification: localizedName(tier, p.locale),
    hasTicket: available > 0,
    available,
    faceValue: face.amount,
    faceValueView: view(face, p),
    lowPrice: low?.amount ?? null,
    lowPriceView: low ? view(low, p) : null,
    highDemand: tier.highDemand,
  };
}

function sessionViews(
  sessionRows: readonly SessionRow[],
  tierRows: readonly TierRow[],
  listingRows: readonly ListingRow[],
  timeZone: string,
  p: Pricing,
  now: number,
): SessionView[] {
  const tiersBySession = groupBy(tierRows, (t) => t.sessionId);
  const listingsByTier = groupBy(listingRows, (l) => l.tierId);
  return sessionRows
    .filter((session) => sessionOpen(session.startsAt, now))
    .map((session) => {
      const tiers = (tiersBySession.get(session.id) ?? []).map((tier) => tierView(tier, listingsByTier.get(tier.id) ?? [], p));
      return {
        id: session.id,
        startsAt: session.startsAt,
        endsAt: session.endsAt,
        status: session.status,
        originalStartsAt: session.originalStartsAt,
        label: formatSessionTime(session.startsAt, p.locale, timeZone),
        hasTicket: tiers.some((tier) => tier.hasTicket),
        highDemand: session.highDemand,
        accountTicketCap: accountTicketCap(session.accountTicketCap, ACCOUNT_TICKET_CAP),
        tiers,
      };
    });
}

function localizedDescription(activity: ActivityRow, locale: Locale): string {
  return localizedName(
    { nameEn: activity.descriptionEn, nameZhHant: activity.descriptionZhHant, nameZhHans: activity.descriptionZhHans },
    locale,
  );
}

interface Loaded extends LoadedActivity {
  sessionRows: SessionRow[];
  tierRows: TierRow[];
  listingRows: ListingRow[];
  table: CurrencyTable;
}

function loadAll(scope: RequestScope, id: number): Promise<Loaded | null> {
  return readOne(scope.db, activityRead(scope, id));
}

/** The activity's sale state, from its status, dates and the tickets left in its sessions still to come. */
function saleOf(loaded: Loaded, now: number): Availability {
  const openSessions = new Set(loaded.sessionRows.filter((s) => sessionOpen(s.startsAt, now)).map((s) => s.id));
  const openTiers = new Set(loaded.tierRows.filter((t) => openSessions.has(t.sessionId)).map((t) => t.id));
  return availability(
    {
      status: loaded.activity.status,
      saleStartsAt: loaded.activity.saleStartsAt,
      lastSessionStartsAt: loaded.sessionRows.at(-1)?.startsAt ?? loaded.activity.endsAt,
      available: ticketsAvailable(loaded.listingRows.filter((l) => openTiers.has(l.tierId))),
    },
    now,
  );
}

function detailOf(loaded: Loaded, p: Pricing, now: number): ActivityDetail {
  const { activity, venue, city, category } = loaded;
  const sessions = sessionViews(loaded.sessionRows, loaded.tierRows, loaded.listingRows, city.timeZone, p, now);
  const sale = saleOf(loaded, now);
  const lows = sessions
    .flatMap((s) => s.tiers)
    .map((tier) => tier.lowPrice)
    .filter((price): price is number => price !== null);
  const venueName = localizedName(venue, p.locale);
  const tierPrices = sessions.flatMap((s) => s.tiers).map((tier) => tier.lowPrice ?? tier.faceValue);
  const { artist } = loaded;
  return {
    id: activity.id,
    name: localizedName(activity, p.locale),
    poster: activity.poster,
    description: localizedDescription(activity, p.locale),
    category: { id: category.id, slug: category.slug, name: localizedName(category, p.locale) },
    venue: {
      name: venueName,
      address: localizedAddress(venue, p.locale),
      mapUrl: venueMapUrl({ name: venueName, longitude: venue.longitude, latitude: venue.latitude, inMainlandChina: city.isChina }),
      city: localizedName(city, p.locale),
      latitude: venue.latitude,
      longitude: venue.longitude,
    },
    timeZone: city.timeZone,
    performer: artist && localizedName(artist, p.locale),
    timeRange: formatDateRange(activity.startsAt, activity.endsAt, p.locale, city.timeZone),
    status: activity.status,
    saleStartsAt: activity.saleStartsAt,
    saleState: sale.state,
    bookable: sale.bookable,
    notifyMe: sale.notifyMe,
    realNameRequired: activity.realNameRequired,
    numMin: activity.numMin,
    numMax: activity.numMax,
    currency: p.currency,
    lowPriceView: sale.bookable && lows.length > 0 ? `${view({ amount: Math.min(...lows), currency: p.currency }, p)}+` : null,
    priceRange: tierPrices.length > 0 ? { low: Math.min(...tierPrices), high: Math.max(...tierPrices) } : null,
    minorDigits: p.digits,
    sessions,
  };
}

/** The activity detail in the request's locale and currency, or null when there is no such (published) activity. */
export async function activityDetail(scope: RequestScope, id: number): Promise<ActivityDetail | null> {
  const { ctx, now } = scope;
  const loaded = await loadAll(scope, id);
  return loaded ? detailOf(loaded, pricing(loaded.table, ctx), now) : null;
}

/** The spec's ticket categories of an activity (tiers of its sessions still to come); null for an unknown activity. */
export async function ticketCategories(scope: RequestScope, eventId: number): Promise<TicketCategoryView[] | null> {
  const detail = await activityDetail(scope, eventId);
  if (!detail) return null;
  return detail.sessions.flatMap((session) =>
    session.tiers.map((tier) => ({
      id: tier.id,
      specification: tier.specification,
      hasTicket: detail.bookable && tier.hasTicket,
      sessionId: session.id,
      sessionTime: session.label,
      faceValueView: tier.faceValueView,
      lowPriceView: tier.lowPriceView,
    })),
  );
}

function offerOf(activity: ActivityRow, tier: TierRow, tierListings: readonly ListingRow[], p: Pricing): TicketOffer {
  const t = translator(p.locale);
  const limits: OrderLimits = { numMin: activity.numMin, numMax: activity.numMax };
  const origin = inRequestCurrency({ amount: tier.faceValue, currency: tier.currency }, p);
  const groups = tierListings
    .filter(listingOnSale)
    .map((listing) => ({
      listing,
      range: quantityRange(limits, listing.quantityAvailable),
      price: inRequestCurrency({ amount: listing.price, currency: listing.currency }, p),
    }))
    .filter(({ range }) => rangeAllows(range))
    .sort((a, b) => compareListings({ price: a.price.amount, id: a.listing.id }, { price: b.price.amount, id: b.listing.id }))
    .map(
      ({ listing, range, price }): TicketGroupInfo => ({
        selectCount: range.min,
        tip: listing.quantityAvailable <= LOW_STOCK_TIP_AT ? t('detail.offer.ticketsLeft', { count: listing.quantityAvailable }) : '',
        currency: p.currency,
        totalPriceView: view({ amount: allInAmount(price.amount, range.min), currency: p.currency }, p),
        ticketGroup: { id: listing.id, originPrice: origin.amount, salePrice: price.amount },
        salePriceView: view({ amount: allInAmount(price.amount, 1), currency: p.currency }, p),
        originPriceView: view(origin, p),
        available: listing.quantityAvailable,
        minQuantity: range.min,
        maxQuantity: range.max,
        seating: listing.seating,
        deliveryTypes: parseDeliveryTypes(listing.deliveryTypes),
      }),
    );
  return {
    type: DIRECT_BUY,
    numMin: limits.numMin,
    numMax: limits.numMax,
    selectNumMin: Math.max(1, limits.numMin),
    selectNumMax: groups.reduce((max, group) => Math.max(max, group.maxQuantity), 0),
    currency: p.currency,
    minorDigits: p.digits,
    ticketGroupInfoList: groups,
  };
}

/** The offer of one tier, or the reason there is none (unknown tier, or activity not on sale). */
function tierOffer(loaded: Loaded, tierId: number, p: Pricing, now: number): TicketOffer {
  const tier = loaded.tierRows.find((row) => row.id === tierId);
  const session = tier && loaded.sessionRows.find((row) => row.id === tier.sessionId);
  if (!tier || !session || !sessionOpen(session.startsAt, now)) throw new DomainError('ticket_category_not_found', {}, 'ticketCategoryId');
  if (!saleOf(loaded, now).bookable) throw new DomainError('activity_not_on_sale');
  return offerOf(
    loaded.activity,
    tier,
    loaded.listingRows.filter((row) => row.tierId === tier.id),
    p,
  );
}

/**
 * The spec's `POST /api/v8/tickets` answer: the offers of one tier of an activity, as a list whose
 * DIRECT_BUY entry the picker uses. 404 for an unknown activity or a tier that is not one of its open
 * sessions'; 409 when the activity is not on sale.
 */
export async function ticketOffers(scope: RequestScope, eventId: number, ticketCategoryId: number): Promise<TicketOffer[]> {
  const { ctx, now } = scope;
  const loaded = await loadAll(scope, eventId);
  if (!loaded) throw new DomainError('activity_not_found');
  return [tierOffer(loaded, ticketCategoryId, pricing(loaded.table, ctx), now)];
}

export interface InitialPick {
  sessionId: number;
  tierId: number;
  offer: TicketOffer;
}

/**
 * The detail page in one load: the detail, plus the picker's first choice when the activity is on sale
 * (the first session with tickets, its first tier with tickets, and that tier's offer).
 */
export async function activityPage(
  scope: RequestScope,
  id: number,
): Promise<{ detail: ActivityDetail; initial: InitialPick | null } | null> {
  const { ctx, now } = scope;
  const loaded = await loadAll(scope, id);
  if (!loaded) return null;
  const p = pricing(loaded.table, ctx);
  const detail = detailOf(loaded, p, now);
  const session = detail.bookable ? detail.sessions.find((s) => s.hasTicket) : undefined;
  const tier = session?.tiers.find((t) => t.hasTicket);
  const initial = session && tier ? { sessionId: session.id, tierId: tier.id, offer: tierOffer(loaded, tier.id, p, now) } : null;
  return { detail, initial };
}

async function requireActivity(db: Db, activityId: number): Promise<void> {
  const [row] = await db.select({ id: activities.id, status: activities.status }).from(activities).where(eq(activities.id, activityId));
  if (!row || row.status === 0) throw new DomainError('activity_not_found');
}

/** Whether the user subscribed to an activity with a favourite type (notify me when available). */
export async function subscriptionStatus(scope: UserScope, activityId: number, type: number): Promise<boolean> {
  const { db, userId } = scope;
  await requireActivity(db, activityId);
  const [row] = await db
    .select({ type: favourites.type })
    .from(favourites)
    .where(and(eq(favourites.userId, userId), eq(favourites.activityId, activityId), eq(favourites.type, type)));
  return row !== undefined;
}

/** Subscribes the user; subscribing again changes nothing, so a retried request is harmless. */
export async function subscribe(scope: UserScope, activityId: number, type: number): Promise<void> {
  const { db, userId, now } = scope;
  await requireActivity(db, activityId);
  await db.insert(favourites).values({ userId, activityId, type, createdAt: now }).onConflictDoNothing();
}

/**
 * Tells each notify-me subscriber of an activity whose sale has started. A sale start time
 * passing changes no row, so the cron sweep writes these messages (an operator putting the activity
 * on sale is a trigger's, migration 0014). One per activity and subscriber (the key); a sale that
 * started more than SALE_STARTED_NOTICE_WINDOW_MS ago is not news.
 */
export async function writeSaleStartedMessages(db: Db, now: number): Promise<number> {
  const { meta } = await db.$client
    .prepare(`
    INSERT INTO messages (id, dedupe_key, kind, user_id, channel, target, payload, created_at)
    SELECT lower(hex(randomblob(16))), 'sale_started:' || a.id || ':' || r.user_id, 'sale_started', r.user_id, r.channel, r.target,
      json_object('activityId', a.id), ?1
    FROM favourites f
    JOIN activities a ON a.id = f.activity_id
    JOIN message_recipients r ON r.user_id = f.user_id
    WHERE f.type = ?2 AND a.sale_starts_at <= ?1 AND a.sale_starts_at > ?1 - ?3 AND a.status IN (?4, ?5) AND a.ends_at > ?1
    ON CONFLICT (dedupe_key) DO NOTHING`)
    .bind(now, FAVOURITE_TYPE_NOTIFY, SALE_STARTED_NOTICE_WINDOW_MS, ACTIVITY_STATUS.onSale, ACTIVITY_STATUS.booking)
    .run();
  return meta.changes;
}
