/**
 * Rules of the listing pages beyond the URL grammar: the city a list shows, the date presets offered
 * as time filters, which date ranges can be asked for, and paging.
 */
import { DEFAULT_CITY_ID, IGNORED_CITY_ID } from '../config/request.ts';
import { addDays, daysBetween } from './calendar.ts';
import { ALL_CITIES, type ListingFilters, type ListingProblem } from './listing-url.ts';

/**
 * The city a listing shows, or null for every city: the one its URL names (`all`: none); without
 * one, the request's current city (SPEC.md: lists follow the current city), none when the request
 * asked to ignore the city (`ignoreCityId=true`), and the default city when the current one is not
 * a city at all (a stale or forged cookie), as the header shows it.
 */
export function listingCity(requested: ListingFilters['cityId'], currentCityId: number, isCity: (id: number) => boolean): number | null {
  if (requested === ALL_CITIES) return null;
  if (requested !== undefined) return requested;
  if (currentCityId === IGNORED_CITY_ID) return null;
  return isCity(currentCityId) ? currentCityId : DEFAULT_CITY_ID;
}

/** A date more than this many days from today is out of bounds: the catalogue never reaches it. */
export const MAX_DATE_DISTANCE_DAYS = 730;

export const TIME_PRESETS = ['all', 'today', 'tomorrow', 'weekend', 'week', 'month'] as const;
export type TimePreset = (typeof TIME_PRESETS)[number];

export interface DateRangeFilter {
  from?: string;
  to?: string;
}

const SATURDAY = 6;
const SUNDAY = 0;

/** The inclusive local dates of a preset, seen from `today` (YYYY-MM-DD); `all` has none. */
export function presetRange(preset: TimePreset, today: string): DateRangeFilter {
  switch (preset) {
    case 'all':
      return {};
    case 'today':
      return { from: today, to: today };
    case 'tomorrow':
      return { from: addDays(today, 1), to: addDays(today, 1) };
    case 'weekend': {
      const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
      if (weekday === SUNDAY) return { from: today, to: today };
      const saturday = addDays(today, SATURDAY - weekday);
      return { from: weekday === SATURDAY ? today : saturday, to: addDays(saturday, 1) };
    }
    case 'week':
      return { from: today, to: addDays(today, 6) };
    case 'month':
      return { from: today, to: addDays(today, 29) };
  }
}

/** The preset whose range the filters hold exactly, or null for a custom range. */
export function matchingPreset(filters: DateRangeFilter, today: string): TimePreset | null {
  return (
    TIME_PRESETS.find((preset) => {
      const range = presetRange(preset, today);
      return range.from === filters.from && range.to === filters.to;
    }) ?? null
  );
}

/** `from` / `to` dates too far from today to mean anything (the URL grammar checked their form). */
export function dateBoundProblems(filters: Pick<ListingFilters, 'from' | 'to'>, today: string): ListingProblem[] {
  const far = (date: string | undefined) => date !== undefined && Math.abs(daysBetween(today, date)) > MAX_DATE_DISTANCE_DAYS;
  return (['from', 'to'] as const).filter((key) => far(filters[key]));
}

/** Pages needed for `total` results. */
export function pageCount(total: number, pageSize: number): number {
  return Math.ceil(total / pageSize);
}
