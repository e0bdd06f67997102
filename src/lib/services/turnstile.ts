/**
 * Cloudflare Turnstile's server-side check (siteverify), the one adapter of it: the steps a bot
 * farm needs (a new account's first login code, a waiting-room place) call requireSolvedChallenge
 * with the token the visitor's widget produced. Configured by TURNSTILE_SITE_KEY and
 * TURNSTILE_SECRET_KEY; a local build with no secret skips the check (warned once per isolate), a
 * deployed one refuses the step (503) rather than let bots through.
 */
import { TURNSTILE_SCRIPT_URL, TURNSTILE_SITEVERIFY_URL, TURNSTILE_VERIFY_TIMEOUT_MS } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import { judgeSiteverify, type PresentedChallenge, type SiteverifyAnswer } from '../domain/turnstile.ts';
import type { ServiceEnv } from './env.ts';

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

/** Whether a local build runs without Turnstile (no secret): the check passes, said once per isolate. */
function switchedOff(env: TurnstileEnv): boolean {
  if (env.TURNSTILE_SECRET_KEY) return false;
  if (env.APP_ENV !== 'local') {
    console.error('TURNSTILE_SECRET_KEY is not set: a deployed build refuses new accounts and waiting-room joins.');
    throw new DomainError('server_misconfigured');
  }
  if (!warnedOff) {
    warnedOff = true;
    console.warn('TURNSTILE_SECRET_KEY is not set: a local build asks no Turnstile challenge.');
  }
  return true;
}

/**
 * The widget a page shows on a protected step, or null when no challenge is asked (a local build
 * without keys). A deployed build without a site key cannot ask one: 503, as without the secret.
 */
export function challengeWidget(env: TurnstileEnv): ChallengeWidget | null {
  if (switchedOff(env)) return null;
  if (!env.TURNSTILE_SITE_KEY) {
    console.error('TURNSTILE_SITE_KEY is not set: no page can show the Turnstile challenge.');
    throw new DomainError('server_misconfigured');
  }
  return { siteKey: env.TURNSTILE_SITE_KEY, scriptUrl: env.TURNSTILE_SCRIPT_URL || TURNSTILE_SCRIPT_URL };
}

/** The origin the CSP must allow scripts and frames from, when challenges are on; null otherwise (never throws). */
export function challengeScriptOrigin(env: TurnstileEnv): string | null {
  if (!env.TURNSTILE_SECRET_KEY || !env.TURNSTILE_SITE_KEY) return null;
  return new URL(env.TURNSTILE_SCRIPT_URL || TURNSTILE_SCRIPT_URL).origin;
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
