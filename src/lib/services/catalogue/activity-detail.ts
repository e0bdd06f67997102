/**
 * The activity detail (SPEC.md sections 3 and 7): the activity with its open sessions and tiers, and
 * the ticket categories; the picker's offers are ticket-offers.ts, the notify-me subscriptions
 * activity-subscriptions.ts. Prices are stored in each listing's currency and shown converted to
 * the request currency; stock comes from the listings' `quantity_available`.
 */
import { ACCOUNT_TICKET_CAP } from '../../config/orders.ts';
import { listingOnSale, sessionOpen, ticketsAvailable, type SaleState } from '../../domain/availability.ts';
import { formatDateRange } from '../../domain/datetime.ts';
import { accountTicketCap } from '../../domain/order-limits.ts';
import type { Money } from '../../domain/money.ts';
import { fromPriceOf } from '../../domain/pricing.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import type { SessionStatus } from '../../domain/show-changes.ts';
import { venueMapUrl } from '../../domain/venue.ts';
import { localizedAddress, localizedName, type Locale } from '../../i18n/locales.ts';
import type { RequestScope } from '../platform/scope.ts';
import {
  type ActivityRow,
  inRequestCurrency,
  type ListingRow,
  type Loaded,
  loadAll,
  type Pricing,
  pricing,
  saleOf,
  type SessionRow,
  type TierRow,
  view,
} from './activity-load.ts';
import { type InitialPick, tierOffer } from './ticket-offers.ts';

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
  /** The organiser's own buying notes, '' when it has none. */
  buyingNotes: string;
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
    buyingNotes: localizedName(
      { nameEn: activity.buyingNotesEn, nameZhHant: activity.buyingNotesZhHant, nameZhHans: activity.buyingNotesZhHans },
      p.locale,
    ),
    category: { id: category.id, slug: category.slug, name: localizedName(category, p.locale) },
    venue: {
      name: venueName,
      address: localizedAddress(venue, p.locale),
      mapUrl:
        venue.mapUrl ??
        venueMapUrl({ name: venueName, longitude: venue.longitude, latitude: venue.latitude, inMainlandChina: city.isChina }),
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

/**
 * The detail page in one load: the detail, plus the picker's first choice when the activity is on sale
 * (the first session with tickets, its first tier with tickets, and that tier's offer).
 */
export async function activityPage(
  scope: RequestScope,
  id: number,
  drafts = false,
): Promise<{ detail: ActivityDetail; initial: InitialPick | null } | null> {
  const { ctx, now } = scope;
  const loaded = await loadAll(scope, id, drafts);
  if (!loaded) return null;
  const p = pricing(loaded.table, ctx);
  const detail = detailOf(loaded, p, now);
  const session = detail.bookable ? detail.sessions.find((s) => s.hasTicket) : undefined;
  const tier = session?.tiers.find((t) => t.hasTicket);
  const initial = session && tier ? { sessionId: session.id, tierId: tier.id, offer: tierOffer(loaded, tier.id, p, now) } : null;
  return { detail, initial };
}
