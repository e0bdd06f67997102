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
import { requireUser } from '../../services/auth.ts';
import type { ApiEnv } from '../context.ts';
import { success } from '../errors.ts';
import { jsonBody, parseInput } from '../validate.ts';
import { idParam } from '../params.ts';

/** Room for a code typed with spaces; its form is checked by domain/admission.ts. */
const admissionBody = z.object({ code: z.string().max(64) });
const staffBody = z.object({ account: z.string().min(1).max(260) });
const staffParam = z.object({ id: idParam.shape.id, userId: idParam.shape.id });

export const gateRoutes = new Hono<ApiEnv>()
  .get('/v1/gate/sessions', async (c) => {
    const user = await requireUser(c);
    return c.json(success(await gateSessions(c.get('db'), c.get('ctx'), user.userId, Date.now())));
  })
  .get('/v1/gate/sessions/:id/count', async (c) => {
    const user = await requireUser(c);
    const { id } = parseInput(idParam, c.req.param());
    return c.json(success(await admittedCount(c.get('db'), user.userId, id)));
  })
  .post('/v1/gate/sessions/:id/admissions', async (c) => {
    const user = await requireUser(c);
    const { id } = parseInput(idParam, c.req.param());
    const { code } = parseInput(admissionBody, await jsonBody(c.req.raw));
    return c.json(success(await admit(c.get('db'), c.get('ctx'), user.userId, id, code, Date.now())));
  })
  .get('/v1/gate/sessions/:id/staff', async (c) => {
    const user = await requireUser(c);
    const { id } = parseInput(idParam, c.req.param());
    return c.json(success(await doorStaff(c.get('db'), user.userId, id)));
  })
  .post('/v1/gate/sessions/:id/staff', async (c) => {
    const user = await requireUser(c);
    const { id } = parseInput(idParam, c.req.param());
    const { account } = parseInput(staffBody, await jsonBody(c.req.raw));
    return c.json(success(await assignDoorStaff(c.get('db'), user.userId, id, account, Date.now())));
  })
  .delete('/v1/gate/sessions/:id/staff/:userId', async (c) => {
    const user = await requireUser(c);
    const { id, userId } = parseInput(staffParam, c.req.param());
    return c.json(success(await removeDoorStaff(c.get('db'), user.userId, id, userId)));
  });
