/**
 * Activities, their sessions and ticket tiers, edited from the console (editors and operators:
 * permission 'catalogue'); drafts until published. Every change writes an audit row.
 *
 *   GET    v1/operator/activities[?q&published=all|draft|published&page]   newest first
 *   GET    v1/operator/activities/{id}            the activity, its sessions and tiers, with what is ordered and listed
 *   POST   v1/operator/activities                 a new draft: names, descriptions, buyingNotes (en, zhHant, zhHans),
 *                                                 categoryId, cityId, venueId, artistId, realNameRequired, poster, saleStatus, numMax
 *   PATCH  v1/operator/activities/{id}            the same fields
 *   POST   v1/operator/activities/{id}/publish    shown to buyers (409 without a session, or a session without a tier)
 *   POST   v1/operator/activities/{id}/unpublish  hidden from buyers again
 *   POST   v1/operator/activities/{id}/sessions   startsAt, endsAt, onSaleAt, offSaleAt, accountTicketCap, highDemand
 *   PATCH  v1/operator/sessions/{id}              the same; DELETE v1/operator/sessions/{id} (409 session_in_use once ordered or listed)
 *   POST   v1/operator/sessions/{id}/tiers        names, faceValue (minor units), currency, quota, sort
 *   PATCH  v1/operator/tiers/{id}                 the same; DELETE v1/operator/tiers/{id} (409 tier_in_use)
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { activityList, createActivity, editedActivity, updateActivity } from '../../services/catalogue-editing/activities.ts';
import { publishActivity, unpublishActivity } from '../../services/catalogue-editing/publishing.ts';
import { addSession, removeSession, updateSession } from '../../services/catalogue-editing/sessions.ts';
import { addTier, removeTier, updateTier } from '../../services/catalogue-editing/tiers.ts';
import { activityDraft, sessionDraft, tierDraft } from '../catalogue-drafts.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { idParam, pageNumber } from '../params.ts';
import { signedIn } from '../session.ts';
import { staffOnly } from '../staff.ts';
import { input } from '../validate.ts';

const doc = describe('Operator: catalogue');
const editors = [signedIn, staffOnly('catalogue')] as const;
const listQuery = z.object({
  q: z.string().max(100).default(''),
  published: z.enum(['all', 'draft', 'published']).default('all'),
  page: pageNumber,
});

export const operatorActivityRoutes = new Hono<ApiEnv>()
  .get(
    '/v1/operator/activities',
    doc.user('Activities, drafts too, newest first (editors)'),
    ...editors,
    input('query', listQuery),
    async (c) => {
      const { q, published, page } = c.req.valid('query');
      return c.json(success(await activityList(c.var.scope.db, { query: q, published, page })));
    },
  )
  .get(
    '/v1/operator/activities/:id',
    doc.user('An activity with its sessions and tiers (editors)'),
    ...editors,
    input('param', idParam),
    async (c) => c.json(success(await editedActivity(c.var.scope.db, c.req.valid('param').id))),
  )
  .post('/v1/operator/activities', doc.user('Creates a draft activity (editors)'), ...editors, input('json', activityDraft), async (c) =>
    c.json(success(await createActivity(c.var.scope, c.req.valid('json')))),
  )
  .patch(
    '/v1/operator/activities/:id',
    doc.user('Edits an activity (editors)'),
    ...editors,
    input('param', idParam),
    input('json', activityDraft),
    async (c) => c.json(success(await updateActivity(c.var.scope, c.req.valid('param').id, c.req.valid('json')))),
  )
  .post(
    '/v1/operator/activities/:id/publish',
    doc.user('Publishes an activity to buyers (editors)'),
    ...editors,
    input('param', idParam),
    async (c) => c.json(success(await publishActivity(c.var.scope, c.req.valid('param').id))),
  )
  .post(
    '/v1/operator/activities/:id/unpublish',
    doc.user('Hides an activity from buyers (editors)'),
    ...editors,
    input('param', idParam),
    async (c) => c.json(success(await unpublishActivity(c.var.scope, c.req.valid('param').id))),
  )
  .post(
    '/v1/operator/activities/:id/sessions',
    doc.user('Adds a session to an activity (editors)'),
    ...editors,
    input('param', idParam),
    input('json', sessionDraft),
    async (c) => c.json(success(await addSession(c.var.scope, c.req.valid('param').id, c.req.valid('json')))),
  )
  .patch(
    '/v1/operator/sessions/:id',
    doc.user('Edits a session (editors)'),
    ...editors,
    input('param', idParam),
    input('json', sessionDraft),
    async (c) => c.json(success(await updateSession(c.var.scope, c.req.valid('param').id, c.req.valid('json')))),
  )
  .delete(
    '/v1/operator/sessions/:id',
    doc.user('Removes a session nobody ordered or listed (editors)'),
    ...editors,
    input('param', idParam),
    async (c) => {
      await removeSession(c.var.scope, c.req.valid('param').id);
      return c.json(success(null));
    },
  )
  .post(
    '/v1/operator/sessions/:id/tiers',
    doc.user('Adds a ticket tier to a session (editors)'),
    ...editors,
    input('param', idParam),
    input('json', tierDraft),
    async (c) => c.json(success(await addTier(c.var.scope, c.req.valid('param').id, c.req.valid('json')))),
  )
  .patch(
    '/v1/operator/tiers/:id',
    doc.user('Edits a ticket tier (editors)'),
    ...editors,
    input('param', idParam),
    input('json', tierDraft),
    async (c) => c.json(success(await updateTier(c.var.scope, c.req.valid('param').id, c.req.valid('json')))),
  )
  .delete(
    '/v1/operator/tiers/:id',
    doc.user('Removes a ticket tier nobody ordered or listed (editors)'),
    ...editors,
    input('param', idParam),
    async (c) => {
      await removeTier(c.var.scope, c.req.valid('param').id);
      return c.json(success(null));
    },
  );
