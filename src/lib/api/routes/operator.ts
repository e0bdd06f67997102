/**
 * Operators (api/staff.ts: 403 not_staff or staff_role_forbidden otherwise) cancel or postpone a
 * show's session (src/lib/services/catalogue/show-changes.ts), switch high demand and redeliver dead
 * messages; each change writes its audit row (services/staff/audit.ts) with the change. The console's
 * screens for them read through on-sales.ts (the refund preview among them).
 *
 *   POST v1/operator/sessions/{id}/cancel     every paid order refunded minus the service and mailing
 *                                             fees, unpaid ones closed, listings closed; repeating it
 *                                             finishes an interrupted run and changes nothing more
 *   POST v1/operator/sessions/{id}/postpone   { startsAt, endsAt, refundUntil } (ms): orders stay valid;
 *                                             buyers may ask for the refund until refundUntil
 *   POST v1/operator/sessions/{id}/high-demand { highDemand }: on, the waiting room and the inventory
 *                                             object; off only once the object wrote every hold it
 *                                             keeps to D1 (409 high_demand_holds_unwritten: try again);
 *                                             either way final: the order rate no longer switches it
 *   POST v1/operator/tiers/{id}/high-demand    { highDemand }: the same for one tier's own on-sale (its own
 *                                             room, pass and inventory object; 404 ticket_category_not_found)
 *   GET  v1/operator/messages/dead            messages to buyers that failed their last delivery try
 *   POST v1/operator/messages/{id}/redeliver  a dead message tried again from the start
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { switchHighDemand, switchTierHighDemand } from '../../services/on-sale/high-demand.ts';
import { deadMessages, redeliverDeadMessage } from '../../services/messages/dead-letters.ts';
import { cancelSession, postponeSession } from '../../services/catalogue/show-changes.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { epochMs, idParam } from '../params.ts';
import { signedIn } from '../session.ts';
import { staffOnly } from '../staff.ts';
import { input } from '../validate.ts';

const messageIdParam = z.object({ id: z.string().regex(/^[0-9a-f]{32}$/) });
const postponeBody = z.object({ startsAt: epochMs, endsAt: epochMs, refundUntil: epochMs });
const highDemandBody = z.object({ highDemand: z.boolean() });

const doc = describe('Operator');

export const operatorRoutes = new Hono<ApiEnv>()
  .post(
    '/v1/operator/sessions/:id/cancel',
    doc.user('Cancels a session: paid orders refunded, unpaid closed (operators)'),
    signedIn,
    staffOnly('on_sale'),
    input('param', idParam),
    async (c) => c.json(success(await cancelSession(c.var.scope, c.req.valid('param').id))),
  )
  .post(
    '/v1/operator/sessions/:id/postpone',
    doc.user('Postpones a session; buyers may ask for a refund until refundUntil (operators)'),
    signedIn,
    staffOnly('on_sale'),
    input('param', idParam),
    input('json', postponeBody),
    async (c) => {
      const moved = await postponeSession(c.var.scope, c.req.valid('param').id, c.req.valid('json'));
      return c.json(
        success({
          sessionId: moved.id,
          status: moved.status,
          startsAt: moved.startsAt,
          endsAt: moved.endsAt,
          refundUntil: moved.refundUntil,
        }),
      );
    },
  )
  .post(
    '/v1/operator/sessions/:id/high-demand',
    doc.user('Turns a session’s high demand on or off; off once its held tickets are all written (operators)'),
    signedIn,
    staffOnly('on_sale'),
    input('param', idParam),
    input('json', highDemandBody),
    async (c) => c.json(success(await switchHighDemand(c.var.scope, c.req.valid('param').id, c.req.valid('json').highDemand))),
  )
  .post(
    '/v1/operator/tiers/:id/high-demand',
    doc.user('Turns one ticket tier’s own high-demand on-sale on or off; off once its held tickets are all written (operators)'),
    signedIn,
    staffOnly('on_sale'),
    input('param', idParam),
    input('json', highDemandBody),
    async (c) => c.json(success(await switchTierHighDemand(c.var.scope, c.req.valid('param').id, c.req.valid('json').highDemand))),
  )
  .get(
    '/v1/operator/messages/dead',
    doc.user('Messages whose last delivery try failed (operators)'),
    signedIn,
    staffOnly('messages'),
    async (c) => c.json(success(await deadMessages(c.var.scope.db))),
  )
  .post(
    '/v1/operator/messages/:id/redeliver',
    doc.user('Tries a dead message again from the start (operators)'),
    signedIn,
    staffOnly('messages'),
    input('param', messageIdParam),
    async (c) => {
      await redeliverDeadMessage(c.var.scope, c.req.valid('param').id);
      return c.json(success(null));
    },
  );
