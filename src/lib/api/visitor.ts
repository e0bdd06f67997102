/**
 * Who is calling and what they prefer: the signed-in user when there is one (a visitor may be
 * anonymous), the device id, and the preference cookies that server-rendered pages read.
 */
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { DEVICE_ID_COOKIE, PREFERENCE_COOKIE_MAX_AGE_S, TOKEN_COOKIE } from '../config.ts';
import { sessionUser } from '../services/auth.ts';
import type { ApiEnv } from './context.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The signed-in user's id, or null for a visitor (no error: these calls work signed out too). */
export async function signedInUserId(c: Context<ApiEnv>): Promise<number | null> {
  const user = await sessionUser(c.get('db'), getCookie(c, TOKEN_COOKIE), Date.now());
  return user?.userId ?? null;
}

/**
 * Sets a cookie the pages and scripts read (language, currency, city): not HttpOnly, since the API
 * client sends the city as a header; Secure except in local builds served over plain http.
 */
export function setPreferenceCookie(c: Context<ApiEnv>, name: string, value: string, options: { httpOnly?: boolean } = {}): void {
  setCookie(c, name, value, {
    path: '/',
    maxAge: PREFERENCE_COOKIE_MAX_AGE_S,
    sameSite: 'Lax',
    secure: c.env.APP_ENV !== 'local',
    httpOnly: options.httpOnly ?? false,
  });
}

/** The browser's device id (GET /v1/setDvid), or null when it has none or a malformed one. */
export function deviceId(c: Context<ApiEnv>): string | null {
  const value = getCookie(c, DEVICE_ID_COOKIE);
  return value && UUID.test(value) ? value : null;
}

/** The device id, created (as an HttpOnly cookie: only the server reads it) when missing. */
export function ensureDeviceId(c: Context<ApiEnv>): { id: string; created: boolean } {
  const known = deviceId(c);
  if (known) return { id: known, created: false };
  const id = crypto.randomUUID();
  setPreferenceCookie(c, DEVICE_ID_COOKIE, id, { httpOnly: true });
  return { id, created: true };
}
