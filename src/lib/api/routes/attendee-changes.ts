/**
 * Changing a real-name attendee after ordering (signed in). A request is visible to its buyer, the
 * seller who issued the tickets and operators; to anyone else it is a 404 attendee_change_not_found.
 *
 *   GET  v1/orders/{id}/attendee-changes    the order's attendees, whether each may be changed now, and its requests (buyer)
 *   POST v1/orders/{id}/attendee-changes    { orderAttendeeId, name, nationality, idCardType, idCardNo }: asks for a change (buyer)
 *   GET  v1/attendee-changes                the waiting requests the caller decides (issuing seller; all for an operator)
 *   GET  v1/attendee-changes/{id}           one request
 *   POST v1/attendee-changes/{id}/withdraw  the buyer withdraws a waiting request
 *   POST v1/attendee-changes/{id}/decision  { decision: 'approve' | 'refuse' } (issuing seller or operator; decided once, else 409)
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { NAME_MAX_LENGTH } from '../../domain/identity.ts';
import {
  decideAttendeeChange,
  getAttendeeChange,
  orderAttendeeChanges,
  pendingAttendeeChanges,
  requestAttendeeChange,
  withdrawAttendeeChange,
} from '../../services/orders/attendee-changes.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { bodyId, formText, idParam } from '../params.ts';
import { signedIn } from '../session.ts';
import { input } from '../validate.ts';

/** The new attendee, given as on the attendee form (checked by the same rules). */
const changeBody = z.object({
  orderAttendeeId: bodyId,
  name: formText(NAME_MAX_LENGTH * 2),
  nationality: formText(2),
  idCardType: formText(10),
  idCardNo: formText(40),
});

const decisionBody = z.object({ decision: z.enum(['approve', 'refuse']) });

const doc = describe('Attendee changes');

export const attendeeChangeRoutes = new Hono<ApiEnv>()
  .get(
    '/v1/orders/:id/attendee-changes',
    doc.user("The order's attendees, whether each may be changed now, and its change requests"),
    signedIn,
    input('param', idParam),
    async (c) => c.json(success(await orderAttendeeChanges(c.var.scope, c.req.valid('param').id))),
  )
  .post(
    '/v1/orders/:id/attendee-changes',
    doc.user('Asks the seller to change one attendee of a real-name order'),
    signedIn,
    input('param', idParam),
    input('json', changeBody),
    async (c) => c.json(success(await requestAttendeeChange(c.var.scope, c.req.valid('param').id, c.req.valid('json')))),
  )
  .get('/v1/attendee-changes', doc.user('Waiting change requests the caller decides (issuing seller, or operator)'), signedIn, async (c) =>
    c.json(success(await pendingAttendeeChanges(c.var.scope))),
  )
  .get(
    '/v1/attendee-changes/:id',
    doc.user('One change request (buyer, issuing seller or operator)'),
    signedIn,
    input('param', idParam),
    async (c) => c.json(success(await getAttendeeChange(c.var.scope, c.req.valid('param').id))),
  )
  .post(
    '/v1/attendee-changes/:id/withdraw',
    doc.user('The buyer withdraws a waiting change request'),
    signedIn,
    input('param', idParam),
    async (c) => c.json(success(await withdrawAttendeeChange(c.var.scope, c.req.valid('param').id))),
  )
  .post(
    '/v1/attendee-changes/:id/decision',
    doc.user('Approves (new attendee, reissued entry code) or refuses a change request, once'),
    signedIn,
    input('param', idParam),
    input('json', decisionBody),
    async (c) => c.json(success(await decideAttendeeChange(c.var.scope, c.req.valid('param').id, c.req.valid('json').decision))),
  );
