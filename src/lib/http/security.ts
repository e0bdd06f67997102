/**
 * The headers every answer carries, and the API's one cross-site check. Pure: the middleware of
 * the pages (src/middleware.ts) and of the API (src/lib/api/app.ts) pass in what they know.
 */

/** Two years, with subdomains: what the HSTS preload list asks of a site that is https-only. */
const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * The policy of an API answer: JSON and images are never documents, so nothing may run, load or
 * frame them. (Pages get theirs from Astro's CSP with the hashes of their scripts: astro.config.)
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

export interface HeaderContext {
  /** A deployed build: answers go out over https only, so browsers may be told to stay on it. */
  production: boolean;
  /** Pages with a secret in the URL (the voucher link) send no referrer at all. */
  noReferrer?: boolean;
  /** API answers set their own, strict policy; pages already carry Astro's. */
  apiPolicy?: boolean;
}

/** Headers to set on an answer (never replacing a stricter one the route chose itself). */
export function securityHeaders({ production, noReferrer = false, apiPolicy = false }: HeaderContext): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': noReferrer ? 'no-referrer' : 'strict-origin-when-cross-origin',
    ...(production ? { 'strict-transport-security': HSTS } : {}),
    ...(apiPolicy ? { 'content-security-policy': API_CONTENT_SECURITY_POLICY } : {}),
  };
}

/** Methods that change nothing: a cross-site page may cause them, and they can do no harm. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** What an HTML form can send without script: the only bodies a cross-site page can forge blind. */
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

export interface OriginFacts {
  method: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  contentType: string | undefined;
  /** Our own origins: the configured public origin and the one the request came to. */
  ownOrigins: readonly string[];
}

/**
 * Whether a state-changing API request may come from where it comes from.
 * - A browser says where: an Origin header (every modern browser on a cross-origin write) or
 *   Sec-Fetch-Site. Only our own origin, or the user's own navigation, passes.
 * - A client that says nothing (an app, a script, a webhook) passes unless its request is one a
 *   plain HTML form could have sent (a POST with a form's content type): that is the shape of a
 *   forged cross-site request from a browser too old to say where it comes from.
 */
export function isAllowedOrigin({ method, origin, secFetchSite, contentType, ownOrigins }: OriginFacts): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  if (origin !== undefined) return ownOrigins.includes(origin);
  if (secFetchSite !== undefined) return secFetchSite === 'same-origin' || secFetchSite === 'none';
  // A form always sends one of its three content types; a body-less POST without one is not a form's.
  const type = contentType?.split(';')[0].trim().toLowerCase() ?? '';
  return method.toUpperCase() !== 'POST' || !FORM_TYPES.includes(type);
}
