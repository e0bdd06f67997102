/** Search suggestions (SPEC.md section 7): GET /v1/activities/suggest?input={typed}&ignoreCityId=true. */
import { Hono } from 'hono';
import { z } from 'zod';
import { MAX_QUERY_CHARS } from '../../domain/search-text.ts';
import { suggest } from '../../services/search/suggestions.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { input } from '../validate.ts';

/**
 * Room for a pasted keyword with spaces; what the search reads of it is capped at MAX_QUERY_CHARS.
 * ignoreCityId=true is read by the request context (app.ts), like on every call.
 */
const suggestSchema = z.object({
  input: z
    .string()
    .max(MAX_QUERY_CHARS * 2)
    .default(''),
  ignoreCityId: z.string().optional(),
});

const doc = describe('Search');

export const searchRoutes = new Hono<ApiEnv>().get(
  '/v1/activities/suggest',
  doc.anyone('Search suggestions for what was typed'),
  input('query', suggestSchema),
  async (c) => c.json(success(await suggest(c.var.scope, c.req.valid('query').input))),
);
