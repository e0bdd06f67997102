/**
 * What the passkey ceremonies share: the relying party (our site, from configuration, never from
 * the Host header), the one-time challenges a browser's answer must sign, and the limit on sign-in
 * tries. The ceremonies' checks themselves are @simplewebauthn/server's.
 */
import { and, eq, lt } from 'drizzle-orm';
import { PASSKEY_SIGN_IN_LIMITS, WEBAUTHN_CHALLENGE_TTL_MS } from '../../config/staff.ts';
import { batch } from '../../data/batch.ts';
import type { Db } from '../../data/client.ts';
import { webauthnChallenges } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { sha256Hex } from '../../domain/password.ts';
import { hitAll } from '../protection/rate-limit.ts';

/** Our site as WebAuthn knows it: the configured public origin and its host name. */
export interface RelyingParty {
  /** The host name a passkey is bound to ("tickets.example.com", "localhost"). */
  id: string;
  /** The origin the browser's answers must come from ("https://tickets.example.com"). */
  origin: string;
  /** What the browser's prompt calls us. */
  name: string;
}

/** The relying party of the configured public origin (services/platform/public-origin.ts). */
export function relyingPartyOf(origin: string, name: string): RelyingParty {
  return { id: new URL(origin).hostname, origin, name };
}

export type ChallengePurpose = 'sign_in' | 'registration';

const challengeHash = (challenge: string) => sha256Hex(`webauthn:${challenge}`);

/** Keeps a challenge just handed out (its hash only), for one answer within its lifetime; expired ones go. */
export async function storeChallenge(db: Db, challenge: string, purpose: ChallengePurpose, userId: number | null, now: number) {
  await batch(db, {
    expired: db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now)),
    stored: db.insert(webauthnChallenges).values({
      challengeHash: await challengeHash(challenge),
      purpose,
      userId,
      expiresAt: now + WEBAUTHN_CHALLENGE_TTL_MS,
    }),
  });
}

/**
 * The check `expectedChallenge` runs: the challenge the answer signed is one we handed out for this
 * purpose (and user), still alive, and is used up now, in one statement, so a replayed answer finds
 * nothing. A spent or unknown challenge refuses the answer with `passkey_challenge_expired`.
 */
export function challengeSpender(db: Db, purpose: ChallengePurpose, userId: number | null, now: number) {
  return async (challenge: string): Promise<boolean> => {
    const [spent] = await db
      .delete(webauthnChallenges)
      .where(and(eq(webauthnChallenges.challengeHash, await challengeHash(challenge)), eq(webauthnChallenges.purpose, purpose)))
      .returning({ userId: webauthnChallenges.userId, expiresAt: webauthnChallenges.expiresAt });
    if (!spent || spent.expiresAt <= now || spent.userId !== userId) throw new DomainError('passkey_challenge_expired');
    return true;
  };
}

/** Counts one passkey sign-in call of the client; past the limit a 429 says when to try again. */
export async function limitSignInTries(db: Db, clientKey: string, now: number): Promise<void> {
  const rules = [
    { ...PASSKEY_SIGN_IN_LIMITS.perMinute, key: `passkey:client:minute:${clientKey}` },
    { ...PASSKEY_SIGN_IN_LIMITS.perDay, key: `passkey:client:day:${clientKey}` },
  ];
  const hits = await hitAll(db, rules, now);
  const refused = rules.findIndex((rule, index) => hits[index].count > rule.limit);
  if (refused >= 0) {
    throw new DomainError('passkey_too_frequent', { seconds: Math.max(1, Math.ceil((hits[refused].resetsAt - now) / 1000)) });
  }
}
