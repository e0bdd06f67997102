import { describe, expect, it } from 'vitest';
import { DEFAULT_CITY_ID, IGNORED_CITY_ID } from '../../src/lib/config/request.ts';
import { dateBoundProblems, listingCity, matchingPreset, pageCount, presetRange } from '../../src/lib/domain/listing-filters.ts';

const TAIPEI = 343;
const SEOUL = 350;
const isCity = (id: number) => [DEFAULT_CITY_ID, TAIPEI, SEOUL].includes(id);

describe('listingCity', () => {
  it('follows the current city when the URL names none', () => {
    expect(listingCity(undefined, TAIPEI, isCity)).toBe(TAIPEI);
    expect(listingCity(undefined, DEFAULT_CITY_ID, isCity)).toBe(DEFAULT_CITY_ID);
  });

  it('takes the city the URL names over the current one, and none for all cities', () => {
    expect(listingCity(SEOUL, TAIPEI, isCity)).toBe(SEOUL);
    expect(listingCity('all', TAIPEI, isCity)).toBeNull();
  });

  it('shows every city when the request asks to ignore the city and the URL names none', () => {
    expect(listingCity(undefined, IGNORED_CITY_ID, isCity)).toBeNull();
    expect(listingCity(TAIPEI, IGNORED_CITY_ID, isCity)).toBe(TAIPEI);
  });

  it('falls back to the default city for a current city that is not one, as the header does', () => {
    expect(listingCity(undefined, 99999, isCity)).toBe(DEFAULT_CITY_ID);
    // A city the URL names is kept, known or not: the listing reports it as an unusable filter.
    expect(listingCity(99999, TAIPEI, isCity)).toBe(99999);
  });
});

// 2026-11-04 is a Wednesday.
const WEDNESDAY = '2026-11-04';

describe('presetRange', () => {
  it('gives the inclusive dates of each preset', () => {
    expect(presetRange('all', WEDNESDAY)).toEqual({});
    expect(presetRange('today', WEDNESDAY)).toEqual({ from: WEDNESDAY, to: WEDNESDAY });
    expect(presetRange('tomorrow', WEDNESDAY)).toEqual({ from: '2026-11-05', to: '2026-11-05' });
    expect(presetRange('week', WEDNESDAY)).toEqual({ from: WEDNESDAY, to: '2026-11-10' });
    expect(presetRange('month', WEDNESDAY)).toEqual({ from: WEDNESDAY, to: '2026-12-03' });
  });

  it('takes the coming weekend, or what is left of the current one', () => {
    expect(presetRange('weekend', WEDNESDAY)).toEqual({ from: '2026-11-07', to: '2026-11-08' });
    expect(presetRange('weekend', '2026-11-07')).toEqual({ from: '2026-11-07', to: '2026-11-08' });
    expect(presetRange('weekend', '2026-11-08')).toEqual({ from: '2026-11-08', to: '2026-11-08' });
    expect(presetRange('weekend', '2026-12-28')).toEqual({ from: '2027-01-02', to: '2027-01-03' });
  });
});

describe('matchingPreset', () => {
  it('recognises a preset range and calls anything else custom', () => {
    expect(matchingPreset({}, WEDNESDAY)).toBe('all');
    expect(matchingPreset({ from: WEDNESDAY, to: WEDNESDAY }, WEDNESDAY)).toBe('today');
    expect(matchingPreset({ from: '2026-11-07', to: '2026-11-08' }, WEDNESDAY)).toBe('weekend');
    expect(matchingPreset({ from: '2026-11-06', to: '2026-11-09' }, WEDNESDAY)).toBeNull();
    expect(matchingPreset({ from: WEDNESDAY }, WEDNESDAY)).toBeNull();
  });
});

describe('dateBoundProblems', () => {
  it('flags dates more than two years from today', () => {
    expect(dateBoundProblems({ from: '2026-01-01', to: '2028-11-03' }, WEDNESDAY)).toEqual([]);
    expect(dateBoundProblems({ from: '2024-11-01', to: '9999-12-31' }, WEDNESDAY)).toEqual(['from', 'to']);
    expect(dateBoundProblems({}, WEDNESDAY)).toEqual([]);
  });
});

describe('pageCount', () => {
  it('rounds up, and is zero for no results', () => {
    expect(pageCount(0, 20)).toBe(0);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });
});
