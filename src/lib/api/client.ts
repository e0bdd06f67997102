/**
 * The one browser-side API client (SPEC.md sections 7 and 8): the spec's headers on every call,
 * a 10 s timeout, credentials sent, the envelope unwrapped, errors normalised, 401 logs out.
 */
import Cookies from 'js-cookie';
import {
  CITY_COOKIE, CLIENT_TYPE, CURRENCY_COOKIE, DEFAULT_CITY_ID, DEFAULT_CURRENCY, HEADER, IGNORED_CITY_ID,
  LANGUAGE_COOKIE, REQUEST_TIMEOUT_MS,
} from '../config.ts';
import { clearSession } from '../stores/session.ts';

export type ApiFailureKind = 'http' | 'timeout' | 'network';

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

  constructor(kind: ApiFailureKind, message: string, status = 0, errorCode: string | null = null, field: string | null = null, data: unknown = null) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.errorCode = errorCode;
    this.field = field;
    this.data = data;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  idempotencyKey?: string;
  /** The page language; defaults to the <html lang> of the page. */
  language?: string;
  signal?: AbortSignal;
}

/** The spec's path rule: a path without the /api base is served under /api/api. */
export function apiUrl(path: string, query: RequestOptions['query'] = {}, origin = globalThis.location?.origin ?? 'http://localhost'): URL {
  const withBase = path.startsWith('/api') ? path : `/api/api/${path.replace(/^\//, '')}`;
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

function headersFor(url: URL, options: RequestOptions): Headers {
  const headers = new Headers({ accept: 'application/json' });
  const pageLanguage = globalThis.document?.documentElement.lang;
  headers.set(HEADER.language, options.language ?? pageLanguage ?? Cookies.get(LANGUAGE_COOKIE) ?? 'en');
  headers.set(HEADER.currency, Cookies.get(CURRENCY_COOKIE) ?? DEFAULT_CURRENCY);
  headers.set(HEADER.clientType, String(CLIENT_TYPE));
  const ignoreCity = url.searchParams.get('ignoreCityId') === 'true';
  headers.set(HEADER.cityId, String(ignoreCity ? IGNORED_CITY_ID : (Cookies.get(CITY_COOKIE) ?? DEFAULT_CITY_ID)));
  if (options.body !== undefined) headers.set('content-type', 'application/json');
  if (options.idempotencyKey) headers.set(HEADER.idempotencyKey, options.idempotencyKey);
  return headers;
}

/** Calls the API and returns the envelope's data, or throws an ApiClientError. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const url = apiUrl(path, options.query);
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: headersFor(url, options),
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'include',
      signal,
    });
  } catch (error) {
    if (timeout.aborted) throw new ApiClientError('timeout', 'timeout');
    if (options.signal?.aborted) throw error;
    throw new ApiClientError('network', 'network');
  }
  const body: unknown = await response.json().catch(() => null);
  const envelope = body as { code?: number; data?: T; errorCode?: string; field?: string } | null;
  const code = typeof envelope?.code === 'number' ? envelope.code : response.status;
  if (response.status === 401 || code === 401) clearSession();
  if (!response.ok || code > 200) {
    throw new ApiClientError('http', messageOf(body), code, envelope?.errorCode ?? null, envelope?.field ?? null, body);
  }
  return envelope?.data as T;
}
