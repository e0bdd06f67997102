import { describe, expect, it } from 'vitest';
import { RECENT_SHOWS_DAYS } from '../../src/lib/config/browse.ts';
import {
  addDays,
  calendarApiPath,
  instantOfWallTime,
  wallTime,
  calendarDayLabel,
  daysBetween,
  groupByLocalDay,
  isDate,
  localDate,
  MAX_CALENDAR_SPAN_DAYS,
  parseCalendarKey,
  parseDateRange,
  rangeBounds,
  startOfLocalDay,
  upcomingDays,
} from '../../src/lib/domain/calendar.ts';

describe('calendar key', () => {
  it('splits the city code from the type at the first hyphen', () => {
    expect(parseCalendarKey('hongkong-all')).toEqual({ cityCode: 'hongkong', type: 'all' });
    expect(parseCalendarKey('taipei-chinese-opera')).toEqual({ cityCode: 'taipei', type: 'chinese-opera' });
  });

  it('rejects malformed keys', () => {
    for (const key of ['hongkong', 'hongkong-', '-all', 'Hong Kong-all', 'hongkong-All', 'hongkong_all', 'a-b/c', '']) {
      expect(parseCalendarKey(key), key).toBeNull();
    }
  });
});

describe('date range', () => {
  it('reads s_{start}_{end} with real dates, start not after end', () => {
    expect(parseDateRange('s_2026-11-01_2026-11-15')).toEqual({ start: '2026-11-01', end: '2026-11-15' });
    expect(parseDateRange('s_2026-11-01_2026-11-01')).toEqual({ start: '2026-11-01', end: '2026-11-01' });
    expect(parseDateRange('s_2026-11-15_2026-11-01')).toBeNull();
    expect(parseDateRange('s_2026-02-30_2026-03-01')).toBeNull();
    expect(parseDateRange('s_20261101_20261115')).toBeNull();
    expect(parseDateRange('2026-11-01_2026-11-15')).toBeNull();
  });

  it(`allows at most ${MAX_CALENDAR_SPAN_DAYS} days`, () => {
    const start = '2026-01-01';
    expect(parseDateRange(`s_${start}_${addDays(start, MAX_CALENDAR_SPAN_DAYS - 1)}`)).not.toBeNull();
    expect(parseDateRange(`s_${start}_${addDays(start, MAX_CALENDAR_SPAN_DAYS)}`)).toBeNull();
  });

  it('does date arithmetic across months, years and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-11-01', '2026-11-15')).toBe(14);
    expect(isDate('2028-02-29')).toBe(true);
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('2026-13-01')).toBe(false);
  });

  it(`defaults to today and the next ${RECENT_SHOWS_DAYS - 1} days`, () => {
    expect(upcomingDays('2026-11-21', RECENT_SHOWS_DAYS)).toEqual({ start: '2026-11-21', end: '2026-12-05' });
  });

  it('builds the API paths the parsers read back', () => {
    expect(calendarApiPath({ cityCode: 'hongkong', type: 'all' })).toBe('/api/v1/calendar/hongkong-all/latest');
    const path = calendarApiPath({ cityCode: 'macao', type: 'concerts' }, { start: '2026-11-01', end: '2026-11-03' });
    expect(path).toBe('/api/v1/calendar/macao-concerts/s_2026-11-01_2026-11-03/latest');
    const [, , , , key, range] = path.split('/');
    expect(parseCalendarKey(key)).toEqual({ cityCode: 'macao', type: 'concerts' });
    expect(parseDateRange(range)).toEqual({ start: '2026-11-01', end: '2026-11-03' });
  });
});

describe('local days', () => {
  it('reads the local date of an instant in a time zone', () => {
    const instant = Date.UTC(2026, 10, 1, 16, 30);
    expect(localDate(instant, 'Asia/Hong_Kong')).toBe('2026-11-02');
    expect(localDate(instant, 'UTC')).toBe('2026-11-01');
    expect(localDate(instant, 'America/Los_Angeles')).toBe('2026-11-01');
  });

  it('finds when a local day begins, daylight saving included', () => {
    expect(startOfLocalDay('2026-11-02', 'Asia/Hong_Kong')).toBe(Date.UTC(2026, 10, 1, 16));
    expect(startOfLocalDay('2026-11-02', 'Asia/Bangkok')).toBe(Date.UTC(2026, 10, 1, 17));
    // New York leaves daylight saving on 2026-11-01: that day starts at UTC-4, the next at UTC-5.
    expect(startOfLocalDay('2026-11-01', 'America/New_York')).toBe(Date.UTC(2026, 10, 1, 4));
    expect(startOfLocalDay('2026-11-02', 'America/New_York')).toBe(Date.UTC(2026, 10, 2, 5));
  });

  it('bounds a range from its first local midnight to the one after its last day', () => {
    expect(rangeBounds({ start: '2026-11-01', end: '2026-11-02' }, 'Asia/Hong_Kong')).toEqual({
      from: Date.UTC(2026, 9, 31, 16),
      until: Date.UTC(2026, 10, 2, 16),
    });
  });

  it('groups sessions by local day, activities once per day in order of their first session', () => {
    const hour = 3600 * 1000;
    const day1 = Date.UTC(2026, 10, 1, 4);
    const sessions = [
      { activityId: 7, startsAt: day1 + 6 * hour },
      { activityId: 3, startsAt: day1 },
      { activityId: 7, startsAt: day1 + 2 * hour },
      { activityId: 3, startsAt: day1 + 3 * hour },
      // 16:30 UTC is already the next day in Hong Kong.
      { activityId: 9, startsAt: Date.UTC(2026, 10, 1, 16, 30) },
      { activityId: 3, startsAt: Date.UTC(2026, 10, 3, 4) },
    ];
    expect(groupByLocalDay(sessions, 'Asia/Hong_Kong')).toEqual([
      { date: '2026-11-01', activityIds: [3, 7] },
      { date: '2026-11-02', activityIds: [9] },
      { date: '2026-11-03', activityIds: [3] },
    ]);
    expect(groupByLocalDay([], 'Asia/Hong_Kong')).toEqual([]);
  });

  it('labels a day chip in the page language', () => {
    expect(calendarDayLabel('2026-11-03', 'en')).toEqual({ weekday: 'Tue', day: '11/3' });
    expect(calendarDayLabel('2026-11-03', 'zh-HK').weekday).toBe('週二');
    expect(calendarDayLabel('2026-11-03', 'zh-CN').weekday).toBe('周二');
  });
});

describe('wall times of a datetime-local input', () => {
  it('read and write the same instant in a time zone', () => {
    const start = Date.UTC(2027, 0, 10, 12, 30);
    expect(wallTime(start, 'Asia/Hong_Kong')).toBe('2027-01-10T20:30');
    expect(instantOfWallTime('2027-01-10T20:30', 'Asia/Hong_Kong')).toBe(start);
    // Across a daylight-saving change the offset of that day counts.
    expect(instantOfWallTime('2027-07-01T09:00', 'Europe/London')).toBe(Date.UTC(2027, 6, 1, 8));
  });

  it('refuse anything but a whole local time', () => {
    for (const value of ['', '2027-01-10', '2027-01-10 20:30', '2027-13-40T20:30']) {
      expect(instantOfWallTime(value, 'Asia/Hong_Kong'), value).toBeNaN();
    }
  });
});
