/** Registering an email account: its code (an already registered email gets a notice instead), then the account with its password. */
import { DomainError } from '../../domain/errors.ts';
import { inviterByCode } from './invitations.ts';
import type { PresentedChallenge } from '../../domain/turnstile.ts';
import { createSession, type SignedIn } from './sessions.ts';
import { type Account, accountCode, challengeCodeRequest, checkCode, targetOf, type AuthDeps } from './codes.ts';
import { accountKey, type CaptchaAttempt, guarded } from './captcha-gate.ts';
import { createUser, findUser } from './users.ts';

/** Sends a registration code to an email (an already registered one gets a notice instead). */
export async function sendRegisterCode(deps: AuthDeps, email: string, challenge: PresentedChallenge): Promise<void> {
  const account: Account = { kind: 'email', email };
  const taken = !!(await findUser(deps.db, account));
  await challengeCodeRequest(deps, account, taken, challenge);
  await accountCode(deps, account, 'register', !taken, deps.t('auth.mail.alreadyRegisteredBody'));
}

/** Creates an email account with its password, after the registration code, and signs it in; `inviteCode` names who invited it. */
export async function register(
  deps: AuthDeps,
  email: string,
  code: string,
  password: string,
  captcha: CaptchaAttempt,
  inviteCode?: string,
): Promise<SignedIn> {
  const account: Account = { kind: 'email', email };
  // Checked before the code is used up, so a mistyped invite code costs the user nothing.
  const inviter = inviteCode ? await inviterByCode(deps.db, inviteCode) : null;
  return guarded(deps, accountKey(account), captcha, async () => {
    await checkCode(deps, targetOf(account), 'register', code, true);
    const user = await createUser(deps.db, account, password, deps.now, inviter?.id ?? null, deps.locale);
    if (!user) throw new DomainError('registration_failed');
    return createSession(deps.db, user, deps.now);
  });
}
