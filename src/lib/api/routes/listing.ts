/**
 * The list call of SPEC.md section 7, `GET {path}` (category list) and
 * `GET {path}?sceneType=searchV2&ignoreCityId=true` (search), served under our base as
 * GET /v1/list{path}: the listing path and query of the page (grammar in domain/listing-url.ts).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { DomainError } from '../../domain/errors.ts';
import { parseListingUrl, type ListingProblem } from '../../domain/listing-url.ts';
import { loadListing } from '../../services/catalogue/listing.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { input } from '../validate.ts';

const LIST_PREFIX = '/v1/list';

/** The listing's own filters are read from the path and query by its grammar; ignoreCityId=true by the request context (app.ts). */
const sceneSchema = z.object({ sceneType: z.literal('searchV2').optional(), ignoreCityId: z.string().optional() }).loose();

/** A backwards range is the `to` date's fault: it is the field a client would change. */
function fieldOf(problem: ListingProblem): string {
  return problem === 'range' ? 'to' : problem;
}

const doc = describe('Listing');

// A named rest of the path (not `*`), so that the route is in the OpenAPI document.
export const listingRoutes = new Hono<ApiEnv>().get(
  `${LIST_PREFIX}/:path{.+}`,
  doc.anyone("A category list or a search, by the listing page's path and query"),
  input('query', sceneSchema),
  async (c) => {
    const url = new URL(c.req.url);
    // The raw (still encoded) path: the grammar decodes the keyword itself, exactly once.
    const path = url.pathname.slice(url.pathname.indexOf(LIST_PREFIX) + LIST_PREFIX.length);
    const { sceneType } = c.req.valid('query');
    const parsed = parseListingUrl(path, url.searchParams);
    if (!parsed) throw new DomainError('not_found');
    if (sceneType && parsed.query.kind !== 'search') throw new DomainError('invalid_input', { field: 'sceneType' }, 'sceneType');
    const outcome = await loadListing(c.var.scope, parsed);
    if (outcome.kind === 'unknown_category') throw new DomainError('category_not_found', {}, 'category');
    if (outcome.kind === 'invalid') {
      const field = fieldOf(outcome.problems[0]);
      throw new DomainError('invalid_input', { field }, field);
    }
    return c.json(success(outcome.list));
  },
);
