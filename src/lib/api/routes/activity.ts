/**
 * Activity detail endpoints of SPEC.md section 7: the detail, its ticket categories, the DIRECT_BUY
 * offer of a tier, and the notify-me subscription of the signed-in user.
 *
 *   GET  activity/{id}                          the detail (404 activity_not_found)
 *   GET  v1/ticketCategories?b2c=true&eventId=  tiers of the sessions to come: id, specification, hasTicket
 *   POST v8/tickets {eventId, ticketCategoryId, buyType: 1}   [the DIRECT_BUY offer]; 409 when not on sale
 *   GET  v1/activity/favorite/{id}?type=1       { subscribed } (signed in)
 *   POST v1/activity/favorite/{id} {type: 1}    subscribes, idempotent (signed in)
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { BUY_TYPE_DIRECT } from '../../domain/ticket-offer.ts';
import { requireUser } from '../../services/auth.ts';
import {
  activityDetail, FAVOURITE_TYPES, subscribe, subscriptionStatus, ticketCategories, ticketOffers,
} from '../../services/activity-detail.ts';
import type { ApiEnv } from '../context.ts';
import { ApiError, success } from '../errors.ts';
import { jsonBody, parseInput } from '../validate.ts';
import { idParam, queryId } from '../params.ts';

const favouriteType = z.coerce.number().int().refine((type) => (FAVOURITE_TYPES as readonly number[]).includes(type));

const categoriesQuery = z.object({ eventId: queryId, b2c: z.stringbool().optional() });
const offersBody = z.object({
  eventId: queryId,
  ticketCategoryId: queryId,
  buyType: z.coerce.number().pipe(z.literal(BUY_TYPE_DIRECT)),
  b2c: z.union([z.boolean(), z.stringbool()]).optional(),
});
const favouriteQuery = z.object({ type: favouriteType });
const favouriteBody = z.object({ type: favouriteType });

export const activityRoutes = new Hono<ApiEnv>()
  .get('/activity/:id', async (c) => {
    const { id: activityId } = parseInput(idParam, c.req.param());
    const detail = await activityDetail(c.get('db'), c.get('ctx'), activityId, Date.now());
    if (!detail) throw new ApiError(404, 'activity_not_found');
    return c.json(success(detail));
  })
  .get('/v1/ticketCategories', async (c) => {
    const { eventId } = parseInput(categoriesQuery, c.req.query());
    const list = await ticketCategories(c.get('db'), c.get('ctx'), eventId, Date.now());
    if (!list) throw new ApiError(404, 'activity_not_found');
    return c.json(success(list));
  })
  .post('/v8/tickets', async (c) => {
    const body = parseInput(offersBody, await jsonBody(c.req.raw));
    return c.json(success(await ticketOffers(c.get('db'), c.get('ctx'), body.eventId, body.ticketCategoryId, Date.now())));
  })
  .get('/v1/activity/favorite/:id', async (c) => {
    const user = await requireUser(c);
    const { id: activityId } = parseInput(idParam, c.req.param());
    const { type } = parseInput(favouriteQuery, c.req.query());
    return c.json(success({ subscribed: await subscriptionStatus(c.get('db'), user.userId, activityId, type) }));
  })
  .post('/v1/activity/favorite/:id', async (c) => {
    const user = await requireUser(c);
    const { id: activityId } = parseInput(idParam, c.req.param());
    const { type } = parseInput(favouriteBody, await jsonBody(c.req.raw));
    await subscribe(c.get('db'), user.userId, activityId, type, Date.now());
    return c.json(success({ subscribed: true }));
  });
