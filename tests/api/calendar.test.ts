import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { RECENT_SHOWS_DAYS } from '../../src/lib/config/browse.ts';
import { addDays, localDate, rangeBounds } from '../../src/lib/domain/calendar.ts';
import type { CalendarList } from '../../src/lib/services/catalogue/calendar.ts';
import { call, seed } from './helpers.ts';

const DAY = 86_400_000;
const TODAY = Math.floor(Date.now() / DAY) * DAY;
const HK = 'Asia/Hong_Kong';

beforeAll(() => seed(TODAY));

/** Distinct activities with a not-yet-started session in the window, counted straight from D1. */
async function activitiesBetween(cityId: number, from: number, until: number, categoryId?: number): Promise<number> {
  const { results } = await env.DB.prepare(
    `SELECT COUNT(DISTINCT a.id) AS n FROM activity_sessions s JOIN activities a ON a.id = s.activity_id
     WHERE a.city_id = ? AND a.status != 0 AND s.starts_at >= ? AND s.starts_at < ? AND (? IS NULL OR a.category_id = ?)`,
  )
    .bind(cityId, Math.max(from, Date.now()), until, categoryId ?? null, categoryId ?? null)
    .all<{ n: number }>();
  return results[0].n;
}

describe('GET /api/v1/calendar/{cityCode}-{type}/latest', () => {
  it(`lists today and the next ${RECENT_SHOWS_DAYS - 1} days of a city, day by day`, async () => {
    const { status, body } = await call<CalendarList>('/api/v1/calendar/hongkong-all/latest');
    expect(status).toBe(200);
    const list = body.data;
    const today = localDate(Date.now(), HK);
    expect(list).toMatchObject({
      cityId: 341,
      cityCode: 'hongkong',
      cityName: 'Hong Kong',
      type: 'all',
      start: today,
      end: addDays(today, RECENT_SHOWS_DAYS - 1),
    });
    expect(list.days.length).toBeGreaterThan(0);
    const dates = list.days.map((day) => day.date);
    expect(dates).toEqual([...dates].sort());
    for (const day of list.days) {
      expect(day.date >= list.start && day.date <= list.end).toBe(true);
      expect(day.count).toBe(day.activityIds.length);
      expect(new Set(day.activityIds).size).toBe(day.activityIds.length);
    }
    const { from, until } = rangeBounds(list, HK);
    expect(list.total).toBe(await activitiesBetween(341, from, until));
  });

  it('gives the cards in order of next session, priced in the request currency and language', async () => {
    const { body } = await call<CalendarList>('/api/api/v1/calendar/hongkong-all/latest', {
      headers: { currency: 'TWD', language: 'zh-HK' },
    });
    const list = body.data;
    expect(list.cityName).toBe('香港');
    expect(list.activities.length).toBe(Math.min(list.total, 50));
    const times = list.activities.map((card) => card.nextSessionAt);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const card of list.activities) {
      expect(card.nextSessionAt).toBeGreaterThanOrEqual(Date.now() - 60_000);
      expect(card.nextSessionDate >= list.start && card.nextSessionDate <= list.end).toBe(true);
      expect(card.currency).toBe('TWD');
      if (card.lowPriceView) expect(card.lowPriceView).toMatch(/\+$/);
      expect(list.days.find((day) => day.date === card.nextSessionDate)?.activityIds).toContain(card.id);
    }
  });

  it('narrows to a category', async () => {
    const { body } = await call<CalendarList>(
      `/api/v1/calendar/hongkong-concerts/s_${localDate(Date.now(), HK)}_${addDays(localDate(Date.now(), HK), 60)}/latest`,
    );
    const list = body.data;
    expect(list.type).toBe('concerts');
    expect(list.activities.length).toBeGreaterThan(0);
    for (const card of list.activities) expect(card.categoryId).toBe(1);
    const { from, until } = rangeBounds(list, HK);
    expect(list.total).toBe(await activitiesBetween(341, from, until, 1));
  });
});

describe('GET /api/v1/calendar/{cityCode}-{type}/s_{start}_{end}/latest', () => {
  it('keeps to the dates asked for, in the city time zone', async () => {
    const start = addDays(localDate(Date.now(), 'Asia/Taipei'), 3);
    const end = addDays(start, 6);
    const { status, body } = await call<CalendarList>(`/api/api/v1/calendar/taipei-all/s_${start}_${end}/latest`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ cityId: 343, start, end });
    for (const day of body.data.days) expect(day.date >= start && day.date <= end).toBe(true);
    const { from, until } = rangeBounds({ start, end }, 'Asia/Taipei');
    expect(body.data.total).toBe(await activitiesBetween(343, from, until));
  });

  it('answers an empty calendar for dates long past', async () => {
    const { status, body } = await call<CalendarList>('/api/v1/calendar/hongkong-all/s_2001-01-01_2001-01-31/latest');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ days: [], activities: [], total: 0 });
  });

  it('refuses unknown cities and types, malformed keys and bad ranges', async () => {
    const cases: [string, number, string, string][] = [
      ['/api/v1/calendar/atlantis-all/latest', 404, 'city_not_found', 'cityCode'],
      ['/api/v1/calendar/hongkong-jazz-on-mars/latest', 404, 'calendar_type_not_found', 'type'],
      ['/api/v1/calendar/HongKong-all/latest', 400, 'invalid_input', 'key'],
      ['/api/v1/calendar/hongkong/latest', 400, 'invalid_input', 'key'],
      ['/api/v1/calendar/hongkong-all/s_2026-02-30_2026-03-02/latest', 400, 'invalid_input', 'range'],
      ['/api/v1/calendar/hongkong-all/s_2026-03-02_2026-03-01/latest', 400, 'invalid_input', 'range'],
      ['/api/v1/calendar/hongkong-all/s_2026-01-01_2026-12-31/latest', 400, 'invalid_input', 'range'],
      ['/api/v1/calendar/hongkong-all/2026-01-01/latest', 400, 'invalid_input', 'range'],
    ];
    for (const [path, status, errorCode, field] of cases) {
      const response = await call(path);
      expect(response.status, path).toBe(status);
      expect(response.body, path).toMatchObject({ errorCode, field });
    }
  });
});
