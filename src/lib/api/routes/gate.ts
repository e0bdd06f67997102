/**
 * The gate (signed in as door staff of the session: its sellers, and the accounts each assigned;
 * anyone else is a 403 not_gate_staff). A door admits only its seller's tickets (409 ticket_other_seller).
 *
 *   GET  v1/gate/sessions                       the sessions the caller may staff, not yet ended
 *   GET  v1/gate/sessions/{id}/count            { admitted, issued } tickets of the session so far
 *   POST v1/gate/sessions/{id}/admissions       { code: "<ticketNo> <entry code>" as the voucher's QR
 *        carries it } → the ticket admitted, or 409 with why not: entry_code_expired (outside the
 *        skew window: a screenshot), ticket_already_used (with when), ticket_transferred,
 *        ticket_void, ticket_other_session; 404 ticket_not_found; 400 entry_code_invalid
 *   GET  v1/gate/sessions/{id}/tickets/{ticketNo}     a ticket and its real-name attendee, for a photo-ID check
 *   POST v1/gate/sessions/{id}/id-checked-admissions  { ticketNo } → admitted after a photo-ID check
 *   GET  v1/gate/sessions/{id}/sync             { syncedAt, timeZone, namesFinalAt, tickets } with the entry secrets
 *        of the door's valid tickets, so a door device admits without signal
 *   POST v1/gate/sessions/{id}/offline-admissions     { admissions: [{ ticketNo, admittedAt, method }] }
 *        → per ticket admitted, or why not (another door got there first): the server decides
 *   GET    v1/gate/sessions/{id}/staff          the door staff the calling seller assigned to the session
 *   POST   v1/gate/sessions/{id}/staff          { account: email | "+852 91234567" } → the staff list
 *   DELETE v1/gate/sessions/{id}/staff/{userId} → the staff list
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { OFFLINE_ADMISSIONS_MAX } from '../../config/gate.ts';
import { admit, admitAfterIdCheck, admittedCount, gateSessions, ticketForIdCheck } from '../../services/gate/admission.ts';
import { assignDoorStaff, doorStaff, removeDoorStaff } from '../../services/gate/door-staff.ts';
import { doorSync, recordOfflineAdmissions } from '../../services/gate/offline-door.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { accountText, epochMs, idParam, idParams } from '../params.ts';
import { signedIn } from '../session.ts';
import { input } from '../validate.ts';

/** Room for a scan with extra spaces; its form is checked by domain/entry-code.ts. */
const admissionBody = z.object({ code: z.string().max(64) });
/** A ticket number as staff type it; its form is the ticket's own (a number no ticket has is a 404). */
const ticketNo = z.string().trim().min(1).max(48);
const ticketParam = idParam.extend({ ticketNo });
const idCheckBody = z.object({ ticketNo });
const offlineBody = z.object({
  admissions: z
    .array(z.object({ ticketNo, admittedAt: epochMs, method: z.enum(['code', 'id_check']) }))
    .min(1)
    .max(OFFLINE_ADMISSIONS_MAX),
});
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
    '/v1/gate/sessions/:id/tickets/:ticketNo',
    doc.user('A ticket of the door and its real-name attendee, for a photo-ID check'),
    signedIn,
    input('param', ticketParam),
    async (c) => {
      const { id, ticketNo: number } = c.req.valid('param');
      return c.json(success(await ticketForIdCheck(c.var.scope, id, number)));
    },
  )
  .post(
    '/v1/gate/sessions/:id/id-checked-admissions',
    doc.user("Admits a ticket by its number after checking the holder's photo ID"),
    signedIn,
    input('param', idParam),
    input('json', idCheckBody),
    async (c) => c.json(success(await admitAfterIdCheck(c.var.scope, c.req.valid('param').id, c.req.valid('json').ticketNo))),
  )
  .get(
    '/v1/gate/sessions/:id/sync',
    doc.user("The door's tickets with their entry secrets, to admit without signal"),
    signedIn,
    input('param', idParam),
    async (c) => {
      // Entry secrets: never kept by a cache on the way.
      c.header('cache-control', 'no-store');
      return c.json(success(await doorSync(c.var.scope, c.req.valid('param').id)));
    },
  )
  .post(
    '/v1/gate/sessions/:id/offline-admissions',
    doc.user('Records the admissions a door device made without signal'),
    signedIn,
    input('param', idParam),
    input('json', offlineBody),
    async (c) => c.json(success(await recordOfflineAdmissions(c.var.scope, c.req.valid('param').id, c.req.valid('json').admissions))),
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
