/**
 * Staff invitations: an operator invites a phone number to a role; whoever holds the link signs in
 * with the code sent to THAT phone (its account made if it has none, as the phone sign-in does) and
 * accepts, which grants the role. The link's token is stored only as its SHA-256. Inviting,
 * revoking and accepting are each audited in the change's own batch.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { STAFF_INVITATION_TTL_MS } from '../../config/staff.ts';
import { batch } from '../../data/batch.ts';
import type { Db } from '../../data/client.ts';
import { staffInvitations, staffRoles, users } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { randomToken, sha256Hex } from '../../domain/password.ts';
import { invitationRefusal, invitationStatus, type InvitationStatus, maskedPhone } from '../../domain/staff-access.ts';
import type { StaffRole } from '../../domain/staff.ts';
import type { PhoneNumber } from '../../domain/validation.ts';
import { type Account, accountCode, type AuthDeps } from '../accounts/codes.ts';
import type { SignedIn } from '../accounts/sessions.ts';
import type { CaptchaAttempt } from '../accounts/captcha-gate.ts';
import { isKnownCallingCode, loginWithCode } from '../accounts/sign-in.ts';
import type { StaffScope, UserScope } from '../platform/scope.ts';
import { auditEntry } from './audit.ts';

type InvitationRow = typeof staffInvitations.$inferSelect;

const tokenHash = (token: string) => sha256Hex(`staff-invitation:${token}`);

/** The path of an invitation's link; the caller puts the configured public origin before it. */
export const invitationPath = (token: string) => `/ops/join/${token}`;

export interface CreatedInvitation {
  id: number;
  role: StaffRole;
  /** The only time the token is known: the link is shown to the operator to pass on. */
  token: string;
  expiresAt: number;
}

/** An operator invites a phone to a role; the link works for STAFF_INVITATION_TTL_MS. */
export async function inviteStaff(scope: StaffScope, phone: PhoneNumber, role: StaffRole): Promise<CreatedInvitation> {
  if (!(await isKnownCallingCode(scope.db, phone.callingCode))) throw new DomainError('country_code_invalid', {}, 'countryCode');
  const token = randomToken();
  const expiresAt = scope.now + STAFF_INVITATION_TTL_MS;
  const row = {
    tokenHash: await tokenHash(token),
    role,
    phoneCountryCode: phone.callingCode,
    phone: phone.number,
    invitedBy: scope.userId,
    createdAt: scope.now,
    expiresAt,
  };
  const { created } = await batch(scope.db, {
    created: scope.db.insert(staffInvitations).values(row).returning({ id: staffInvitations.id }),
    audit: auditEntry(scope, {
      action: 'staff.invite',
      subjectType: 'staff_invitation',
      // The new row's id is not known inside the batch: the phone names the subject, and the id rides in `after`.
      subjectId: `${phone.callingCode} ${phone.number}`,
      before: null,
      after: { role, phone: `${phone.callingCode} ${phone.number}`, expiresAt },
    }),
  });
  return { id: created[0].id, role, token, expiresAt };
}

export interface InvitationSummary {
  id: number;
  role: StaffRole;
  phone: string;
  invitedBy: string | null;
  createdAt: number;
  expiresAt: number;
  status: InvitationStatus;
}

/** The latest invitations, newest first, with where each stands. */
export async function recentInvitations(scope: StaffScope, limit = 50): Promise<InvitationSummary[]> {
  const rows = await scope.db
    .select({ invitation: staffInvitations, invitedBy: users.nickname })
    .from(staffInvitations)
    .leftJoin(users, eq(users.id, staffInvitations.invitedBy))
    .orderBy(desc(staffInvitations.id))
    .limit(limit);
  return rows.map(({ invitation, invitedBy }) => ({
    id: invitation.id,
    role: invitation.role,
    phone: `${invitation.phoneCountryCode} ${invitation.phone}`,
    invitedBy,
    createdAt: invitation.createdAt,
    expiresAt: invitation.expiresAt,
    status: invitationStatus(invitation, scope.now),
  }));
}

/** An operator withdraws an open invitation: its link stops working. */
export async function revokeInvitation(scope: StaffScope, id: number): Promise<void> {
  const [invitation] = await scope.db.select().from(staffInvitations).where(eq(staffInvitations.id, id));
  if (!invitation) throw new DomainError('staff_invitation_not_found');
  const refusal = invitationRefusal(invitation, scope.now);
  if (refusal) throw new DomainError(refusal);
  await batch(scope.db, {
    revoked: scope.db.update(staffInvitations).set({ revokedAt: scope.now }).where(eq(staffInvitations.id, id)),
    audit: auditEntry(scope, {
      action: 'staff.invitation_revoke',
      subjectType: 'staff_invitation',
      subjectId: id,
      before: { role: invitation.role, revokedAt: null },
      after: { role: invitation.role, revokedAt: scope.now },
    }),
  });
}

async function invitationByToken(db: Db, token: string): Promise<InvitationRow> {
  const [invitation] = await db
    .select()
    .from(staffInvitations)
    .where(eq(staffInvitations.tokenHash, await tokenHash(token)));
  if (!invitation) throw new DomainError('staff_invitation_not_found');
  return invitation;
}

/** The invitation of a link that can still be accepted; else why not. */
async function openInvitation(db: Db, token: string, now: number): Promise<InvitationRow> {
  const invitation = await invitationByToken(db, token);
  const refusal = invitationRefusal(invitation, now);
  if (refusal) throw new DomainError(refusal);
  return invitation;
}

const phoneOf = (invitation: InvitationRow): Account => ({
  kind: 'phone',
  phone: { callingCode: invitation.phoneCountryCode, number: invitation.phone },
});

export interface InvitationView {
  role: StaffRole;
  /** The invited phone, all but its last digits hidden: the link may have been forwarded. */
  phone: string;
  expiresAt: number;
  /** Whether the caller is signed in as the invited phone's account, and so may accept now. */
  signedInAsInvitee: boolean;
}

/** What the join page shows of an open invitation (a refused one throws why). */
export async function invitationView(db: Db, token: string, userId: number | null, now: number): Promise<InvitationView> {
  const invitation = await openInvitation(db, token, now);
  return {
    role: invitation.role,
    phone: maskedPhone(invitation.phoneCountryCode, invitation.phone),
    expiresAt: invitation.expiresAt,
    signedInAsInvitee: userId !== null && (await isInvitee(db, invitation, userId)),
  };
}

async function isInvitee(db: Db, invitation: InvitationRow, userId: number): Promise<boolean> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.phoneCountryCode, invitation.phoneCountryCode), eq(users.phone, invitation.phone)));
  return !!user;
}

/**
 * Sends the sign-in code to the invited phone. The link stands in for the Turnstile challenge a new
 * phone's first code needs elsewhere: an operator vouched for this number. The send limits still count.
 */
export async function sendInvitationCode(deps: AuthDeps, token: string): Promise<void> {
  const invitation = await openInvitation(deps.db, token, deps.now);
  await accountCode(deps, phoneOf(invitation), 'login', true, '');
}

/** Signs in with the invited phone's code, as the phone sign-in does (its account made if it has none). */
export async function signInByInvitation(deps: AuthDeps, token: string, code: string, captcha: CaptchaAttempt): Promise<SignedIn> {
  const invitation = await openInvitation(deps.db, token, deps.now);
  return loginWithCode(deps, phoneOf(invitation), code, captcha);
}

/** The signed-in invitee accepts: the role is theirs, the invitation used, once. */
export async function acceptInvitation(scope: UserScope, token: string): Promise<{ role: StaffRole }> {
  const invitation = await openInvitation(scope.db, token, scope.now);
  if (!(await isInvitee(scope.db, invitation, scope.userId))) throw new DomainError('staff_invitation_wrong_phone');
  const before = await scope.db.select({ role: staffRoles.role }).from(staffRoles).where(eq(staffRoles.userId, scope.userId));
  const rolesBefore = before.map((row) => row.role);
  const rolesAfter = rolesBefore.includes(invitation.role) ? rolesBefore : [...rolesBefore, invitation.role];
  // The invitee is not staff until this batch lands; the audit row names them as the one who acted.
  const actor: StaffScope = { ...scope, staffRoles: rolesAfter };
  const { used } = await batch(scope.db, {
    used: scope.db
      .update(staffInvitations)
      .set({ acceptedBy: scope.userId, acceptedAt: scope.now })
      .where(and(eq(staffInvitations.id, invitation.id), isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt)))
      .returning({ id: staffInvitations.id }),
    // Granted only if the update above used the invitation: one revoked meanwhile grants nothing.
    granted: scope.db
      .insert(staffRoles)
      .select(
        scope.db
          .select({
            userId: sql<number>`${scope.userId}`.as('user_id'),
            role: sql<StaffRole>`${invitation.role}`.as('role'),
            grantedBy: staffInvitations.invitedBy,
            grantedAt: sql<number>`${scope.now}`.as('granted_at'),
          })
          .from(staffInvitations)
          .where(
            and(
              eq(staffInvitations.id, invitation.id),
              eq(staffInvitations.acceptedBy, scope.userId),
              eq(staffInvitations.acceptedAt, scope.now),
            ),
          ),
      )
      .onConflictDoNothing(),
    audit: auditEntry(actor, {
      action: 'staff.invitation_accept',
      subjectType: 'staff_member',
      subjectId: scope.userId,
      before: { roles: rolesBefore },
      after: { roles: rolesAfter, invitationId: invitation.id },
    }),
  });
  // Revoked or accepted in another tab since it was read: nothing was granted.
  if (used.length === 0) throw new DomainError('staff_invitation_used');
  return { role: invitation.role };
}
