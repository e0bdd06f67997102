/**
 * The waitlist of sold-out ticket tiers (signed in; only the owner sees or leaves an entry).
 *
 *   POST   v1/waitlist        { tierId, quantity } joins, or changes the group of the buyer's waiting entry (its place kept)
 *   GET    v1/waitlist        the buyer's entries still waiting or offered: show, tier, group, place, open offer
 *   DELETE v1/waitlist/{id}   leaves (404 waitlist_entry_not_found when missing, over or someone else's)
 *
 * The answers are the views of services/on-sale/waitlist.ts.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { joinWaitlist, leaveWaitlist, myWaitlist } from '../../services/on-sale/waitlist.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { bodyId, idParam } from '../params.ts';
import { signedIn } from '../session.ts';
import { input } from '../validate.ts';

const joinBody = z.object({
  tierId: bodyId,
  quantity: z.number().int().min(1).max(99),
});

const doc = describe('Waitlist');

export const waitlistRoutes = new Hono<ApiEnv>()
  .post('/v1/waitlist', doc.user("Joins a sold-out tier's waitlist for a group of tickets"), signedIn, input('json', joinBody), async (c) =>
    c.json(success(await joinWaitlist(c.var.scope, c.req.valid('json')))),
  )
  .get('/v1/waitlist', doc.user("The buyer's waitlist entries, their places and open offers"), signedIn, async (c) =>
    c.json(success(await myWaitlist(c.var.scope))),
  )
  .delete(
    '/v1/waitlist/:id',
    doc.user('Leaves the waitlist; tickets held for the buyer pass to the next in line'),
    signedIn,
    input('param', idParam),
    async (c) => {
      await leaveWaitlist(c.var.scope, c.req.valid('param').id);
      return c.json(success(null));
    },
  );
