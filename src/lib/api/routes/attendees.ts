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
import { requireUser } from '../../services/auth.ts';
import { createAttendee, deleteAttendee, getAttendee, listAttendees, updateAttendee } from '../../services/attendees.ts';
import type { ApiEnv } from '../context.ts';
import { success } from '../errors.ts';
import { jsonBody, parseInput } from '../validate.ts';
import { idParam } from '../params.ts';

const text = (max: number) => z.string().max(max).default('');
const attendeeBody = z.object({
  name: text(NAME_MAX_LENGTH * 2),
  nationality: text(2),
  idCardType: text(10),
  idCardNo: text(40),
});

export const attendeeRoutes = new Hono<ApiEnv>()
  .get('/v1/attendees', async (c) => {
    const user = await requireUser(c);
    return c.json(success(await listAttendees(c.get('db'), user.userId, c.get('ctx').locale)));
  })
  .post('/v1/attendees', async (c) => {
    const user = await requireUser(c);
    const input = parseInput(attendeeBody, await jsonBody(c.req.raw));
    return c.json(success(await createAttendee(c.get('db'), user.userId, input, c.get('ctx').locale)));
  })
  .get('/v1/attendees/:id', async (c) => {
    const user = await requireUser(c);
    const { id } = parseInput(idParam, c.req.param());
    return c.json(success(await getAttendee(c.get('db'), user.userId, id, c.get('ctx').locale)));
  })
  .put('/v1/attendees/:id', async (c) => {
    const user = await requireUser(c);
    const { id } = parseInput(idParam, c.req.param());
    const input = parseInput(attendeeBody, await jsonBody(c.req.raw));
    return c.json(success(await updateAttendee(c.get('db'), user.userId, id, input, c.get('ctx').locale)));
  })
  .delete('/v1/attendees/:id', async (c) => {
    const user = await requireUser(c);
    const { id } = parseInput(idParam, c.req.param());
    await deleteAttendee(c.get('db'), user.userId, id);
    return c.json(success(null));
  });
