/** The calendar list: a city's shows per local day over a date range (see domain/calendar.ts). */
import { UNPUBLISHED_STATUS } from '../../domain/catalogue-drafts.ts';
import { and, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import { RECENT_SHOWS_DAYS } from '../../config/browse.ts';
import type { Db } from '../../data/client.ts';
import { type Bound, compiledSelect } from '../../data/compiled-select.ts';
import { read, readOne, type Read } from '../../data/read-together.ts';
import { activities, activitySessions } from '../../db/schema.ts';
import { groupByLocalDay, localDate, rangeBounds, upcomingDays, type CalendarKey, type DateRange } from '../../domain/calendar.ts';
import { DomainError } from '../../domain/errors.ts';
import { ALL_CATEGORIES } from '../../domain/listing-url.ts';
import { localizedName } from '../../i18n/locales.ts';
import { cardQuery, toCards, type ActivityCard } from './catalogue.ts';
import type { RequestScope } from '../platform/scope.ts';

/** At most this many activities come with cards (a caller that shows fewer asks for fewer); `total` still counts them all. */
export const CALENDAR_MAX_ACTIVITIES = 50;

export interface CalendarDayView {
  date: string;
  count: number;
  activityIds: number[];
}

export interface CalendarActivity extends ActivityCard {
  /** The first session in the range that has not started yet. */
  nextSessionAt: number;
  nextSessionDate: string;
}

export interface CalendarList {
  cityId: number;
  cityCode: string;
  cityName: string;
  type: string;
  timeZone: string;
  start: string;
  end: string;
  days: CalendarDayView[];
  /** Distinct activities in the range. */
  total: number;
  /** Their cards in order of next session, at most CALENDAR_MAX_ACTIVITIES (or the caller's limit). */
  activities: CalendarActivity[];
}

/**
 * A calendar list's values; without a category its condition is left out, and its value (0) is
 * never bound.
 */
type CalendarValues = { cityId: number; categoryId: number; from: number; until: number; now: number; cardLimit: number };
type CalendarBounds = { [K in keyof CalendarValues]: Bound<number> };

const CALENDAR_VALUE_NAMES: readonly (keyof CalendarValues)[] = ['cityId', 'categoryId', 'from', 'until', 'now', 'cardLimit'];

const inRange = (byCategory: boolean, values: CalendarBounds) =>
  and(
    eq(activities.cityId, values.cityId),
    ne(activities.status, UNPUBLISHED_STATUS),
    byCategory ? eq(activities.categoryId, values.categoryId) : undefined,
    gte(activitySessions.startsAt, values.from),
    lt(activitySessions.startsAt, values.until),
  );

const sessionsInRangeSelect = (db: Db, byCategory: boolean, values: CalendarBounds) =>
  db
    .select({ activityId: activitySessions.activityId, startsAt: activitySessions.startsAt })
    .from(activitySessions)
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .where(inRange(byCategory, values));

// The cards of the first `cardLimit` activities by next session, chosen in the same statement.
const shownCardsSelect = (db: Db, byCategory: boolean, values: CalendarBounds) => {
  const shownIds = db
    .select({ id: activitySessions.activityId })
    .from(activitySessions)
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .where(inRange(byCategory, values))
    .groupBy(activitySessions.activityId)
    .orderBy(sql`min(${activitySessions.startsAt})`, activitySessions.activityId)
    .limit(values.cardLimit);
  return cardQuery(db, values.now).where(inArray(activities.id, shownIds));
};

/**
 * The list's two statements with and without a category, compiled on first use: the home page
 * reads one on every render, and its card columns are much SQL to build (data/compiled-select.ts).
 */
const calendarStatements = [false, true].map((byCategory) => ({
  sessions: compiledSelect<CalendarValues, ReturnType<typeof sessionsInRangeSelect>>(CALENDAR_VALUE_NAMES, (db, values) =>
    sessionsInRangeSelect(db, byCategory, values),
  ),
  cards: compiledSelect<CalendarValues, ReturnType<typeof shownCardsSelect>>(CALENDAR_VALUE_NAMES, (db, values) =>
    shownCardsSelect(db, byCategory, values),
  ),
}));

/**
 * The shows of a city (and category, unless `type` is `all`) whose sessions start inside the
 * range, in the city's time zone; sessions that already began are left out. Without a range:
 * today and the following RECENT_SHOWS_DAYS - 1 days. An unknown city or category is refused
 * before anything is read.
 */
export function calendarListRead(
  scope: RequestScope,
  key: CalendarKey,
  range: DateRange | null,
  cardLimit = CALENDAR_MAX_ACTIVITIES,
): Read<CalendarList> {
  const { db, ctx, now, reference } = scope;
  const city = reference.cities.find((row) => row.cityCode === key.cityCode);
  if (!city) throw new DomainError('city_not_found', {}, 'cityCode');
  let categoryId: number | null = null;
  if (key.type !== ALL_CATEGORIES) {
    const category = reference.categories.find((row) => row.slug === key.type);
    if (!category) throw new DomainError('calendar_type_not_found', {}, 'type');
    categoryId = category.id;
  }
  const window = range ?? upcomingDays(localDate(now, city.timeZone), RECENT_SHOWS_DAYS);
  const { from, until } = rangeBounds(window, city.timeZone);
  const values = { cityId: city.id, categoryId: categoryId ?? 0, from: Math.max(from, now), until, now, cardLimit };
  const statements = calendarStatements[categoryId === null ? 0 : 1];
  return read({ sessions: statements.sessions(db, values), cards: statements.cards(db, values) }, ({ sessions, cards: cardRows }) => {
    const days = groupByLocalDay(sessions, city.timeZone);
    const nextSession = new Map<number, number>();
    for (const session of sessions) {
      const known = nextSession.get(session.activityId);
      if (known === undefined || session.startsAt < known) nextSession.set(session.activityId, session.startsAt);
    }
    const ordered = [...nextSession].sort(([a, at], [b, bt]) => at - bt || a - b).map(([id]) => id);
    const cards = new Map(toCards(scope, cardRows).map((card) => [card.id, card]));
    return {
      cityId: city.id,
      cityCode: city.cityCode,
      cityName: localizedName(city, ctx.locale),
      type: key.type,
      timeZone: city.timeZone,
      start: window.start,
      end: window.end,
      days: days.map((day) => ({ date: day.date, count: day.activityIds.length, activityIds: day.activityIds })),
      total: ordered.length,
      activities: ordered.slice(0, cardLimit).flatMap((id) => {
        const card = cards.get(id);
        const at = nextSession.get(id)!;
        return card ? [{ ...card, nextSessionAt: at, nextSessionDate: localDate(at, city.timeZone) }] : [];
      }),
    };
  });
}

export const calendarList = (scope: RequestScope, key: CalendarKey, range: DateRange | null) =>
  readOne(scope.db, calendarListRead(scope, key, range));
