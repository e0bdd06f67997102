import { describe, expect, it } from 'vitest';
import {
  breadcrumbJsonLd,
  decimalPrice,
  eventsJsonLd,
  eventTypeOf,
  jsonLdText,
  offerAvailability,
  siteJsonLd,
  zonedDateTime,
  type EventFacts,
} from '../../src/lib/domain/structured-data.ts';

const HOUR = 3600_000;
const START = Date.UTC(2026, 11, 1, 12, 0, 0);

const facts: EventFacts = {
  name: 'Kelvin Lau: Live </script><script>alert(1)</script>',
  description: 'A night of songs',
  categorySlug: 'concerts',
  url: 'https://tickets.example.com/en/activity/1000',
  imageUrl: 'https://tickets.example.com/posters/activity/1000.jpg',
  language: 'en',
  timeZone: 'Asia/Hong_Kong',
  venue: { name: 'AsiaWorld-Arena', address: 'Chek Lap Kok', city: 'Hong Kong', latitude: 22.3, longitude: 113.9 },
  performer: 'Kelvin Lau',
  organizer: { name: 'TicketWing', url: 'https://tickets.example.com/en/' },
  sale: { state: 'onSale', notifyMe: false, saleStartsAt: START - 30 * 24 * HOUR },
  prices: { low: 68000, high: 128050, currency: 'HKD', minorDigits: 2 },
  sessions: [
    { startsAt: START, endsAt: START + 3 * HOUR, status: 'scheduled', originalStartsAt: null, hasTicket: true },
    { startsAt: START + 24 * HOUR, endsAt: START + 27 * HOUR, status: 'cancelled', originalStartsAt: null, hasTicket: false },
    { startsAt: START + 48 * HOUR, endsAt: START + 51 * HOUR, status: 'postponed', originalStartsAt: START - 24 * HOUR, hasTicket: true },
  ],
};

describe('jsonLdText', () => {
  it('escapes what could end the script element, and parses back to the same data', () => {
    const text = jsonLdText({ name: '</script><!-- & \u2028' });
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual({ name: '</script><!-- & \u2028' });
  });
});

describe('zonedDateTime', () => {
  it('writes the venue clock with its offset', () => {
    expect(zonedDateTime(START, 'Asia/Hong_Kong')).toBe('2026-12-01T20:00:00+08:00');
    expect(zonedDateTime(START, 'UTC')).toBe('2026-12-01T12:00:00+00:00');
    expect(zonedDateTime(START, 'Asia/Kolkata')).toBe('2026-12-01T17:30:00+05:30');
  });

  it('writes a zone behind UTC, across midnight and daylight saving, with a negative offset', () => {
    expect(zonedDateTime(START, 'America/St_Johns')).toBe('2026-12-01T08:30:00-03:30');
    expect(zonedDateTime(Date.UTC(2026, 6, 1, 2, 0, 0), 'America/New_York')).toBe('2026-06-30T22:00:00-04:00');
    expect(zonedDateTime(START + 1234, 'America/New_York')).toBe('2026-12-01T07:00:01-05:00');
  });
});

describe('eventsJsonLd', () => {
  const events = eventsJsonLd(facts);

  it('is one event of the category subtype per session, with the required and recommended fields', () => {
    expect(events).toHaveLength(3);
    expect(events[0]).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'MusicEvent',
      name: facts.name,
      startDate: '2026-12-01T20:00:00+08:00',
      endDate: '2026-12-01T23:00:00+08:00',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      image: [facts.imageUrl],
      inLanguage: 'en',
      location: {
        '@type': 'Place',
        name: 'AsiaWorld-Arena',
        address: { '@type': 'PostalAddress', streetAddress: 'Chek Lap Kok', addressLocality: 'Hong Kong' },
        geo: { '@type': 'GeoCoordinates', latitude: 22.3, longitude: 113.9 },
      },
      performer: { '@type': 'PerformingGroup', name: 'Kelvin Lau' },
      offers: {
        '@type': 'AggregateOffer',
        lowPrice: '680.00',
        highPrice: '1280.50',
        priceCurrency: 'HKD',
        availability: 'https://schema.org/InStock',
        validFrom: '2026-11-01T20:00:00+08:00',
        url: facts.url,
      },
    });
  });

  it('marks a cancelled session cancelled and a postponed one rescheduled from its first date', () => {
    expect(events[1]).toMatchObject({
      eventStatus: 'https://schema.org/EventCancelled',
      offers: { availability: 'https://schema.org/Discontinued' },
    });
    expect(events[2]).toMatchObject({ eventStatus: 'https://schema.org/EventRescheduled', previousStartDate: '2026-11-30T20:00:00+08:00' });
    expect(events[0]).not.toHaveProperty('previousStartDate');
  });

  it('leaves out offers without prices and a performer not known', () => {
    const [event] = eventsJsonLd({ ...facts, prices: null, performer: null, sessions: facts.sessions.slice(0, 1) });
    expect(event).not.toHaveProperty('offers');
    expect(event).not.toHaveProperty('performer');
  });

  it('falls back to a plain Event for other categories', () => {
    expect(eventTypeOf('sports')).toBe('SportsEvent');
    expect(eventTypeOf('something-new')).toBe('Event');
  });
});

describe('offerAvailability', () => {
  const [scheduled] = facts.sessions;
  it('follows the sale state', () => {
    expect(offerAvailability(scheduled, { state: 'priorityBooking', notifyMe: false, saleStartsAt: 0 })).toBe('https://schema.org/InStock');
    expect(offerAvailability({ ...scheduled, hasTicket: false }, { state: 'onSale', notifyMe: false, saleStartsAt: 0 })).toBe(
      'https://schema.org/SoldOut',
    );
    expect(offerAvailability(scheduled, { state: 'soldOut', notifyMe: true, saleStartsAt: 0 })).toBe('https://schema.org/SoldOut');
    expect(offerAvailability(scheduled, { state: 'notOnSale', notifyMe: true, saleStartsAt: 0 })).toBe('https://schema.org/PreOrder');
    expect(offerAvailability(scheduled, { state: 'notOnSale', notifyMe: false, saleStartsAt: 0 })).toBe('https://schema.org/Discontinued');
  });
});

describe('site and breadcrumbs', () => {
  it('gives home an organisation and a search action', () => {
    const [organization, website] = siteJsonLd({
      name: 'TicketWing',
      url: 'https://t.example/en/',
      logoUrl: 'https://t.example/logo.svg',
      language: 'en',
      searchUrlTemplate: 'https://t.example/en/s_{search_term_string}',
    });
    expect(organization).toMatchObject({ '@type': 'Organization', url: 'https://t.example/en/', logo: 'https://t.example/logo.svg' });
    expect(website).toMatchObject({
      '@type': 'WebSite',
      potentialAction: {
        '@type': 'SearchAction',
        target: { urlTemplate: 'https://t.example/en/s_{search_term_string}' },
        'query-input': 'required name=search_term_string',
      },
    });
  });

  it('numbers the crumbs from 1', () => {
    expect(
      breadcrumbJsonLd([
        { name: 'Home', url: 'https://t.example/en/' },
        { name: 'Concerts', url: 'https://t.example/en/concerts' },
      ]),
    ).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://t.example/en/' },
        { '@type': 'ListItem', position: 2, name: 'Concerts', item: 'https://t.example/en/concerts' },
      ],
    });
  });

  it('writes prices in the major unit', () => {
    expect(decimalPrice(68000, 2)).toBe('680.00');
    expect(decimalPrice(5000, 0)).toBe('5000');
  });
});
