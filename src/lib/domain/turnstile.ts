/**
 * Cloudflare Turnstile's siteverify answer judged against what the step expected (pure; the call is
 * src/lib/services/protection/turnstile.ts). A token is only as good as where and for what it was solved: one
 * solved on another site, or for another step, proves nothing about this request.
 */
import { type OriginConfig, publicOrigin } from './public-origin.ts';

/** Siteverify's answer, as Cloudflare documents it (only the fields we judge). */
export interface SiteverifyAnswer {
  success: boolean;
  'error-codes'?: string[];
  challenge_ts?: string;
  hostname?: string;
  action?: string;
  cdata?: string;
}

/** What a protected step expects of its token: the widget's action, and the hostname our pages are served on. */
export interface ExpectedChallenge {
  action: string;
  hostname: string;
}

/** What siteverify's answer means for the request: passed, failed (the visitor's to retry) or our own configuration at fault. */
export type ChallengeVerdict = 'passed' | 'failed' | 'secret_rejected';

/** Error codes that say our secret, not the visitor's token, is wrong: no visitor can fix them by trying again. */
const SECRET_ERRORS = new Set(['missing-input-secret', 'invalid-input-secret']);

/** The verdict on one siteverify answer for the step that expected `expected`. */
export function judgeSiteverify(answer: SiteverifyAnswer, expected: ExpectedChallenge): ChallengeVerdict {
  if ((answer['error-codes'] ?? []).some((code) => SECRET_ERRORS.has(code))) return 'secret_rejected';
  if (answer.success !== true) return 'failed';
  if (answer.action !== expected.action) return 'failed';
  if (answer.hostname?.toLowerCase() !== expected.hostname.toLowerCase()) return 'failed';
  return 'passed';
}

/** The token the visitor's widget produced, who presented it (Turnstile checks the address too), and the hostname our pages are on. */
export interface PresentedChallenge {
  token: string | undefined;
  remoteIp: string | null;
  hostname: string;
}

/** A request's challenge: the token its widget produced, expected solved on the public origin's hostname (locally, the one asked on). */
export function presentedChallenge(
  config: OriginConfig,
  requestUrl: string | URL,
  remoteIp: string | null,
  token: string | undefined,
): PresentedChallenge {
  return { token, remoteIp, hostname: new URL(publicOrigin(config, requestUrl) ?? requestUrl).hostname };
}

/** The widget's language for a page's: Turnstile speaks zh-TW and zh-CN, so Hong Kong's page gets the Traditional one. */
export function widgetLanguage(locale: string): string {
  return locale === 'zh-HK' ? 'zh-tw' : locale.toLowerCase();
}
