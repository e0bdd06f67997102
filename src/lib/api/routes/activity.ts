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
import { DomainError } from '../../domain/errors.ts';
import { BUY_TYPE_DIRECT } from '../../domain/ticket-offer.ts';
import { activityDetail, ticketCategories } from '../../services/catalogue/activity-detail.ts';
import { FAVOURITE_TYPES, subscribe, subscriptionStatus } from '../../services/catalogue/activity-subscriptions.ts';
import { ticketOffers } from '../../services/catalogue/ticket-offers.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { idParam, queryId } from '../params.ts';
import { signedIn } from '../session.ts';
import { input } from '../validate.ts';

const favouriteType = z.coerce
  .number()
  .int()
  .refine((type) => (FAVOURITE_TYPES as readonly number[]).includes(type));

const categoriesQuery = z.object({ eventId: queryId, b2c: z.stringbool().optional() });
const offersBody = z.object({
  eventId: queryId,
  ticketCategoryId: queryId,
  buyType: z.coerce.number().pipe(z.literal(BUY_TYPE_DIRECT)),
  b2c: z.union([z.boolean(), z.stringbool()]).optional(),
});
const favouriteQuery = z.object({ type: favouriteType });
const favouriteBody = z.object({ type: favouriteType });

const doc = describe('Activities');

export const activityRoutes = new Hono<ApiEnv>()
  .get('/activity/:id', doc.anyone("An activity's detail"), input('param', idParam), async (c) => {
    const detail = await activityDetail(c.var.scope, c.req.valid('param').id);
    if (!detail) throw new DomainError('activity_not_found');
    return c.json(success(detail));
  })
  .get(
    '/v1/ticketCategories',
    doc.anyone("The ticket tiers of an activity's sessions to come"),
    input('query', categoriesQuery),
    async (c) => {
      const list = await ticketCategories(c.var.scope, c.req.valid('query').eventId);
      if (!list) throw new DomainError('activity_not_found');
      return c.json(success(list));
    },
  )
  .post('/v8/tickets', doc.anyone('The direct-buy offer of a ticket tier'), input('json', offersBody), async (c) => {
    const body = c.req.valid('json');
    return c.json(success(await ticketOffers(c.var.scope, body.eventId, body.ticketCategoryId)));
  })
  .get(
    '/v1/activity/favorite/:id',
    doc.user("Whether the user is subscribed to an activity's news"),
    signedIn,
    input('param', idParam),
    input('query', favouriteQuery),
    async (c) => {
      const subscribed = await subscriptionStatus(c.var.scope, c.req.valid('param').id, c.req.valid('query').type);
      return c.json(success({ subscribed }));
    },
  )
  .post(
    '/v1/activity/favorite/:id',
    doc.user("Subscribes the user to an activity's news (idempotent)"),
    signedIn,
    input('param', idParam),
    input('json', favouriteBody),
    async (c) => {
      await subscribe(c.var.scope, c.req.valid('param').id, c.req.valid('json').type);
      return c.json(success({ subscribed: true }));
    },
  );
