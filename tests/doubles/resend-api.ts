/**
 * A local double of the part of Resend's API our adapter calls, answering as Resend's API reference
 * describes (https://resend.com/docs/api-reference): POST /emails with `Authorization: Bearer <key>`
 * and a User-Agent (without one Resend's edge answers 403, error 1010), a JSON body of from, to
 * (one address or up to 50), subject and html or text; 200 answers `{id}`. Errors are JSON
 * `{statusCode, name, message}`. An `Idempotency-Key` (1 to 256 characters) seen in the last 24
 * hours answers the first email's id without sending again, or 409 when the body differs.
 * It records every request and every email sent, and can be told to fail the next calls.
 */
import { randomUUID } from 'node:crypto';

export interface ResendRequest {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

export interface ResendEmail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  html?: string;
  text?: string;
  idempotencyKey: string | null;
}

export interface ResendDouble {
  /** The key the double accepts. */
  readonly apiKey: string;
  /** Every request received, answered or not. */
  readonly requests: ResendRequest[];
  /** Every email Resend would have sent. */
  readonly emails: ResendEmail[];
  handle(request: Request): Promise<Response>;
  /** The double as a fetch function, for an adapter's `fetcher`. */
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** The next `count` calls answer `status` with the error Resend documents for it. */
  failNext(count: number, status: 409 | 429 | 500 | 503): void;
}

/** The documented error of each status the double can be told to answer. */
const INJECTED: Record<number, { name: string; message: string }> = {
  409: { name: 'concurrent_idempotent_requests', message: 'Same idempotency key used while original request is still in progress.' },
  429: { name: 'rate_limit_exceeded', message: 'Too many requests. Please limit the number of requests per second.' },
  500: { name: 'application_error', message: 'An unexpected error occurred.' },
  503: { name: 'internal_server_error', message: 'An unexpected error occurred.' },
};

const ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const FROM = /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/;
const MAX_RECIPIENTS = 50;

function error(statusCode: number, name: string, message: string): Response {
  return Response.json({ statusCode, name, message }, { status: statusCode });
}

export function resendDouble(apiKey = 're_test_0123456789'): ResendDouble {
  const requests: ResendRequest[] = [];
  const emails: ResendEmail[] = [];
  const byKey = new Map<string, { body: string; id: string }>();
  const failures: number[] = [];

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const body = await request.text();
    requests.push({ method: request.method, path: url.pathname, headers: request.headers, body });
    const injected = failures.shift();
    if (injected !== undefined) return error(injected, INJECTED[injected].name, INJECTED[injected].message);

    if (!request.headers.get('user-agent')) return new Response('error code: 1010', { status: 403 });
    if (url.pathname !== '/emails') return error(404, 'not_found', 'The requested endpoint does not exist.');
    if (request.method !== 'POST') return error(405, 'method_not_allowed', 'Method is not allowed for the requested path.');
    const authorization = request.headers.get('authorization');
    if (!authorization) return error(401, 'missing_api_key', 'Missing API key in the authorization header.');
    if (authorization !== `Bearer ${apiKey}`) return error(403, 'invalid_api_key', 'API key is invalid.');

    const key = request.headers.get('idempotency-key');
    if (key !== null && (key.length < 1 || key.length > 256)) {
      return error(400, 'invalid_idempotency_key', 'The key must be between 1-256 chars.');
    }
    if (!request.headers.get('content-type')?.startsWith('application/json')) {
      return error(400, 'validation_error', 'Invalid content type: expected application/json.');
    }
    let fields: Record<string, unknown>;
    try {
      fields = JSON.parse(body);
    } catch {
      return error(400, 'validation_error', 'The request body is not valid JSON.');
    }
    const absent = ['from', 'to', 'subject'].filter((name) => fields[name] === undefined);
    if (fields.html === undefined && fields.text === undefined) absent.push('html or text');
    if (absent.length > 0) return error(422, 'missing_required_field', `Missing \`${absent.join('`, `')}\` field.`);
    if (typeof fields.from !== 'string' || !FROM.test(fields.from)) {
      return error(
        422,
        'validation_error',
        'Invalid `from` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.',
      );
    }
    const to = typeof fields.to === 'string' ? [fields.to] : fields.to;
    if (
      !Array.isArray(to) ||
      to.length === 0 ||
      to.length > MAX_RECIPIENTS ||
      !to.every((each) => typeof each === 'string' && ADDRESS.test(each))
    ) {
      return error(
        422,
        'validation_error',
        'Invalid `to` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.',
      );
    }

    if (key !== null) {
      const earlier = byKey.get(key);
      if (earlier && earlier.body !== body)
        return error(409, 'invalid_idempotent_request', 'Same idempotency key used with a different request payload.');
      if (earlier) return Response.json({ id: earlier.id });
    }
    const id = randomUUID();
    if (key !== null) byKey.set(key, { body, id });
    emails.push({
      id,
      from: fields.from,
      to: to as string[],
      subject: String(fields.subject),
      ...(typeof fields.html === 'string' ? { html: fields.html } : {}),
      ...(typeof fields.text === 'string' ? { text: fields.text } : {}),
      idempotencyKey: key,
    });
    return Response.json({ id });
  }

  return {
    apiKey,
    requests,
    emails,
    handle,
    fetch: (url, init) => handle(new Request(url, init)),
    failNext(count, status) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
  };
}
