/**
 * Signing in with a passkey, usernameless: the browser offers the staff member's discoverable
 * passkeys for our site, the answer names the credential, and a good signature starts the same
 * session as any other sign-in (accounts/sessions.ts). Only staff hold passkeys here, and a passkey
 * of an account that is no longer staff opens nothing.
 */
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import { WEBAUTHN_PROMPT_TIMEOUT_MS } from '../../config/staff.ts';
import type { Db } from '../../data/client.ts';
import { staffPasskeys, users } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { fromBase64Url } from '../../domain/password.ts';
import { createSession, type SignedIn } from '../accounts/sessions.ts';
import { staffRolesOf } from './roles.ts';
import { challengeSpender, limitSignInTries, type RelyingParty, storeChallenge } from './webauthn.ts';

export interface PasskeySignInDeps {
  db: Db;
  /** Who the client is (domain/client-key.ts): the tries are limited per client. */
  clientKey: string;
  now: number;
}

/** What the browser's `navigator.credentials.get` needs: no credential named, so it offers the ones it holds for us. */
export async function signInOptions(deps: PasskeySignInDeps, party: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
  await limitSignInTries(deps.db, deps.clientKey, deps.now);
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    userVerification: 'required',
    timeout: WEBAUTHN_PROMPT_TIMEOUT_MS,
  });
  await storeChallenge(deps.db, options.challenge, 'sign_in', null, deps.now);
  return options;
}

/** Checks the browser's answer and signs its staff member in; a wrong, unknown or replayed answer is refused. */
export async function signInWithPasskey(
  deps: PasskeySignInDeps,
  party: RelyingParty,
  response: AuthenticationResponseJSON,
): Promise<SignedIn> {
  const { db, now } = deps;
  await limitSignInTries(db, deps.clientKey, now);
  const [passkey] = await db
    .select({
      id: staffPasskeys.id,
      credentialId: staffPasskeys.credentialId,
      publicKey: staffPasskeys.publicKey,
      signCount: staffPasskeys.signCount,
      transports: staffPasskeys.transports,
      userId: users.id,
      nickname: users.nickname,
    })
    .from(staffPasskeys)
    .innerJoin(users, eq(users.id, staffPasskeys.userId))
    .where(eq(staffPasskeys.credentialId, response.id));
  // An unknown credential still spends its challenge: each try costs a fresh one.
  const spend = challengeSpender(db, 'sign_in', null, now);
  if (!passkey) {
    await spend(challengeOf(response));
    throw new DomainError('passkey_rejected');
  }
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: spend,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      credential: {
        id: passkey.credentialId,
        publicKey: fromBase64Url(passkey.publicKey),
        counter: passkey.signCount,
        transports: JSON.parse(passkey.transports) as string[],
      },
      requireUserVerification: true,
    });
    if (!verified.verified) throw new DomainError('passkey_rejected');
    newCounter = verified.authenticationInfo.newCounter;
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('passkey_rejected');
  }
  if ((await staffRolesOf(db, passkey.userId)).length === 0) throw new DomainError('passkey_rejected');
  await db.update(staffPasskeys).set({ signCount: newCounter, lastUsedAt: now }).where(eq(staffPasskeys.id, passkey.id));
  return createSession(db, { id: passkey.userId, nickname: passkey.nickname }, now);
}

/** The challenge an answer says it signed (its client data's), or '' when the answer carries none readable. */
function challengeOf(response: AuthenticationResponseJSON): string {
  try {
    const clientData = JSON.parse(new TextDecoder().decode(fromBase64Url(response.response.clientDataJSON))) as { challenge?: unknown };
    return typeof clientData.challenge === 'string' ? clientData.challenge : '';
  } catch {
    return '';
  }
}
