/**
 * Real-name attendees (signed in, owner only). ID numbers come masked in the list and in answers
 * to changes; only GET of one attendee answers the full number, to its owner, for the edit form.
 *
 *   GET    v1/attendees              the user's attendees (ID numbers masked)
 *   POST   v1/attendees              { name, nationality, idCardType: 'id_card' | 'passport', idCardNo }
 *   GET    v1/attendees/{id}         one attendee, full ID number (404 attendee_not_found when missing or someone else's)
 *   PUT    v1/attendees/{id}         same body as POST
 *   DELETE v1/attendees/{id}
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { NAME_MAX_LENGTH } from '../../domain/identity.ts';
import { createAttendee, deleteAttendee, getAttendee, listAttendees, updateAttendee } from '../../services/accounts/attendees.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { formText, idParam } from '../params.ts';
import { signedIn } from '../session.ts';
import { input } from '../validate.ts';

const attendeeBody = z.object({
  name: formText(NAME_MAX_LENGTH * 2),
  nationality: formText(2),
  idCardType: formText(10),
  idCardNo: formText(40),
});

const doc = describe('Attendees');

export const attendeeRoutes = new Hono<ApiEnv>()
  .get('/v1/attendees', doc.user("The user's attendees, ID numbers masked"), signedIn, async (c) =>
    c.json(success(await listAttendees(c.var.scope))),
  )
  .post('/v1/attendees', doc.user('Adds an attendee'), signedIn, input('json', attendeeBody), async (c) =>
    c.json(success(await createAttendee(c.var.scope, c.req.valid('json')))),
  )
  .get(
    '/v1/attendees/:id',
    doc.user('One attendee with the full ID number, for the edit form'),
    signedIn,
    input('param', idParam),
    async (c) => c.json(success(await getAttendee(c.var.scope, c.req.valid('param').id))),
  )
  .put('/v1/attendees/:id', doc.user('Changes an attendee'), signedIn, input('param', idParam), input('json', attendeeBody), async (c) =>
    c.json(success(await updateAttendee(c.var.scope, c.req.valid('param').id, c.req.valid('json')))),
  )
  .delete('/v1/attendees/:id', doc.user('Deletes an attendee'), signedIn, input('param', idParam), async (c) => {
    await deleteAttendee(c.var.scope, c.req.valid('param').id);
    return c.json(success(null));
  });
