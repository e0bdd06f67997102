/**
 * The one browser-side API client (SPEC.md sections 7 and 8), typed from the Hono app's routes
 * (`hc<AppType>`): the spec's headers on every call, a 10 s timeout, credentials sent, and one
 * unwrapper that returns the envelope's data or throws an ApiClientError; a 401 clears the session.
 */
import { hc, type ClientResponse } from 'hono/client';
import Cookies from 'js-cookie';
import { HEADER, REQUEST_CONTEXT, REQUEST_TIMEOUT_MS } from '../config/request.ts';
import { clearSession } from './session.ts';
import type { AppType } from '../api/app.ts';

export type ApiFailureKind = 'http' | 'timeout' | 'network';

/** The spec's base for the clients' calls (the same routes also answer under /api). */
const API_BASE = '/api/api';

/**
 * A fresh Idempotency-Key: 128 random bits in hex. getRandomValues, unlike crypto.randomUUID, also
 * works on a page served over plain http (a phone opening `npm start` by the machine's address).
 */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export class ApiClientError extends Error {
  readonly kind: ApiFailureKind;
  readonly status: number;
  readonly errorCode: string | null;
  readonly field: string | null;
  readonly data: unknown;

  constructor(
    kind: ApiFailureKind,
    message: string,
    status = 0,
    errorCode: string | null = null,
    field: string | null = null,
    data: unknown = null,
  ) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.errorCode = errorCode;
    this.field = field;
    this.data = data;
  }
}

/** The spec's path rule, for what is linked rather than called (the captcha image): a path without the /api base is served under /api/api. */
export function apiUrl(
  path: string,
  query: Record<string, string | number | boolean | undefined> = {},
  origin = globalThis.location?.origin ?? 'http://localhost',
): URL {
  const withBase = path.startsWith('/api') ? path : `${API_BASE}/${path.replace(/^\//, '')}`;
  const url = new URL(withBase, origin);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
  return url;
}

/** The message of a failed body: message, then errorMsg, then errorHint, else the body itself. */
export function messageOf(body: unknown): string {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of ['message', 'errorMsg', 'errorHint']) {
      if (typeof record[key] === 'string' && record[key]) return record[key] as string;
    }
  }
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** The spec's headers; a call may name its own language (else the page's) or Idempotency-Key. */
function specHeaders(url: URL, given: HeadersInit | undefined): Headers {
  const headers = new Headers(given);
  const { language, currency, clientType, cityId } = REQUEST_CONTEXT;
  headers.set('accept', 'application/json');
  if (!headers.has(language.header)) {
    headers.set(language.header, globalThis.document?.documentElement.lang || (Cookies.get(language.cookie) ?? 'en'));
  }
  headers.set(currency.header, Cookies.get(currency.cookie) ?? currency.fallback);
  headers.set(clientType.header, String(clientType.fallback));
  const ignoreCity = url.searchParams.get('ignoreCityId') === 'true';
  headers.set(cityId.header, String(ignoreCity ? cityId.ignored : (Cookies.get(cityId.cookie) ?? cityId.fallback)));
  return headers;
}

/** fetch with the spec's headers, credentials and timeout; no answer becomes a timeout or network ApiClientError. */
async function specFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input), globalThis.location?.origin ?? 'http://localhost');
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const caller = init.signal ?? null;
  try {
    return await fetch(url, {
      ...init,
      headers: specHeaders(url, init.headers),
      credentials: 'include',
      signal: caller ? AbortSignal.any([caller, timeout]) : timeout,
    });
  } catch (error) {
    if (timeout.aborted) throw new ApiClientError('timeout', 'timeout');
    if (caller?.aborted) throw error;
    throw new ApiClientError('network', 'network');
  }
}

/** The typed client: `api.v1.addresses[':id'].$put({ param, json })`. Pass its answer to `unwrap`. */
export const api = hc<AppType>(API_BASE, { fetch: specFetch as typeof fetch });

/** The data a typed call answers: `ApiData<typeof api.v1.orders.$post>`. */
export type ApiData<Call extends (...args: never[]) => Promise<ClientResponse<unknown, number, string>>> = DataOf<
  Awaited<ReturnType<Call>>
>;

type ListingAnswer = Awaited<ReturnType<(typeof api.v1.list)[':path{.+}']['$get']>>;

/** A listing page's data by its listing path (`/concerts?...`): hc cannot fill the route's wildcard, so the path goes in here. */
export function listingPage(path: string, query: Record<string, string>): Promise<DataOf<ListingAnswer>> {
  return specFetch(apiUrl(`v1/list${path}`, query)).then((response) => dataOf<DataOf<ListingAnswer>>(response));
}

/** The options of one call: its Idempotency-Key, its own language, an abort signal. */
export function callOptions({ idempotencyKey, language, signal }: { idempotencyKey?: string; language?: string; signal?: AbortSignal }) {
  const headers: Record<string, string> = {};
  if (idempotencyKey) headers[HEADER.idempotencyKey] = idempotencyKey;
  if (language) headers[HEADER.language] = language;
  return { headers, init: signal ? { signal } : undefined };
}

/** The `data` of an answer's envelope, as the route's handler typed it. */
export type DataOf<R> = R extends ClientResponse<infer Body, number, string> ? (Body extends { data: infer Data } ? Data : never) : never;

/** Awaits a call and returns its envelope's data, or throws an ApiClientError (a 401 also clears the session). */
export async function unwrap<R extends ClientResponse<unknown, number, string>>(call: Promise<R>): Promise<DataOf<R>> {
  return dataOf<DataOf<R>>(await call);
}

async function dataOf<Data>(response: Pick<Response, 'ok' | 'status' | 'json'>): Promise<Data> {
  const body: unknown = await response.json().catch(() => null);
  const envelope = body as { code?: number; data?: unknown; errorCode?: string; field?: string } | null;
  const code = typeof envelope?.code === 'number' ? envelope.code : response.status;
  if (response.status === 401 || code === 401) clearSession();
  if (!response.ok || code > 200) {
    throw new ApiClientError('http', messageOf(body), code, envelope?.errorCode ?? null, envelope?.field ?? null, body);
  }
  return envelope?.data as Data;
}

/** What the image upload answers: the stored image's path and its pixel size. */
export interface UploadedImage {
  path: string;
  width: number;
  height: number;
}

/**
 * Uploads a poster or banner (`POST /v1/operator/images`, multipart fields `file` and `kind`); the
 * browser sets the multipart boundary, so no content type is given here.
 */
export async function uploadImage(file: File, kind: 'activity' | 'banner', idempotencyKey?: string): Promise<UploadedImage> {
  const form = new FormData();
  form.set('file', file);
  form.set('kind', kind);
  const { headers } = callOptions({ idempotencyKey });
  return dataOf<UploadedImage>(await specFetch(apiUrl('v1/operator/images'), { method: 'POST', body: form, headers }));
}
