/**
 * Turnstile for API tests: the keys of its local double (tests/doubles/turnstile-api.ts), which a
 * TestClient's env overrides take to act as a configured build, and tokens solved at the double.
 */
import { env } from 'cloudflare:workers';
import { TURNSTILE_DOUBLE_SECRET, TURNSTILE_DOUBLE_SITE_KEY } from '../doubles/turnstile-api.ts';

export const TURNSTILE_KEYS = { TURNSTILE_SITE_KEY: TURNSTILE_DOUBLE_SITE_KEY, TURNSTILE_SECRET_KEY: TURNSTILE_DOUBLE_SECRET };

/** The runtime's fetch as this module found it: tests that spy on fetch still reach the double. */
const realFetch = globalThis.fetch;

/** A token the widget would hand our page on `hostname` (TestClient asks on localhost) for `action`. */
export async function solvedToken(action: string, hostname = 'localhost'): Promise<string> {
  const answer = await realFetch(new URL('/_double/solve', env.TURNSTILE_API_URL), {
    method: 'POST',
    body: JSON.stringify({ hostname, action, sitekey: TURNSTILE_DOUBLE_SITE_KEY }),
  });
  return ((await answer.json()) as { token: string }).token;
}

/** A fetch stand-in for a test's spy that still lets siteverify reach the double. */
export function exceptSiteverify(handler: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>): typeof fetch {
  return (input, init) => (String(input) === env.TURNSTILE_API_URL ? realFetch(input, init) : handler(input, init));
}
