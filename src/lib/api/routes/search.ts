/** Search suggestions (SPEC.md section 7): GET /v1/activities/suggest?input={typed}&ignoreCityId=true. */
import { Hono } from 'hono';
import { z } from 'zod';
import { MAX_QUERY_CHARS } from '../../domain/search-text.ts';
import { suggest } from '../../services/search.ts';
import type { ApiEnv } from '../context.ts';
import { success } from '../errors.ts';
import { parseInput } from '../validate.ts';

/** Room for a pasted keyword with spaces; what the search reads of it is capped at MAX_QUERY_CHARS. */
const suggestSchema = z.object({ input: z.string().max(MAX_QUERY_CHARS * 2).default('') });

export const searchRoutes = new Hono<ApiEnv>().get('/v1/activities/suggest', async (c) => {
  const { input } = parseInput(suggestSchema, c.req.query());
  return c.json(success(await suggest(c.get('db'), input, c.get('ctx'), Date.now())));
});
