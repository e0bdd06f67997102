/**
 * The list call of SPEC.md section 7, `GET {path}` (category list) and
 * `GET {path}?sceneType=searchV2&ignoreCityId=true` (search), served under our base as
 * GET /v1/list{path}: the listing path and query of the page (grammar in domain/listing-url.ts).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { parseListingUrl, type ListingProblem } from '../../domain/listing-url.ts';
import { loadListing } from '../../services/listing.ts';
import type { ApiEnv } from '../context.ts';
import { ApiError, success } from '../errors.ts';
import { parseInput } from '../validate.ts';

const LIST_PREFIX = '/v1/list';

const sceneSchema = z.object({ sceneType: z.literal('searchV2').optional() });

/** A backwards range is the `to` date's fault: it is the field a client would change. */
function fieldOf(problem: ListingProblem): string {
  return problem === 'range' ? 'to' : problem;
}

export const listingRoutes = new Hono<ApiEnv>().get(`${LIST_PREFIX}/*`, async (c) => {
  const url = new URL(c.req.url);
  // The raw (still encoded) path: the grammar decodes the keyword itself, exactly once.
  const path = url.pathname.slice(url.pathname.indexOf(LIST_PREFIX) + LIST_PREFIX.length);
  const { sceneType } = parseInput(sceneSchema, c.req.query());
  const parsed = parseListingUrl(path, url.searchParams);
  if (!parsed) throw new ApiError(404, 'not_found');
  if (sceneType && parsed.query.kind !== 'search') throw new ApiError(400, 'invalid_input', { field: 'sceneType' }, 'sceneType');
  const outcome = await loadListing(c.get('db'), parsed, c.get('ctx'), Date.now(), c.get('currencies'));
  if (outcome.kind === 'unknown_category') throw new ApiError(404, 'category_not_found', {}, 'category');
  if (outcome.kind === 'invalid') {
    const field = fieldOf(outcome.problems[0]);
    throw new ApiError(400, 'invalid_input', { field }, field);
  }
  return c.json(success(outcome.list));
});
