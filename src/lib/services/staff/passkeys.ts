/**
 * A staff member's own passkeys: adding one (the registration ceremony, checked by
 * @simplewebauthn/server), listing, renaming and removing them, each change in the audit log.
 * A staff member keeps at least one: the phone code is the way back in, not a way to live without one.
 */
import {
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, asc, count, eq } from 'drizzle-orm';
import { WEBAUTHN_PROMPT_TIMEOUT_MS } from '../../config/staff.ts';
import { batch } from '../../data/batch.ts';
import { staffPasskeys, users } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { toBase64Url } from '../../domain/password.ts';
import { passkeyNameProblem } from '../../domain/staff-access.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from './audit.ts';
import { challengeSpender, type RelyingParty, storeChallenge } from './webauthn.ts';

export interface Passkey {
  id: number;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** The user handle a passkey carries: the account's id, so an authenticator keeps one passkey per account and site. */
export function userHandleOf(userId: number): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`user:${userId}`);
}

/** The caller's passkeys, oldest first. */
export async function ownPasskeys(scope: StaffScope): Promise<Passkey[]> {
  return scope.db
    .select({ id: staffPasskeys.id, name: staffPasskeys.name, createdAt: staffPasskeys.createdAt, lastUsedAt: staffPasskeys.lastUsedAt })
    .from(staffPasskeys)
    .where(eq(staffPasskeys.userId, scope.userId))
    .orderBy(asc(staffPasskeys.id));
}

/** What the browser's `navigator.credentials.create` needs: a discoverable credential, verified user, none of the caller's own again. */
export async function registrationOptions(scope: StaffScope, party: RelyingParty): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const [[user], existing] = await Promise.all([
    scope.db.select({ nickname: users.nickname }).from(users).where(eq(users.id, scope.userId)),
    scope.db
      .select({ credentialId: staffPasskeys.credentialId, transports: staffPasskeys.transports })
      .from(staffPasskeys)
      .where(eq(staffPasskeys.userId, scope.userId)),
  ]);
  const options = await generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: user?.nickname ?? String(scope.userId),
    userID: userHandleOf(scope.userId),
    userDisplayName: user?.nickname ?? '',
    timeout: WEBAUTHN_PROMPT_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: JSON.parse(row.transports) as string[] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await storeChallenge(scope.db, options.challenge, 'registration', scope.userId, scope.now);
  return options;
}

function checkedName(name: string): string {
  const problem = passkeyNameProblem(name);
  if (problem) throw new DomainError(problem, {}, 'name');
  return name.trim();
}

/** Checks the browser's answer to the registration options and keeps the new passkey under `name`. */
export async function registerPasskey(
  scope: StaffScope,
  party: RelyingParty,
  response: RegistrationResponseJSON,
  name: string,
): Promise<Passkey> {
  const passkeyName = checkedName(name);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challengeSpender(scope.db, 'registration', scope.userId, scope.now),
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      requireUserVerification: true,
    });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('passkey_rejected');
  }
  if (!verified.verified) throw new DomainError('passkey_rejected');
  const { credential } = verified.registrationInfo;
  const row = {
    credentialId: credential.id,
    userId: scope.userId,
    publicKey: toBase64Url(credential.publicKey),
    signCount: credential.counter,
    transports: JSON.stringify(credential.transports ?? []),
    name: passkeyName,
    createdAt: scope.now,
    lastUsedAt: null,
  };
  const { created } = await batch(scope.db, {
    created: scope.db.insert(staffPasskeys).values(row).onConflictDoNothing().returning({ id: staffPasskeys.id }),
    audit: auditEntry(scope, {
      action: 'passkey.add',
      subjectType: 'passkey',
      subjectId: credential.id,
      before: null,
      after: { userId: scope.userId, name: passkeyName },
    }),
  });
  // The same credential twice: the browser should have refused it (excludeCredentials), so the answer is forged or replayed.
  if (!created[0]) throw new DomainError('passkey_rejected');
  return { id: created[0].id, name: passkeyName, createdAt: scope.now, lastUsedAt: null };
}

async function ownPasskey(scope: StaffScope, id: number) {
  const [row] = await scope.db
    .select({ id: staffPasskeys.id, credentialId: staffPasskeys.credentialId, name: staffPasskeys.name })
    .from(staffPasskeys)
    .where(and(eq(staffPasskeys.id, id), eq(staffPasskeys.userId, scope.userId)));
  if (!row) throw new DomainError('passkey_not_found');
  return row;
}

/** Renames one of the caller's passkeys. */
export async function renamePasskey(scope: StaffScope, id: number, name: string): Promise<void> {
  const passkeyName = checkedName(name);
  const passkey = await ownPasskey(scope, id);
  await batch(scope.db, {
    renamed: scope.db.update(staffPasskeys).set({ name: passkeyName }).where(eq(staffPasskeys.id, id)),
    audit: auditEntry(scope, {
      action: 'passkey.rename',
      subjectType: 'passkey',
      subjectId: passkey.credentialId,
      before: { name: passkey.name },
      after: { name: passkeyName },
    }),
  });
}

/** Removes one of the caller's passkeys, never the last: a lost one is replaced first (sign in with the phone code, add, then remove). */
export async function removePasskey(scope: StaffScope, id: number): Promise<void> {
  const passkey = await ownPasskey(scope, id);
  const [{ total }] = await scope.db.select({ total: count() }).from(staffPasskeys).where(eq(staffPasskeys.userId, scope.userId));
  if (total <= 1) throw new DomainError('passkey_last');
  await batch(scope.db, {
    removed: scope.db.delete(staffPasskeys).where(and(eq(staffPasskeys.id, id), eq(staffPasskeys.userId, scope.userId))),
    audit: auditEntry(scope, {
      action: 'passkey.remove',
      subjectType: 'passkey',
      subjectId: passkey.credentialId,
      before: { userId: scope.userId, name: passkey.name },
      after: null,
    }),
  });
}
