/**
 * The calendar list (SPEC.md section 7), grammar in domain/calendar.ts:
 * GET /v1/calendar/{cityCode}-{type}/latest and /v1/calendar/{cityCode}-{type}/s_{start}_{end}/latest.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { parseCalendarKey, parseDateRange } from '../../domain/calendar.ts';
import { calendarList } from '../../services/catalogue/calendar.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { input } from '../validate.ts';

/** A path segment read by one of the calendar grammar's parsers; one it cannot read is invalid input. */
function segment<T>(parse: (text: string) => T | null) {
  return z.string().transform((text, ctx) => {
    const parsed = parse(text);
    if (parsed === null) {
      ctx.addIssue({ code: 'custom', message: 'invalid_input' });
      return z.NEVER;
    }
    return parsed;
  });
}

const keyParam = z.object({ key: segment(parseCalendarKey) });
const rangeParam = z.object({ key: segment(parseCalendarKey), range: segment(parseDateRange) });

const doc = describe('Calendar');

export const calendarRoutes = new Hono<ApiEnv>()
  .get('/v1/calendar/:key/latest', doc.anyone('The calendar of a city and type'), input('param', keyParam), async (c) =>
    c.json(success(await calendarList(c.var.scope, c.req.valid('param').key, null))),
  )
  .get(
    '/v1/calendar/:key/:range/latest',
    doc.anyone('The calendar of a city and type within a date range'),
    input('param', rangeParam),
    async (c) => {
      const { key, range } = c.req.valid('param');
      return c.json(success(await calendarList(c.var.scope, key, range)));
    },
  );
