/**
 * The gate (signed in as door staff of the session: its sellers; anyone else is a 403 not_gate_staff).
 *
 *   GET  v1/gate/sessions                       the sessions the caller may staff, not yet ended
 *   GET  v1/gate/sessions/{id}/count            { admitted, issued } tickets of the session so far
 *   POST v1/gate/sessions/{id}/admissions       { code } → the ticket admitted, or 409 with why not:
 *        ticket_already_used (with when), ticket_transferred, ticket_void, ticket_other_session;
 *        404 ticket_not_found; 400 entry_code_invalid
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { admit, admittedCount, gateSessions } from '../../services/admission.ts';
import { requireUser } from '../../services/auth.ts';
import type { ApiEnv } from '../context.ts';
import { success } from '../errors.ts';
import { jsonBody, parseInput } from '../validate.ts';
import { idParam } from './addresses.ts';

/** Room for a code typed with spaces; its form is checked by domain/admission.ts. */
const admissionBody = z.object({ code: z.string().max(64) });

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
  });
