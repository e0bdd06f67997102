/**
 * The visitor's browser: its device id and the preference cookies that server-rendered pages read
 * (who is signed in is session.ts's).
 */
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { DEVICE_ID_COOKIE, PREFERENCE_COOKIE_MAX_AGE_S } from '../config/request.ts';
import type { ApiEnv } from './context.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Sets a cookie the pages and scripts read (language, currency, city): not HttpOnly, since the API
 * client sends the city as a header; Secure except in local builds served over plain http.
 */
export function setPreferenceCookie<E extends ApiEnv>(
  c: Context<E>,
  name: string,
  value: string,
  options: { httpOnly?: boolean } = {},
): void {
  setCookie(c, name, value, {
    path: '/',
    maxAge: PREFERENCE_COOKIE_MAX_AGE_S,
    sameSite: 'Lax',
    secure: c.env.APP_ENV !== 'local',
    httpOnly: options.httpOnly ?? false,
  });
}

/** The browser's device id (GET /v1/setDvid), or null when it has none or a malformed one. */
export function deviceId<E extends ApiEnv>(c: Context<E>): string | null {
  const value = getCookie(c, DEVICE_ID_COOKIE);
  return value && UUID.test(value) ? value : null;
}

/** The device id, created (as an HttpOnly cookie: only the server reads it) when missing. */
export function ensureDeviceId<E extends ApiEnv>(c: Context<E>): { id: string; created: boolean } {
  const known = deviceId(c);
  if (known) return { id: known, created: false };
  const id = crypto.randomUUID();
  setPreferenceCookie(c, DEVICE_ID_COOKIE, id, { httpOnly: true });
  return { id, created: true };
}
