/**
 * The platform's operations staff (users.is_operator; 403 not_an_operator otherwise) cancel or
 * postpone a show's session (src/lib/services/show-changes.ts).
 *
 *   POST v1/operator/sessions/{id}/cancel     every paid order refunded minus the service and mailing
 *                                             fees, unpaid ones closed, listings closed; repeating it
 *                                             finishes an interrupted run and changes nothing more
 *   POST v1/operator/sessions/{id}/postpone   { startsAt, endsAt, refundUntil } (ms): orders stay valid;
 *                                             buyers may ask for the refund until refundUntil
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { requireUser } from '../../services/auth.ts';
import { cancelSession, postponeSession, requireOperator } from '../../services/show-changes.ts';
import type { ApiEnv } from '../context.ts';
import { success } from '../errors.ts';
import { jsonBody, parseInput } from '../validate.ts';
import { idParam } from '../params.ts';

const moment = z.number().int().positive();
const postponeBody = z.object({ startsAt: moment, endsAt: moment, refundUntil: moment });

export const operatorRoutes = new Hono<ApiEnv>()
  .post('/v1/operator/sessions/:id/cancel', async (c) => {
    const user = await requireUser(c);
    await requireOperator(c.get('db'), user.userId);
    const { id } = parseInput(idParam, c.req.param());
    return c.json(success(await cancelSession(c.get('db'), id, Date.now())));
  })
  .post('/v1/operator/sessions/:id/postpone', async (c) => {
    const user = await requireUser(c);
    await requireOperator(c.get('db'), user.userId);
    const { id } = parseInput(idParam, c.req.param());
    const next = parseInput(postponeBody, await jsonBody(c.req.raw));
    const moved = await postponeSession(c.get('db'), id, next, Date.now());
    return c.json(success({ sessionId: moved.id, status: moved.status, startsAt: moved.startsAt, endsAt: moved.endsAt, refundUntil: moved.refundUntil }));
  });
