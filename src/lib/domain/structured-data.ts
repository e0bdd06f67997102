/**
 * schema.org structured data (JSON-LD) of the public pages, shaped from typed views: an activity's
 * sessions as events with their offers, the site's organisation and search action on home, and the
 * breadcrumb trail of list and detail pages. Field choices follow schema.org and Google's event,
 * breadcrumb and sitelinks-search-box documentation (required: name, startDate, location; offers
 * with price, currency, availability, validFrom and url are recommended and given).
 */
import type { SaleState } from './availability.ts';
import { zonedParts } from './calendar.ts';
import type { SessionStatus } from './show-changes.ts';

const SCHEMA = 'https://schema.org';

export type JsonLd = Record<string, unknown>;

/**
 * The JSON text to put inside `<script type="application/ld+json">`: `<`, `>` and `&` are escaped as
 * JSON unicode escapes, so no user text (an activity's name) can close the element or open a comment,
 * and U+2028/U+2029 are escaped for old JSON parsers. The data stays the same JSON.
 */
export function jsonLdText(data: JsonLd | readonly JsonLd[]): string {
  return JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The Event subtype of a category, by its slug; anything else is a plain Event. */
const EVENT_TYPES: Record<string, string> = {
  concerts: 'MusicEvent',
  'classical-opera': 'MusicEvent',
  'musicals-theatre': 'TheaterEvent',
  'chinese-opera': 'TheaterEvent',
  sports: 'SportsEvent',
  comedy: 'ComedyEvent',
  dance: 'DanceEvent',
  exhibitions: 'ExhibitionEvent',
  festivals: 'Festival',
  'family-kids': 'ChildrensEvent',
};

export function eventTypeOf(categorySlug: string): string {
  return EVENT_TYPES[categorySlug] ?? 'Event';
}

/**
 * An instant as ISO 8601 local time with the zone's offset (2026-12-01T20:00:00+08:00): what event
 * dates need so a search engine shows the show's own clock time.
 */
export function zonedDateTime(ms: number, timeZone: string): string {
  const p = zonedParts(ms, timeZone);
  // The zone's offset at that instant: its wall clock read as UTC, less the instant (whole seconds).
  const offsetMinutes = Math.round(
    (Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000) / 60_000,
  );
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = `${sign}${twoDigits(Math.floor(Math.abs(offsetMinutes) / 60))}:${twoDigits(Math.abs(offsetMinutes) % 60)}`;
  return `${String(p.year).padStart(4, '0')}-${twoDigits(p.month)}-${twoDigits(p.day)}T${twoDigits(p.hour)}:${twoDigits(p.minute)}:${twoDigits(p.second)}${offset}`;
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** Minor units as the decimal text of the major unit ("680.00"), as schema.org prices are written. */
export function decimalPrice(amount: number, minorDigits: number): string {
  return (amount / 10 ** minorDigits).toFixed(minorDigits);
}

export interface EventSessionFacts {
  startsAt: number;
  endsAt: number;
  status: SessionStatus;
  /** A postponed session's first date. */
  originalStartsAt: number | null;
  hasTicket: boolean;
}

/** What the events of one activity page are made from; names and texts already in the page's language. */
export interface EventFacts {
  name: string;
  description: string;
  categorySlug: string;
  /** Absolute URLs. */
  url: string;
  imageUrl: string;
  /** The page's language (BCP 47). */
  language: string;
  timeZone: string;
  venue: { name: string; address: string; city: string; latitude: number; longitude: number };
  performer: string | null;
  organizer: { name: string; url: string };
  sale: { state: SaleState; notifyMe: boolean; saleStartsAt: number };
  /** The price range over the tiers (minor units of `currency`); null when no tier has a price. */
  prices: { low: number; high: number; currency: string; minorDigits: number } | null;
  sessions: readonly EventSessionFacts[];
}

const EVENT_STATUS: Record<SessionStatus, string> = {
  scheduled: `${SCHEMA}/EventScheduled`,
  cancelled: `${SCHEMA}/EventCancelled`,
  // Our postponement always names the new date: schema.org's "rescheduled" (postponed is for a date not yet known).
  postponed: `${SCHEMA}/EventRescheduled`,
};

/**
 * The offer's availability: on sale (or priority booking) with tickets is in stock, a sale still to
 * come is a pre-order, no tickets left is sold out; a cancelled session or an ended sale sells nothing more.
 */
export function offerAvailability(session: EventSessionFacts, sale: EventFacts['sale']): string {
  if (session.status === 'cancelled') return `${SCHEMA}/Discontinued`;
  if (sale.state === 'onSale' || sale.state === 'priorityBooking') return `${SCHEMA}/${session.hasTicket ? 'InStock' : 'SoldOut'}`;
  if (sale.state === 'soldOut') return `${SCHEMA}/SoldOut`;
  return sale.notifyMe ? `${SCHEMA}/PreOrder` : `${SCHEMA}/Discontinued`;
}

function placeOf(facts: EventFacts): JsonLd {
  const { venue } = facts;
  return {
    '@type': 'Place',
    name: venue.name,
    address: { '@type': 'PostalAddress', streetAddress: venue.address, addressLocality: venue.city },
    geo: { '@type': 'GeoCoordinates', latitude: venue.latitude, longitude: venue.longitude },
  };
}

/** One event per session still to come (search engines list each date apart), all of the one activity page. */
export function eventsJsonLd(facts: EventFacts): JsonLd[] {
  const location = placeOf(facts);
  const organizer = { '@type': 'Organization', name: facts.organizer.name, url: facts.organizer.url };
  const performer = facts.performer === null ? {} : { performer: { '@type': 'PerformingGroup', name: facts.performer } };
  return facts.sessions.map((session) => ({
    '@context': SCHEMA,
    '@type': eventTypeOf(facts.categorySlug),
    name: facts.name,
    description: facts.description,
    url: facts.url,
    image: [facts.imageUrl],
    inLanguage: facts.language,
    startDate: zonedDateTime(session.startsAt, facts.timeZone),
    endDate: zonedDateTime(session.endsAt, facts.timeZone),
    eventStatus: EVENT_STATUS[session.status],
    ...(session.status === 'postponed' && session.originalStartsAt !== null
      ? { previousStartDate: zonedDateTime(session.originalStartsAt, facts.timeZone) }
      : {}),
    eventAttendanceMode: `${SCHEMA}/OfflineEventAttendanceMode`,
    location,
    ...performer,
    organizer,
    ...(facts.prices === null
      ? {}
      : {
          offers: {
            '@type': 'AggregateOffer',
            lowPrice: decimalPrice(facts.prices.low, facts.prices.minorDigits),
            highPrice: decimalPrice(facts.prices.high, facts.prices.minorDigits),
            priceCurrency: facts.prices.currency,
            availability: offerAvailability(session, facts.sale),
            validFrom: zonedDateTime(facts.sale.saleStartsAt, facts.timeZone),
            url: facts.url,
          },
        }),
  }));
}

export interface SiteFacts {
  name: string;
  /** The home page's absolute URL in the page's language. */
  url: string;
  logoUrl: string;
  language: string;
  /** The search page's absolute URL with `{search_term_string}` where the words go. */
  searchUrlTemplate: string;
}

/** Home: who runs the site, and how to search it from a results page. */
export function siteJsonLd(site: SiteFacts): JsonLd[] {
  return [
    { '@context': SCHEMA, '@type': 'Organization', name: site.name, url: site.url, logo: site.logoUrl },
    {
      '@context': SCHEMA,
      '@type': 'WebSite',
      name: site.name,
      url: site.url,
      inLanguage: site.language,
      potentialAction: {
        '@type': 'SearchAction',
        target: { '@type': 'EntryPoint', urlTemplate: site.searchUrlTemplate },
        'query-input': 'required name=search_term_string',
      },
    },
  ];
}

/** The trail from home to the page; the last crumb is the page itself. */
export function breadcrumbJsonLd(crumbs: readonly { name: string; url: string }[]): JsonLd {
  return {
    '@context': SCHEMA,
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({ '@type': 'ListItem', position: index + 1, name: crumb.name, item: crumb.url })),
  };
}
