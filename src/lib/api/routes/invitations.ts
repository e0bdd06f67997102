/**
 * The invitation programme of the signed-in user.
 *
 *   GET  v1/invitation          the user's code, share path, who joined, and the rewards of both sides
 *   POST v1/invitation/accept   {inviteCode}: an account that registered without a code accepts a
 *                               friend's, while it is a new user (409 for one's own code, a second
 *                               invitation, a friend one invited, or after a paid order; 400 unknown code)
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { requireUser } from '../../services/auth.ts';
import { acceptInvitation, invitationOf } from '../../services/invitations.ts';
import type { ApiEnv } from '../context.ts';
import { success } from '../errors.ts';
import { jsonBody, parseInput } from '../validate.ts';

const acceptBody = z.object({ inviteCode: z.string().min(1).max(32) });

export const invitationRoutes = new Hono<ApiEnv>()
  .get('/v1/invitation', async (c) => {
    const user = await requireUser(c);
    return c.json(success(await invitationOf(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId, Date.now())));
  })
  .post('/v1/invitation/accept', async (c) => {
    const user = await requireUser(c);
    const { inviteCode } = parseInput(acceptBody, await jsonBody(c.req.raw));
    return c.json(success(await acceptInvitation(c.get('db'), user.userId, inviteCode, Date.now())));
  });
