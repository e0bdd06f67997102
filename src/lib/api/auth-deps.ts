/** What the account services need from a request (services/accounts/codes.ts AuthDeps): its database, delivery, language, client and clock. */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { HEADER, TOKEN_COOKIE } from '../config/request.ts';
import { rateLimitClientKey } from '../domain/client-key.ts';
import { sha256Hex } from '../domain/password.ts';
import type { AuthDeps } from '../services/accounts/codes.ts';
import type { ApiEnv } from './context.ts';
import { ensureDeviceId } from './visitor.ts';

export async function authDeps<E extends ApiEnv>(c: Context<E>): Promise<AuthDeps> {
  const token = getCookie(c, TOKEN_COOKIE);
  return {
    db: c.get('db'),
    messaging: c.env,
    t: c.get('t'),
    locale: c.get('ctx').locale,
    clientKey: rateLimitClientKey({
      address: c.req.header(HEADER.connectingAddress) ?? null,
      sessionTokenHash: token ? await sha256Hex(token) : null,
      deviceId: () => ensureDeviceId(c).id,
    }),
    now: Date.now(),
    turnstile: c.env,
  };
}
