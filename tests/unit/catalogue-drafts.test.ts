import { describe, expect, it } from 'vitest';
import {
  activityDates,
  type ActivityDraft,
  activityProblems,
  categoryProblems,
  isHttpsUrl,
  isPosterPath,
  publishProblem,
  type SessionDraft,
  sessionProblems,
  type TierDraft,
  tierProblems,
  type VenueDraft,
  venueProblems,
  venueRow,
} from '../../src/lib/domain/catalogue-drafts.ts';

const names = { en: 'Harbour Hall', zhHant: '海港廳', zhHans: '海港厅' };
const HOUR = 3_600_000;
const T = Date.UTC(2027, 0, 10, 12);

const venue: VenueDraft = {
  cityId: 341,
  names,
  addressEn: '1 Harbour Road',
  addressZh: '港灣道1號',
  mapUrl: '',
  longitude: 114.17,
  latitude: 22.28,
};
const activity: ActivityDraft = {
  categoryId: 1,
  cityId: 341,
  venueId: 1,
  artistId: null,
  boxOfficeSellerId: null,
  names,
  descriptions: names,
  buyingNotes: { en: '', zhHant: '', zhHans: '' },
  realNameRequired: false,
  poster: '/posters/activity/1.jpg',
  saleStatus: 1,
  numMax: 6,
};
const session: SessionDraft = {
  startsAt: T,
  endsAt: T + 2 * HOUR,
  onSaleAt: T - 48 * HOUR,
  offSaleAt: T,
  accountTicketCap: null,
  highDemand: false,
};
const tier: TierDraft = { names, faceValue: 88_000, currency: 'HKD', quota: 100, sort: 1 };
const known = { currencies: ['HKD', 'TWD'], sold: 0 };

describe('venues', () => {
  it('need a name in each script and both addresses', () => {
    expect(venueProblems(venue)).toEqual([]);
    expect(venueProblems({ ...venue, names: { ...names, zhHans: '  ' }, addressZh: '' })).toEqual([
      { field: 'names.zhHans', code: 'name_required' },
      { field: 'addressZh', code: 'address_required' },
    ]);
  });

  it('take an https map link only', () => {
    expect(venueProblems({ ...venue, mapUrl: 'https://maps.example.com/x' })).toEqual([]);
    for (const mapUrl of ['http://maps.example.com', 'javascript:alert(1)', '/maps', 'https://user:pw@example.com', 'maps.example.com']) {
      expect(venueProblems({ ...venue, mapUrl }), mapUrl).toEqual([{ field: 'mapUrl', code: 'map_url_invalid' }]);
    }
    expect(isHttpsUrl('https://example.com\n')).toBe(false);
  });

  it('store no link as null, so the page makes one from the coordinates', () => {
    expect(venueRow(venue).mapUrl).toBeNull();
    expect(venueRow({ ...venue, names: { ...names, en: ' Harbour Hall ' } }).nameEn).toBe('Harbour Hall');
  });

  it('refuse coordinates off the globe', () => {
    expect(venueProblems({ ...venue, latitude: 91 })).toEqual([{ field: 'longitude', code: 'coordinates_invalid' }]);
  });
});

describe('categories', () => {
  it('take a lower-case slug', () => {
    expect(categoryProblems({ slug: 'live-music', names, pinyin: '', sort: 0 })).toEqual([]);
    for (const slug of ['Live', 'live--music', '-live', 'live music', '']) {
      expect(categoryProblems({ slug, names, pinyin: '', sort: 0 }), slug).toEqual([{ field: 'slug', code: 'slug_invalid' }]);
    }
  });
});

describe('activities', () => {
  it('need names and descriptions in the three scripts; buying notes may be empty', () => {
    expect(activityProblems(activity)).toEqual([]);
    expect(activityProblems({ ...activity, descriptions: { ...names, en: '' } })).toEqual([
      { field: 'descriptions.en', code: 'name_required' },
    ]);
    expect(activityProblems({ ...activity, names: { ...names, en: 'x'.repeat(201) } })).toEqual([
      { field: 'names.en', code: 'text_too_long' },
    ]);
  });

  it('take a poster path of this site, a listed sale state and a sane order size', () => {
    expect(isPosterPath('')).toBe(true);
    for (const poster of ['https://evil.example/p.jpg', '//evil.example/p.jpg', '/posters/../secret', 'posters/a.jpg', '/a b.jpg']) {
      expect(isPosterPath(poster), poster).toBe(false);
    }
    expect(activityProblems({ ...activity, saleStatus: 0, numMax: 0 })).toEqual([
      { field: 'saleStatus', code: 'sale_status_invalid' },
      { field: 'numMax', code: 'ticket_limit_invalid' },
    ]);
  });
});

describe('sessions', () => {
  it('end after they start', () => {
    expect(sessionProblems(session)).toEqual([]);
    expect(sessionProblems({ ...session, endsAt: T })).toEqual([{ field: 'endsAt', code: 'session_times_invalid' }]);
  });

  it('open their sale before it closes, and close it by the start', () => {
    expect(sessionProblems({ ...session, onSaleAt: T, offSaleAt: T })).toEqual([{ field: 'offSaleAt', code: 'sale_times_unordered' }]);
    expect(sessionProblems({ ...session, offSaleAt: T + 1 })).toEqual([{ field: 'offSaleAt', code: 'sale_times_unordered' }]);
    expect(sessionProblems({ ...session, offSaleAt: T - HOUR })).toEqual([]);
  });

  it('cap tickets per account between 1 and 50, or leave the default', () => {
    expect(sessionProblems({ ...session, accountTicketCap: 50 })).toEqual([]);
    for (const cap of [0, 51, 2.5]) {
      expect(sessionProblems({ ...session, accountTicketCap: cap })).toEqual([{ field: 'accountTicketCap', code: 'account_cap_invalid' }]);
    }
  });

  it('give the activity its first and last start and its earliest sale', () => {
    expect(activityDates([])).toBeNull();
    expect(
      activityDates([
        { startsAt: T + 24 * HOUR, onSaleAt: T - HOUR },
        { startsAt: T, onSaleAt: T - 2 * HOUR },
      ]),
    ).toEqual({ startsAt: T, endsAt: T + 24 * HOUR, saleStartsAt: T - 2 * HOUR });
  });
});

describe('tiers', () => {
  it('have a face value above zero in whole minor units of a known currency', () => {
    expect(tierProblems(tier, known)).toEqual([]);
    for (const faceValue of [0, -100, 12.5]) {
      expect(tierProblems({ ...tier, faceValue }, known)).toEqual([{ field: 'faceValue', code: 'face_value_invalid' }]);
    }
    expect(tierProblems({ ...tier, currency: 'XXX' }, known)).toEqual([{ field: 'currency', code: 'tier_currency_unknown' }]);
  });

  it('keep a quota no lower than the tickets ordered', () => {
    expect(tierProblems({ ...tier, quota: 10 }, { ...known, sold: 10 })).toEqual([]);
    expect(tierProblems({ ...tier, quota: 9 }, { ...known, sold: 10 })).toEqual([{ field: 'quota', code: 'quota_below_sold' }]);
    expect(tierProblems({ ...tier, quota: -1 }, known)).toEqual([{ field: 'quota', code: 'quota_invalid' }]);
  });
});

describe('publishing', () => {
  it('needs a session, and a tier in every session', () => {
    expect(publishProblem([])).toBe('activity_without_sessions');
    expect(
      publishProblem([
        { id: 1, tiers: 2 },
        { id: 2, tiers: 0 },
      ]),
    ).toBe('session_without_tiers');
    expect(publishProblem([{ id: 1, tiers: 2 }])).toBeNull();
  });
});
