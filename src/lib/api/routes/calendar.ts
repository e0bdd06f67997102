/**
 * The calendar list (SPEC.md section 7), grammar in domain/calendar.ts:
 * GET /v1/calendar/{cityCode}-{type}/latest and /v1/calendar/{cityCode}-{type}/s_{start}_{end}/latest.
 */
import { Hono } from 'hono';
import { parseCalendarKey, parseDateRange } from '../../domain/calendar.ts';
import { calendarList } from '../../services/calendar.ts';
import type { ApiEnv } from '../context.ts';
import { ApiError, success } from '../errors.ts';

function keyOf(segment: string) {
  const key = parseCalendarKey(segment);
  if (!key) throw new ApiError(400, 'invalid_input', { field: 'key' }, 'key');
  return key;
}

export const calendarRoutes = new Hono<ApiEnv>()
  .get('/v1/calendar/:key/latest', async (c) => {
    const key = keyOf(c.req.param('key'));
    return c.json(success(await calendarList(c.get('db'), c.get('ctx'), key, null, Date.now())));
  })
  .get('/v1/calendar/:key/:range/latest', async (c) => {
    const key = keyOf(c.req.param('key'));
    const range = parseDateRange(c.req.param('range'));
    if (!range) throw new ApiError(400, 'invalid_input', { field: 'range' }, 'range');
    return c.json(success(await calendarList(c.get('db'), c.get('ctx'), key, range, Date.now())));
  });
