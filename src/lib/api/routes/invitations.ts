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
import { acceptInvitation, invitationOf } from '../../services/accounts/invitations.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { inviteCode } from '../params.ts';
import { signedIn } from '../session.ts';
import { input } from '../validate.ts';

const acceptBody = z.object({ inviteCode: inviteCode.min(1) });

const doc = describe('Invitations');

export const invitationRoutes = new Hono<ApiEnv>()
  .get('/v1/invitation', doc.user("The user's invite code, who joined, and both sides' rewards"), signedIn, async (c) =>
    c.json(success(await invitationOf(c.var.scope))),
  )
  .post(
    '/v1/invitation/accept',
    doc.user("Accepts a friend's invite code, while the account is new"),
    signedIn,
    input('json', acceptBody),
    async (c) => c.json(success(await acceptInvitation(c.var.scope, c.req.valid('json').inviteCode))),
  );
