/**
 * The console's staff routes (api/staff.ts: 403 not_staff or staff_role_forbidden otherwise):
 *
 *   GET    v1/operator/staff                          staff members, their roles and passkey counts ('staff')
 *   PUT    v1/operator/staff/{userId}/roles           { roles }: a member's roles, at least one; never the last operator
 *   DELETE v1/operator/staff/{userId}                 removes a member (roles and passkeys); never the last operator
 *   GET    v1/operator/staff/invitations              the latest invitations and where each stands ('staff')
 *   POST   v1/operator/staff/invitations              { countryCode, phone, role }: the invitation and its link
 *   POST   v1/operator/staff/invitations/{id}/revoke  withdraws an open invitation
 *   GET    v1/operator/passkeys                       the caller's passkeys ('console': any staff member)
 *   POST   v1/operator/passkeys/options               WebAuthn creation options for a new passkey
 *   POST   v1/operator/passkeys                       { response, name }: the browser's answer; the new passkey
 *   PATCH  v1/operator/passkeys/{id}                  { name }: renames one
 *   DELETE v1/operator/passkeys/{id}                  removes one, never the last (409 passkey_last)
 *   GET    v1/operator/audit                          the audit log, newest first, filtered and paged ('audit')
 *
 * Every change is audited in its own batch (services/staff).
 */
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { Hono } from 'hono';
import { z } from 'zod';
import { AUDIT_PAGE_SIZE } from '../../config/staff.ts';
import { STAFF_ROLES } from '../../domain/staff.ts';
import { callingCodeProblem, normalizePhone, phoneProblem } from '../../domain/validation.ts';
import { requirePublicOrigin } from '../../services/platform/public-origin.ts';
import { auditRecords } from '../../services/staff/audit.ts';
import { invitationPath, inviteStaff, recentInvitations, revokeInvitation } from '../../services/staff/invitations.ts';
import { changeStaffRoles, removeStaffMember, staffMembers } from '../../services/staff/members.ts';
import { ownPasskeys, registerPasskey, registrationOptions, removePasskey, renamePasskey } from '../../services/staff/passkeys.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { idParam, idParams, queryId, ruled } from '../params.ts';
import { signedIn } from '../session.ts';
import { staffOnly } from '../staff.ts';
import { input } from '../validate.ts';
import { registrationAnswer, relyingParty } from './staff-sign-in.ts';

const role = z.enum(STAFF_ROLES);
const inviteBody = z.object({ countryCode: ruled(callingCodeProblem), phone: ruled(phoneProblem), role });
const rolesBody = z.object({ roles: z.array(role).min(1).max(STAFF_ROLES.length) });
const passkeyName = z.string().max(200);
const newPasskeyBody = z.object({ response: registrationAnswer, name: passkeyName });
const renameBody = z.object({ name: passkeyName });
const moment = z.coerce.number().int().min(0).max(8_640_000_000_000);
const auditQuery = z.object({
  actorId: queryId.optional(),
  action: z.string().min(1).max(64).optional(),
  subjectType: z.string().min(1).max(64).optional(),
  subjectId: z.string().min(1).max(128).optional(),
  from: moment.optional(),
  until: moment.optional(),
  before: queryId.optional(),
});

const doc = describe('Operator: staff');

export const staffRoutes = new Hono<ApiEnv>()
  .get(
    '/v1/operator/staff',
    doc.user('Staff members with their roles and passkey counts (operators)'),
    signedIn,
    staffOnly('staff'),
    async (c) => c.json(success(await staffMembers(c.var.scope))),
  )
  .put(
    '/v1/operator/staff/:userId/roles',
    doc.user('Sets a staff member’s roles; the last operator stays one (operators)'),
    signedIn,
    staffOnly('staff'),
    input('param', idParams('userId')),
    input('json', rolesBody),
    async (c) => c.json(success({ roles: await changeStaffRoles(c.var.scope, c.req.valid('param').userId, c.req.valid('json').roles) })),
  )
  .delete(
    '/v1/operator/staff/:userId',
    doc.user('Removes a staff member: their roles and passkeys; never the last operator (operators)'),
    signedIn,
    staffOnly('staff'),
    input('param', idParams('userId')),
    async (c) => {
      await removeStaffMember(c.var.scope, c.req.valid('param').userId);
      return c.json(success(null));
    },
  )
  .get(
    '/v1/operator/staff/invitations',
    doc.user('The latest staff invitations and where each stands (operators)'),
    signedIn,
    staffOnly('staff'),
    async (c) => c.json(success(await recentInvitations(c.var.scope))),
  )
  .post(
    '/v1/operator/staff/invitations',
    doc.user('Invites a phone number to a staff role; answers the link to pass on (operators)'),
    signedIn,
    staffOnly('staff'),
    input('json', inviteBody),
    async (c) => {
      const body = c.req.valid('json');
      const origin = requirePublicOrigin(c.env, c.req.url);
      const invitation = await inviteStaff(c.var.scope, normalizePhone(body.countryCode, body.phone), body.role);
      return c.json(success({ ...invitation, link: `${origin}${invitationPath(invitation.token)}` }));
    },
  )
  .post(
    '/v1/operator/staff/invitations/:id/revoke',
    doc.user('Withdraws an open staff invitation (operators)'),
    signedIn,
    staffOnly('staff'),
    input('param', idParam),
    async (c) => {
      await revokeInvitation(c.var.scope, c.req.valid('param').id);
      return c.json(success(null));
    },
  )
  .get('/v1/operator/passkeys', doc.user('The caller’s passkeys (staff)'), signedIn, staffOnly('console'), async (c) =>
    c.json(success(await ownPasskeys(c.var.scope))),
  )
  .post('/v1/operator/passkeys/options', doc.user('Options for adding a passkey (staff)'), signedIn, staffOnly('console'), async (c) =>
    c.json(success(await registrationOptions(c.var.scope, relyingParty(c)))),
  )
  .post(
    '/v1/operator/passkeys',
    doc.user('Adds a passkey: the browser’s answer to the options, and its name (staff)'),
    signedIn,
    staffOnly('console'),
    input('json', newPasskeyBody),
    async (c) => {
      const { response, name } = c.req.valid('json');
      return c.json(success(await registerPasskey(c.var.scope, relyingParty(c), response as RegistrationResponseJSON, name)));
    },
  )
  .patch(
    '/v1/operator/passkeys/:id',
    doc.user('Renames one of the caller’s passkeys (staff)'),
    signedIn,
    staffOnly('console'),
    input('param', idParam),
    input('json', renameBody),
    async (c) => {
      await renamePasskey(c.var.scope, c.req.valid('param').id, c.req.valid('json').name);
      return c.json(success(null));
    },
  )
  .delete(
    '/v1/operator/passkeys/:id',
    doc.user('Removes one of the caller’s passkeys, never the last (staff)'),
    signedIn,
    staffOnly('console'),
    input('param', idParam),
    async (c) => {
      await removePasskey(c.var.scope, c.req.valid('param').id);
      return c.json(success(null));
    },
  )
  .get(
    '/v1/operator/audit',
    doc.user('The audit log, newest first: by actor, action prefix, subject and time; `before` pages on (operators)'),
    signedIn,
    staffOnly('audit'),
    input('query', auditQuery),
    async (c) => {
      const records = await auditRecords(c.var.scope.db, { ...c.req.valid('query'), limit: AUDIT_PAGE_SIZE });
      const next = records.length === AUDIT_PAGE_SIZE ? records[records.length - 1].id : null;
      return c.json(success({ records, next }));
    },
  );
