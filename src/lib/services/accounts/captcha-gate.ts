/**
 * The captcha gate in front of every credential check: after repeated wrong guesses for an account
 * or from a client a solved captcha comes first. The counters do not depend on whether the account
 * exists, so the gate tells nobody that either.
 */
import { CAPTCHA_AFTER_FAILURES } from '../../config/accounts.ts';
import { DomainError, type ErrorCode } from '../../domain/errors.ts';
import { solveChallenge } from '../protection/captcha.ts';
import { countIn, hitAll, resetCounter, type Window } from '../protection/rate-limit.ts';
import { type Account, type AuthDeps, targetOf } from './codes.ts';

/** A captcha answer sent with a sign-in, and the challenge (from its cookie) it answers. */
export interface CaptchaAttempt {
  id: string | undefined;
  answer: string | undefined;
}

/** Failures that count toward the captcha: wrong guesses, not expired codes or bad input. */
const GUESS_FAILURES = new Set<ErrorCode>(['credentials_wrong', 'code_wrong', 'code_attempts_exceeded', 'old_password_wrong']);

export function accountKey(account: Account): string {
  return `${account.kind}:${targetOf(account)}`;
}

function failureWindows(deps: AuthDeps, key: string): [Window, Window] {
  const { windowMs } = CAPTCHA_AFTER_FAILURES;
  return [
    { key: `fail:account:${key}`, windowMs },
    { key: `fail:client:${deps.clientKey}`, windowMs },
  ];
}

/** Whether the next sign-in for this account from this client must carry a solved captcha. */
async function captchaNeeded(deps: AuthDeps, key: string): Promise<boolean> {
  const [account, client] = failureWindows(deps, key);
  const [accountFailures, clientFailures] = await Promise.all([countIn(deps.db, account, deps.now), countIn(deps.db, client, deps.now)]);
  return accountFailures >= CAPTCHA_AFTER_FAILURES.perAccount || clientFailures >= CAPTCHA_AFTER_FAILURES.perClient;
}

/**
 * Runs a credential check behind the captcha gate: after repeated failures for the account or the
 * client a solved captcha is required first; wrong guesses are counted, success clears the account.
 */
export async function guarded<T>(deps: AuthDeps, key: string, captcha: CaptchaAttempt, check: () => Promise<T>): Promise<T> {
  if (await captchaNeeded(deps, key)) {
    if (!captcha.answer?.trim()) throw new DomainError('captcha_required', {}, 'captcha');
    if (!(await solveChallenge(deps.db, captcha.id, captcha.answer, deps.clientKey, deps.now))) {
      throw new DomainError('captcha_wrong', {}, 'captcha');
    }
  }
  try {
    const result = await check();
    await resetCounter(deps.db, failureWindows(deps, key)[0].key);
    return result;
  } catch (error) {
    if (error instanceof DomainError && GUESS_FAILURES.has(error.code)) await hitAll(deps.db, failureWindows(deps, key), deps.now);
    throw error;
  }
}
