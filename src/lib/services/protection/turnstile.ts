/**
 * Cloudflare Turnstile's server-side check (siteverify), the one adapter of it: the steps a bot
 * farm needs (a login code for a new phone or any email, a waiting-room place) call requireSolvedChallenge
 * with the token the visitor's widget produced. Configured by TURNSTILE_SITE_KEY and
 * TURNSTILE_SECRET_KEY; a local build with no secret skips the check (warned once per isolate), a
 * deployed one without both keys refuses the step (503) rather than let bots through.
 */
import { TURNSTILE_SCRIPT_URL, TURNSTILE_SITEVERIFY_URL, TURNSTILE_VERIFY_TIMEOUT_MS } from '../../config/accounts.ts';
import { DomainError } from '../../domain/errors.ts';
import { judgeSiteverify, type PresentedChallenge, type SiteverifyAnswer } from '../../domain/turnstile.ts';
import type { ServiceEnv } from '../platform/env.ts';

export type TurnstileEnv = Pick<
  ServiceEnv,
  'APP_ENV' | 'TURNSTILE_SITE_KEY' | 'TURNSTILE_SECRET_KEY' | 'TURNSTILE_API_URL' | 'TURNSTILE_SCRIPT_URL'
>;

/** What a page needs to render the widget: the public site key and the script to load it from. */
export interface ChallengeWidget {
  siteKey: string;
  scriptUrl: string;
}

let warnedOff = false;

/**
 * Whether the check is off: a local build without the secret (said once per isolate). A deployed
 * build missing either key refuses the step instead.
 */
function switchedOff(env: TurnstileEnv): boolean {
  if (env.TURNSTILE_SECRET_KEY && env.TURNSTILE_SITE_KEY) return false;
  if (env.APP_ENV !== 'local' || env.TURNSTILE_SECRET_KEY) {
    console.error('TURNSTILE_SECRET_KEY or TURNSTILE_SITE_KEY is not set: new accounts and waiting-room joins are refused.');
    throw new DomainError('server_misconfigured');
  }
  if (!warnedOff) {
    warnedOff = true;
    console.warn('TURNSTILE_SECRET_KEY is not set: a local build asks no Turnstile challenge.');
  }
  return true;
}

/**
 * The widget a page shows on a protected step, or null when no challenge can be asked (no keys).
 * Never throws: the page renders either way, and the step itself answers 503 when misconfigured.
 */
export function challengeWidget(env: TurnstileEnv): ChallengeWidget | null {
  if (!env.TURNSTILE_SECRET_KEY || !env.TURNSTILE_SITE_KEY) return null;
  return { siteKey: env.TURNSTILE_SITE_KEY, scriptUrl: env.TURNSTILE_SCRIPT_URL || TURNSTILE_SCRIPT_URL };
}

/**
 * Passes when Turnstile vouches for the token, for this step's action and our hostname; throws
 * `challenge_required` without a token, `challenge_failed` for a token Turnstile (or our check of
 * it) refuses (a used one included: tokens are single-use), `challenge_unavailable` when siteverify
 * cannot be reached, `server_misconfigured` when it refuses our secret.
 */
export async function requireSolvedChallenge(env: TurnstileEnv, action: string, answer: PresentedChallenge): Promise<void> {
  if (switchedOff(env)) return;
  if (!answer.token) throw new DomainError('challenge_required');
  const body = {
    secret: env.TURNSTILE_SECRET_KEY,
    response: answer.token,
    ...(answer.remoteIp ? { remoteip: answer.remoteIp } : {}),
  };
  let verdict: SiteverifyAnswer;
  try {
    const response = await fetch(env.TURNSTILE_API_URL || TURNSTILE_SITEVERIFY_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TURNSTILE_VERIFY_TIMEOUT_MS),
    });
    verdict = (await response.json()) as SiteverifyAnswer;
  } catch (error) {
    console.error('Turnstile siteverify could not be reached:', error);
    throw new DomainError('challenge_unavailable');
  }
  const judged = judgeSiteverify(verdict, { action, hostname: answer.hostname });
  if (judged === 'passed') return;
  if (judged === 'secret_rejected') {
    console.error('Turnstile siteverify refused TURNSTILE_SECRET_KEY:', verdict['error-codes']);
    throw new DomainError('server_misconfigured');
  }
  throw new DomainError('challenge_failed');
}
