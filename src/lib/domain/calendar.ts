/**
 * The calendar list (SPEC.md section 7: `{cityCode}-{type}/latest` and
 * `{cityCode}-{type}/s_{start}_{end}/latest`): which shows a city has on which local day.
 *
 *   /api/v1/calendar/{cityCode}-{type}/latest                  today and the next RECENT_SHOWS_DAYS - 1 days
 *   /api/v1/calendar/{cityCode}-{type}/s_{start}_{end}/latest  the inclusive local dates start..end (YYYY-MM-DD)
 *
 * `cityCode` is a city's code (`hongkong`); `type` is a category slug or `all`. City codes have no
 * hyphen, so the key splits at its first one (`hongkong-chinese-opera`).
 */
import { ALL_CATEGORIES } from './listing-url.ts';
import { dateFormat, FormattedMemo } from './intl-cache.ts';

export const MAX_CALENDAR_SPAN_DAYS = 62;
const DAY_MS = 24 * 3600 * 1000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const KEY = /^([a-z0-9]{1,40})-([a-z0-9][a-z0-9-]{0,39})$/;
const RANGE = /^s_(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})$/;

export interface CalendarKey {
  cityCode: string;
  /** A category slug, or `all`. */
  type: string;
}

export interface DateRange {
  /** Inclusive local dates, YYYY-MM-DD. */
  start: string;
  end: string;
}

/** Reads `{cityCode}-{type}`, or null when malformed. */
export function parseCalendarKey(key: string): CalendarKey | null {
  const match = KEY.exec(key);
  return match ? { cityCode: match[1], type: match[2] } : null;
}

/** Whether a string is a real calendar date written YYYY-MM-DD. */
export function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Days from one date to another (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The date `days` after `date` (YYYY-MM-DD arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Reads `s_{start}_{end}`: both real dates, start not after end, at most MAX_CALENDAR_SPAN_DAYS
 * days long. Null when any of that fails.
 */
export function parseDateRange(segment: string): DateRange | null {
  const match = RANGE.exec(segment);
  if (!match) return null;
  const [, start, end] = match;
  if (!isDate(start) || !isDate(end)) return null;
  const span = daysBetween(start, end) + 1;
  return span >= 1 && span <= MAX_CALENDAR_SPAN_DAYS ? { start, end } : null;
}

/** The default window: `days` local days starting today. */
export function upcomingDays(today: string, days: number): DateRange {
  return { start: today, end: addDays(today, days - 1) };
}

/** The API path of a calendar list, the inverse of the parsers above. */
export function calendarApiPath(key: CalendarKey, range?: DateRange): string {
  const base = `/api/v1/calendar/${key.cityCode}-${key.type || ALL_CATEGORIES}`;
  return range ? `${base}/s_${range.start}_${range.end}/latest` : `${base}/latest`;
}

interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock parts of instants in time zones: the same session starts and day bounds are asked for on every render. */
const zonedPartsSeen = new FormattedMemo<Readonly<ZonedParts>>(10_000);

/** The wall-clock date and time of instant `ms` in `timeZone`, to the second. */
export function zonedParts(ms: number, timeZone: string): Readonly<ZonedParts> {
  return zonedPartsSeen.get(`${timeZone}|${ms}`, () => {
    const parts = dateFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(ms);
    return Object.fromEntries(parts.filter((p) => p.type !== 'literal').map((p) => [p.type, Number(p.value)])) as unknown as ZonedParts;
  });
}

/** The local date (YYYY-MM-DD) of an instant in a time zone. */
export function localDate(ms: number, timeZone: string): string {
  const p = zonedParts(ms, timeZone);
  return `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

function offsetMs(ms: number, timeZone: string): number {
  const p = zonedParts(ms, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The instant a local date begins in a time zone (handles offsets and daylight saving). */
export function startOfLocalDay(date: string, timeZone: string): number {
  const asUtc = Date.parse(`${date}T00:00:00Z`);
  const first = asUtc - offsetMs(asUtc, timeZone);
  return asUtc - offsetMs(first, timeZone);
}

/** The instants a range covers: from the start of its first day to the start of the day after it. */
export function rangeBounds(range: DateRange, timeZone: string): { from: number; until: number } {
  return { from: startOfLocalDay(range.start, timeZone), until: startOfLocalDay(addDays(range.end, 1), timeZone) };
}

export interface SessionStart {
  activityId: number;
  startsAt: number;
}

export interface CalendarDay {
  date: string;
  /** Activities with a session that day, in order of their first session. */
  activityIds: number[];
}

/**
 * Groups sessions by their local day: days in date order, each listing its activities once, in
 * order of the activity's first session that day.
 */
export function groupByLocalDay(sessions: readonly SessionStart[], timeZone: string): CalendarDay[] {
  const days = new Map<string, Set<number>>();
  for (const session of [...sessions].sort((a, b) => a.startsAt - b.startsAt || a.activityId - b.activityId)) {
    const date = localDate(session.startsAt, timeZone);
    const ids = days.get(date) ?? new Set<number>();
    ids.add(session.activityId);
    days.set(date, ids);
  }
  return [...days].sort(([a], [b]) => a.localeCompare(b)).map(([date, ids]) => ({ date, activityIds: [...ids] }));
}

/** A local date as a day chip shows it, in a locale: short weekday ("Tue", "週二") and month/day. */
export function calendarDayLabel(date: string, locale: string): Readonly<{ weekday: string; day: string }> {
  return dayLabels.get(`${locale}|${date}`, () => {
    const at = Date.parse(`${date}T00:00:00Z`);
    return {
      weekday: dateFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(at),
      day: dateFormat(locale, { month: 'numeric', day: 'numeric', timeZone: 'UTC' }).format(at),
    };
  });
}

const dayLabels = new FormattedMemo<Readonly<{ weekday: string; day: string }>>(1_000);

/** An instant as a `datetime-local` input shows it in a time zone: "YYYY-MM-DDTHH:mm". */
export function wallTime(ms: number, timeZone: string): string {
  const p = zonedParts(ms, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${localDate(ms, timeZone)}T${two(p.hour)}:${two(p.minute)}`;
}

/** The instant a `datetime-local` value ("YYYY-MM-DDTHH:mm") names in a time zone; NaN for anything else. */
export function instantOfWallTime(value: string, timeZone: string): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return Number.NaN;
  const asUtc = Date.parse(`${value}:00Z`);
  if (Number.isNaN(asUtc)) return Number.NaN;
  const first = asUtc - offsetMs(asUtc, timeZone);
  return asUtc - offsetMs(first, timeZone);
}
