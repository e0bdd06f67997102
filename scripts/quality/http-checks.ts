/** The requests of the production check (production-check.ts, empty-catalogue.ts): each one, the answer it must get, and its result. */

/**
 * A request and the status it must answer, headers it must carry (regexes; `set-cookie` joins all cookies),
 * and what its body must and must not hold.
 */
export interface Check {
  name: string;
  method: string;
  path: string;
  body?: string;
  type?: string;
  requestHeaders?: Record<string, string>;
  status: number;
  headers?: Record<string, RegExp>;
  bodyHas?: RegExp;
  bodyLacks?: RegExp;
}

/** A check's result as the report lists it. */
export interface Result {
  name: string;
  answered: string | number;
  passed: boolean;
  [detail: string]: unknown;
}

/** Makes the check's request of the server at `baseUrl`, prints a line PASS or FAIL, and returns the result. */
export async function runCheck(baseUrl: string, check: Check): Promise<Result> {
  const response = await fetch(`${baseUrl}${check.path}`, {
    method: check.method,
    body: check.body,
    // Same-origin, as a browser's form post is: Astro refuses cross-site form posts before any page runs.
    headers: { ...(check.type ? { 'content-type': check.type } : {}), ...check.requestHeaders, origin: baseUrl },
    redirect: 'manual',
  });
  const body = await response.text();
  const headerOf = (name: string) => (name === 'set-cookie' ? response.headers.getSetCookie().join('\n') : response.headers.get(name));
  const missing = Object.entries(check.headers ?? {})
    .filter(([name, pattern]) => !pattern.test(headerOf(name) ?? ''))
    .map(([name]) => name);
  if (check.bodyHas && !check.bodyHas.test(body)) missing.push(`a body matching ${check.bodyHas}`);
  if (check.bodyLacks?.test(body)) missing.push(`a body without ${check.bodyLacks}`);
  const passed = response.status === check.status && missing.length === 0;
  const lacking = missing.length > 0 ? `; lacks ${missing.join(', ')}` : '';
  console.log(
    `${passed ? 'PASS' : 'FAIL'}  ${check.name.padEnd(28)} ${check.method} ${check.path} → ${response.status} (must be ${check.status})${lacking}`,
  );
  return {
    ...check,
    headers: undefined,
    requestHeaders: undefined,
    bodyHas: undefined,
    bodyLacks: undefined,
    answered: response.status,
    missingHeaders: missing,
    passed,
  };
}
