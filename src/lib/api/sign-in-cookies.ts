/**
 * What every sign-in reads and answers, whatever proves who the caller is (a code, a password, a
 * passkey): the captcha the server may ask for, then the session's cookies and the user.
 */
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { CAPTCHA_COOKIE, TOKEN_COOKIE, USER_ID_COOKIE } from '../config/request.ts';
import type { CaptchaAttempt } from '../services/accounts/captcha-gate.ts';
import type { SignedIn } from '../services/accounts/sessions.ts';
import type { ApiEnv } from './context.ts';
import { success } from './errors.ts';

/** Secure cookies everywhere except a local build served over plain http. */
export function secureCookies<E extends ApiEnv>(c: Context<E>): boolean {
  return c.env.APP_ENV !== 'local' || new URL(c.req.url).protocol === 'https:';
}

/** Sets the session's cookies (pner, HttpOnly, and pnid) and answers {user}. */
export function answerSignedIn<E extends ApiEnv>(c: Context<E>, session: SignedIn) {
  const options = {
    path: '/',
    sameSite: 'Lax',
    secure: secureCookies(c),
    maxAge: Math.floor((session.expiresAt - Date.now()) / 1000),
  } as const;
  setCookie(c, TOKEN_COOKIE, session.token, { ...options, httpOnly: true });
  setCookie(c, USER_ID_COOKIE, String(session.user.userId), options);
  return c.json(success({ user: session.user }));
}

/** The graphic captcha's answer with the challenge its HttpOnly cookie names, for a sign-in the server may ask one of. */
export function captchaAttempt<E extends ApiEnv>(c: Context<E>, answer: string | undefined): CaptchaAttempt {
  return { id: getCookie(c, CAPTCHA_COOKIE), answer };
}
