/**
 * The pass a waiting room gives an admitted buyer (domain/waiting-room.ts): its claims (session or
 * tier on-sale, account, expiry) signed under the app secret, so checkout checks it with no call to the room.
 */
import { parsePass, passMessage, passRefusal, type PassClaims } from '../../domain/waiting-room.ts';
import type { ServiceEnv } from '../platform/env.ts';
import { sign, verify } from '../platform/secrets.ts';

const PURPOSE = 'waiting-room-pass';

/** The pass text: `session.account.expiry.signature` (a tier's on-sale: `session-tier.…`). */
export async function issuePass(env: ServiceEnv, claims: PassClaims): Promise<string> {
  const message = passMessage(claims);
  return `${message}.${await sign(env, PURPOSE, message)}`;
}

/**
 * Whether a presented pass lets this account order for this on-sale now: 'valid', or why not.
 * A forged or altered pass is 'invalid' before its claims are read.
 */
export async function judgePass(
  env: ServiceEnv,
  presented: string,
  wanted: { userId: number; sessionId: number; tierId?: number; now: number },
): Promise<'valid' | 'invalid' | NonNullable<ReturnType<typeof passRefusal>>> {
  const parsed = parsePass(presented);
  if (!parsed || !(await verify(env, PURPOSE, passMessage(parsed.claims), parsed.signature))) return 'invalid';
  return passRefusal(parsed.claims, wanted) ?? 'valid';
}
