/**
 * Account endpoints of SPEC.md section 7, their bodies designed here (zod, checked with the same
 * rules as the login page, answering with the same messages):
 *
 *   POST v3/user/sendLoginCode   {channel:'phone', countryCode, phone} | {channel:'email', email}   (+ turnstileToken)
 *   POST v1/user/login           phone: {countryCode, phone, loginType:'code', code, agreement:true, inviteCode?}
 *                                     | {countryCode, phone, loginType:'password', password, agreement:true}  (+ captcha)
 *   POST v1/user/mail/login      {email, loginType:'code', code} | {email, loginType:'password', password}    (+ captcha)
 *   POST v1/user/mail/regVerify  {email}                    sends a registration code               (+ turnstileToken)
 *   POST v1/user/mail/register   {email, code, password, agreement:true, inviteCode?}                       (+ captcha)
 *   POST v1/user/mail/forgot     {email}                    sends a password-reset code
 *   POST v1/user/mail/verify     {email, code}              checks the reset code                          (+ captcha)
 *   POST v1/user/mail/password   {email, code, password}    sets the new password                          (+ captcha)
 *   PUT  v1/user/password        {oldPassword?, newPassword}                                               (+ captcha)
 *   GET  v1/user/logout
 *   GET  v1/user/captcha?timestamp=  a PNG; the challenge id rides in an HttpOnly cookie (a local build
 *                                    also sends the answer, header x-dev-captcha-answer, for e2e tests)
 *   GET/PUT v1/user/profile      {nickname}
 *
 * Sign-ins answer {user:{userId, nickname}} and set the cookies pner (token, HttpOnly) and pnid.
 * `inviteCode` (a friend's, from the share link) only counts when the call creates the account.
 * `turnstileToken` (Cloudflare Turnstile's, services/protection/turnstile.ts) is needed when the code is for
 * an account that does not exist yet, and Turnstile is configured.
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { DomainError } from '../../domain/errors.ts';
import { type PresentedChallenge, presentedChallenge } from '../../domain/turnstile.ts';
import { CAPTCHA_TTL_MS, CODE_RESEND_SECONDS } from '../../config/accounts.ts';
import { CAPTCHA_COOKIE, DEV_CAPTCHA_ANSWER_HEADER, HEADER, TOKEN_COOKIE, USER_ID_COOKIE } from '../../config/request.ts';
import {
  callingCodeProblem,
  emailProblem,
  nicknameProblem,
  normalizeEmail,
  normalizePhone,
  passwordProblem,
  phoneProblem,
} from '../../domain/validation.ts';
import type { Account } from '../../services/accounts/codes.ts';
import { changePassword, resetPassword, sendResetCode, verifyResetCode } from '../../services/accounts/passwords.ts';
import { profileOf, updateNickname } from '../../services/accounts/profile.ts';
import { register, sendRegisterCode } from '../../services/accounts/registration.ts';
import { loginWithCode, loginWithPassword, sendLoginCode } from '../../services/accounts/sign-in.ts';
import { endSession } from '../../services/accounts/sessions.ts';
import { createChallenge } from '../../services/protection/captcha.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { inviteCode as inviteCodeText, ruled, turnstileToken, verificationCode } from '../params.ts';
import { authDeps } from '../auth-deps.ts';
import { signedIn } from '../session.ts';
import { answerSignedIn, captchaAttempt, secureCookies } from '../sign-in-cookies.ts';
import { input } from '../validate.ts';

const email = ruled(emailProblem);
const countryCode = ruled(callingCodeProblem);
const phone = ruled(phoneProblem);
const code = verificationCode;
const password = ruled((value) => passwordProblem(value), false);
const newPassword = ruled((value) => passwordProblem(value, true), false);
/** The captcha answer, when the client was asked for one; the server decides whether it is needed. */
const captcha = z.string().max(16).optional();
/** Any value but `true` (a missing one included) is the agreement's own problem, so a client may send false. */
const agreement = z.unknown().refine((value) => value === true, { error: 'agreement_required' });
/** A friend's invite code; its owner is looked up (and an unknown one refused) by the service. */
const inviteCode = inviteCodeText.optional();

const sendLoginCodeBody = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('phone'), countryCode, phone, turnstileToken }),
  z.object({ channel: z.literal('email'), email, turnstileToken }),
]);
const phoneLoginBody = z.discriminatedUnion('loginType', [
  z.object({ loginType: z.literal('code'), countryCode, phone, code, captcha, agreement, inviteCode }),
  z.object({ loginType: z.literal('password'), countryCode, phone, password, captcha, agreement }),
]);
const mailLoginBody = z.discriminatedUnion('loginType', [
  z.object({ loginType: z.literal('code'), email, code, captcha }),
  z.object({ loginType: z.literal('password'), email, password, captcha }),
]);
const emailBody = z.object({ email });
const registerCodeBody = z.object({ email, turnstileToken });
const registerBody = z.object({ email, code, password, agreement, captcha, inviteCode });
const verifyBody = z.object({ email, code, captcha });
const resetBody = z.object({ email, code, password, captcha });
const changePasswordBody = z.object({
  oldPassword: z.string().max(64).optional(),
  newPassword,
  captcha,
});
const profileBody = z.object({ nickname: ruled(nicknameProblem) });
const captchaQuery = z.object({
  timestamp: z
    .string()
    .regex(/^\d{1,16}$/)
    .optional(),
});

/** The challenge a code request presents: its token, the connecting address, and the hostname our pages are on. */
function challengeOf<E extends ApiEnv>(c: Context<E>, token: string | undefined): PresentedChallenge {
  return presentedChallenge(c.env, c.req.url, c.req.header(HEADER.connectingAddress) ?? null, token);
}

const phoneAccount = (input: { countryCode: string; phone: string }): Account => ({
  kind: 'phone',
  phone: normalizePhone(input.countryCode, input.phone),
});
const emailAccount = (input: { email: string }): Account => ({ kind: 'email', email: normalizeEmail(input.email) });
const sent = { resendAfterSeconds: CODE_RESEND_SECONDS };

const doc = describe('Account');

export const authRoutes = new Hono<ApiEnv>()
  .post(
    '/v3/user/sendLoginCode',
    doc.anyone('Sends a sign-in code to a phone or an email'),
    input('json', sendLoginCodeBody),
    async (c) => {
      const body = c.req.valid('json');
      const account = body.channel === 'phone' ? phoneAccount(body) : emailAccount(body);
      await sendLoginCode(await authDeps(c), account, challengeOf(c, body.turnstileToken));
      return c.json(success(sent));
    },
  )
  .post('/v1/user/login', doc.anyone('Signs in by phone, with a code or a password'), input('json', phoneLoginBody), async (c) => {
    const body = c.req.valid('json');
    const account = phoneAccount(body);
    const attempt = captchaAttempt(c, body.captcha);
    const session =
      body.loginType === 'code'
        ? await loginWithCode(await authDeps(c), account, body.code, attempt, body.inviteCode)
        : await loginWithPassword(await authDeps(c), account, body.password, attempt);
    return answerSignedIn(c, session);
  })
  .post('/v1/user/mail/login', doc.anyone('Signs in by email, with a code or a password'), input('json', mailLoginBody), async (c) => {
    const body = c.req.valid('json');
    const account = emailAccount(body);
    const attempt = captchaAttempt(c, body.captcha);
    const session =
      body.loginType === 'code'
        ? await loginWithCode(await authDeps(c), account, body.code, attempt)
        : await loginWithPassword(await authDeps(c), account, body.password, attempt);
    return answerSignedIn(c, session);
  })
  .post('/v1/user/mail/regVerify', doc.anyone('Sends a registration code to an email'), input('json', registerCodeBody), async (c) => {
    const body = c.req.valid('json');
    await sendRegisterCode(await authDeps(c), normalizeEmail(body.email), challengeOf(c, body.turnstileToken));
    return c.json(success(sent));
  })
  .post('/v1/user/mail/register', doc.anyone('Registers an account by email, and signs in'), input('json', registerBody), async (c) => {
    const body = c.req.valid('json');
    return answerSignedIn(
      c,
      await register(
        await authDeps(c),
        normalizeEmail(body.email),
        body.code,
        body.password,
        captchaAttempt(c, body.captcha),
        body.inviteCode,
      ),
    );
  })
  .post('/v1/user/mail/forgot', doc.anyone('Sends a password-reset code to an email'), input('json', emailBody), async (c) => {
    await sendResetCode(await authDeps(c), normalizeEmail(c.req.valid('json').email));
    return c.json(success(sent));
  })
  .post('/v1/user/mail/verify', doc.anyone('Checks a password-reset code'), input('json', verifyBody), async (c) => {
    const body = c.req.valid('json');
    await verifyResetCode(await authDeps(c), normalizeEmail(body.email), body.code, captchaAttempt(c, body.captcha));
    return c.json(success(null));
  })
  .post('/v1/user/mail/password', doc.anyone('Sets a new password with a reset code'), input('json', resetBody), async (c) => {
    const body = c.req.valid('json');
    await resetPassword(await authDeps(c), normalizeEmail(body.email), body.code, body.password, captchaAttempt(c, body.captcha));
    return c.json(success(null));
  })
  .put('/v1/user/password', doc.user('Changes the password'), signedIn, input('json', changePasswordBody), async (c) => {
    const body = c.req.valid('json');
    const token = getCookie(c, TOKEN_COOKIE) ?? '';
    await changePassword(
      await authDeps(c),
      c.var.user,
      token,
      body.oldPassword || undefined,
      body.newPassword,
      captchaAttempt(c, body.captcha),
    );
    return c.json(success(null));
  })
  .get('/v1/user/logout', doc.anyone('Signs out: ends the session and clears its cookies'), async (c) => {
    // A GET (as the spec calls it) must not let another site sign the user out with a link.
    if (c.req.header('sec-fetch-site') === 'cross-site') throw new DomainError('cross_site_request');
    await endSession(c.get('db'), getCookie(c, TOKEN_COOKIE));
    for (const name of [TOKEN_COOKIE, USER_ID_COOKIE]) deleteCookie(c, name, { path: '/' });
    return c.json(success(null));
  })
  .get(
    '/v1/user/captcha',
    doc.anyone('A captcha image (PNG); its challenge id rides in an HttpOnly cookie'),
    input('query', captchaQuery),
    async (c) => {
      const { db, clientKey, now } = await authDeps(c);
      const challenge = await createChallenge(db, clientKey, now);
      setCookie(c, CAPTCHA_COOKIE, challenge.id, {
        path: '/api',
        httpOnly: true,
        sameSite: 'Lax',
        secure: secureCookies(c),
        maxAge: CAPTCHA_TTL_MS / 1000,
      });
      // A local build tells its answer in a header, so end-to-end tests solve it as a person would type it.
      const devAnswer: Record<string, string> =
        LOCAL_BUILD && c.env.APP_ENV === 'local' ? { [DEV_CAPTCHA_ANSWER_HEADER]: challenge.answer } : {};
      return c.body(challenge.png, 200, {
        'content-type': 'image/png',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        ...devAnswer,
      });
    },
  )
  .get('/v1/user/profile', doc.user("The user's profile"), signedIn, async (c) => c.json(success(await profileOf(c.var.scope))))
  .put('/v1/user/profile', doc.user('Changes the nickname'), signedIn, input('json', profileBody), async (c) =>
    c.json(success(await updateNickname(c.var.scope, c.req.valid('json').nickname))),
  );
