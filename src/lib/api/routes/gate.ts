/**
 * The gate (signed in as door staff of the session: its sellers, and the accounts each assigned;
 * anyone else is a 403 not_gate_staff). A door admits only its seller's tickets (409 ticket_other_seller).
 *
 *   GET  v1/gate/sessions                       the sessions the caller may staff, not yet ended
 *   GET  v1/gate/sessions/{id}/count            { admitted, issued } tickets of the session so far
 *   POST v1/gate/sessions/{id}/admissions       { code } → the ticket admitted, or 409 with why not:
 *        ticket_already_used (with when), ticket_transferred, ticket_void, ticket_other_session;
 *        404 ticket_not_found; 400 entry_code_invalid
 *   GET    v1/gate/sessions/{id}/staff          the door staff the calling seller assigned to the session
 *   POST   v1/gate/sessions/{id}/staff          { account: email | "+852 91234567" } → the staff list
 *   DELETE v1/gate/sessions/{id}/staff/{userId} → the staff list
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { admit, admittedCount, assignDoorStaff, doorStaff, gateSessions, removeDoorStaff } from '../../services/admission.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { accountText, idParam, idParams } from '../params.ts';
import { signedIn } from '../session.ts';
import { input } from '../validate.ts';

/** Room for a code typed with spaces; its form is checked by domain/admission.ts. */
const admissionBody = z.object({ code: z.string().max(64) });
const staffBody = z.object({ account: accountText });
const staffParam = idParams('id', 'userId');

const doc = describe('Gate');

export const gateRoutes = new Hono<ApiEnv>()
  .get('/v1/gate/sessions', doc.user('The sessions the caller may staff, not yet ended'), signedIn, async (c) =>
    c.json(success(await gateSessions(c.var.scope))),
  )
  .get(
    '/v1/gate/sessions/:id/count',
    doc.user('The tickets of a session admitted and issued so far'),
    signedIn,
    input('param', idParam),
    async (c) => c.json(success(await admittedCount(c.var.scope, c.req.valid('param').id))),
  )
  .post(
    '/v1/gate/sessions/:id/admissions',
    doc.user('Admits a ticket by its entry code'),
    signedIn,
    input('param', idParam),
    input('json', admissionBody),
    async (c) => c.json(success(await admit(c.var.scope, c.req.valid('param').id, c.req.valid('json').code))),
  )
  .get(
    '/v1/gate/sessions/:id/staff',
    doc.user('The door staff the calling seller assigned to a session'),
    signedIn,
    input('param', idParam),
    async (c) => c.json(success(await doorStaff(c.var.scope, c.req.valid('param').id))),
  )
  .post(
    '/v1/gate/sessions/:id/staff',
    doc.user('Assigns an account as door staff of a session'),
    signedIn,
    input('param', idParam),
    input('json', staffBody),
    async (c) => {
      const { id } = c.req.valid('param');
      return c.json(success(await assignDoorStaff(c.var.scope, id, c.req.valid('json').account)));
    },
  )
  .delete(
    '/v1/gate/sessions/:id/staff/:userId',
    doc.user('Removes a door staff member of a session'),
    signedIn,
    input('param', staffParam),
    async (c) => {
      const { id, userId } = c.req.valid('param');
      return c.json(success(await removeDoorStaff(c.var.scope, id, userId)));
    },
  );
