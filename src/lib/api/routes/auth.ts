/**
 * Account endpoints of SPEC.md section 7, their bodies designed here (zod, checked with the same
 * rules as the login page, answering with the same messages):
 *
 *   POST v3/user/sendLoginCode   {channel:'phone', countryCode, phone} | {channel:'email', email}
 *   POST v1/user/login           phone: {countryCode, phone, loginType:'code', code, agreement:true, inviteCode?}
 *                                     | {countryCode, phone, loginType:'password', password, agreement:true}  (+ captcha)
 *   POST v1/user/mail/login      {email, loginType:'code', code} | {email, loginType:'password', password}    (+ captcha)
 *   POST v1/user/mail/regVerify  {email}                    sends a registration code
 *   POST v1/user/mail/register   {email, code, password, agreement:true, inviteCode?}                       (+ captcha)
 *   POST v1/user/mail/forgot     {email}                    sends a password-reset code
 *   POST v1/user/mail/verify     {email, code}              checks the reset code                          (+ captcha)
 *   POST v1/user/mail/password   {email, code, password}    sets the new password                          (+ captcha)
 *   PUT  v1/user/password        {oldPassword?, newPassword}                                               (+ captcha)
 *   GET  v1/user/logout
 *   GET  v1/user/captcha?timestamp=  a PNG; the challenge id rides in an HttpOnly cookie (a local build
 *                                    also sends the answer, header x-dev-captcha-answer, for e2e tests)
 *   GET/PUT v1/user/profile      {nickname}
 *   GET  v1/dev/outbox?target=   local builds only: the codes "sent" to an email or phone
 *
 * Sign-ins answer {user:{userId, nickname}} and set the cookies pner (token, HttpOnly) and pnid.
 * `inviteCode` (a friend's, from the share link) only counts when the call creates the account.
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { CAPTCHA_COOKIE, CAPTCHA_TTL_MS, CODE_RESEND_SECONDS, DEV_CAPTCHA_ANSWER_HEADER, TOKEN_COOKIE, USER_ID_COOKIE } from '../../config.ts';
import {
  callingCodeProblem, codeProblem, emailProblem, nicknameProblem, normalizeEmail, normalizePhone, passwordProblem, phoneProblem,
  type FieldProblem,
} from '../../domain/validation.ts';
import {
  changePassword, endSession, loginWithCode, loginWithPassword, profileOf, register, requireUser, resetPassword, sendLoginCode,
  sendRegisterCode, sendResetCode, updateNickname, verifyResetCode, type Account, type AuthDeps, type CaptchaAttempt, type SignedIn,
} from '../../services/auth.ts';
import { createChallenge } from '../../services/captcha.ts';
import { messengerFor, outboxFor } from '../../services/messaging.ts';
import type { ApiEnv } from '../context.ts';
import type { ErrorCode } from '../../domain/errors.ts';
import { ApiError, success } from '../errors.ts';
import { cleanInput } from '../validate.ts';

type Rule = (value: string) => FieldProblem | null;

/**
 * A text field checked by one of the page's rules: a missing field is an empty one (so it gets the
 * rule's "cannot be empty" message), anything but a string is invalid input. Passwords keep their
 * spaces; everything else is trimmed.
 */
function ruled(rule: Rule, trim = true) {
  return z.unknown().transform((value, ctx) => {
    if (value !== undefined && value !== null && typeof value !== 'string') {
      ctx.addIssue({ code: 'custom', message: 'invalid_input' });
      return z.NEVER;
    }
    const text = value ?? '';
    const problem = rule(text);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return trim ? text.trim() : text;
  });
}

const email = ruled(emailProblem);
const countryCode = ruled(callingCodeProblem);
const phone = ruled(phoneProblem);
const code = ruled(codeProblem);
const password = ruled((value) => passwordProblem(value), false);
const newPassword = ruled((value) => passwordProblem(value, true), false);
/** The captcha answer, when the client was asked for one; the server decides whether it is needed. */
const captcha = z.string().max(16).optional();
const agreement = z.literal(true, { error: () => 'agreement_required' });
/** A friend's invite code; its owner is looked up (and an unknown one refused) by the service. */
const inviteCode = z.string().max(32).optional();

const sendLoginCodeBody = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('phone'), countryCode, phone }),
  z.object({ channel: z.literal('email'), email }),
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
const registerBody = z.object({ email, code, password, agreement, captcha, inviteCode });
const verifyBody = z.object({ email, code, captcha });
const resetBody = z.object({ email, code, password, captcha });
const changePasswordBody = z.object({
  oldPassword: z.string().max(64).optional(),
  newPassword,
  captcha,
});
const profileBody = z.object({ nickname: ruled(nicknameProblem) });
const captchaQuery = z.object({ timestamp: z.string().regex(/^\d{1,16}$/).optional() });
const outboxQuery = z.object({ target: z.string().min(1).max(260) });

const FIELD_PROBLEMS = new Set<string>([
  'phone_required', 'phone_invalid', 'country_code_invalid', 'email_required', 'email_invalid', 'password_required',
  'new_password_required', 'password_invalid', 'code_required', 'code_invalid', 'nickname_required', 'nickname_invalid',
  'agreement_required',
] satisfies FieldProblem[]);

/** Parses input with a schema; the first problem becomes the envelope's error, naming its field. */
function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(cleanInput(value));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') || undefined;
  if (issue && FIELD_PROBLEMS.has(issue.message)) throw new ApiError(400, issue.message as ErrorCode, {}, field);
  throw new ApiError(400, 'invalid_input', { field: field ?? '' }, field);
}

async function body(c: Context<ApiEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch (error) {
    // Not JSON: bad input. Anything else (the body limit, say) keeps its own answer.
    if (error instanceof SyntaxError) throw new ApiError(400, 'invalid_input', { field: 'body' }, 'body');
    throw error;
  }
}

function deps(c: Context<ApiEnv>): AuthDeps {
  const db = c.get('db');
  return {
    db,
    messenger: messengerFor(c.env, db),
    t: c.get('t'),
    // Cloudflare sets the client address on every request that reaches a Worker.
    clientKey: c.req.header('cf-connecting-ip') ?? 'unknown',
    now: Date.now(),
  };
}

function captchaOf(c: Context<ApiEnv>, answer: string | undefined): CaptchaAttempt {
  return { id: getCookie(c, CAPTCHA_COOKIE), answer };
}

/** Secure cookies everywhere except a local build served over plain http. */
function secure(c: Context<ApiEnv>): boolean {
  return c.env.APP_ENV !== 'local' || new URL(c.req.url).protocol === 'https:';
}

function signIn(c: Context<ApiEnv>, session: SignedIn) {
  const options = { path: '/', sameSite: 'Lax', secure: secure(c), maxAge: Math.floor((session.expiresAt - Date.now()) / 1000) } as const;
  setCookie(c, TOKEN_COOKIE, session.token, { ...options, httpOnly: true });
  setCookie(c, USER_ID_COOKIE, String(session.user.userId), options);
  return c.json(success({ user: session.user }));
}

const phoneAccount = (input: { countryCode: string; phone: string }): Account => ({ kind: 'phone', phone: normalizePhone(input.countryCode, input.phone) });
const emailAccount = (input: { email: string }): Account => ({ kind: 'email', email: normalizeEmail(input.email) });
const sent = { resendAfterSeconds: CODE_RESEND_SECONDS };

export const authRoutes = new Hono<ApiEnv>()
  .post('/v3/user/sendLoginCode', async (c) => {
    const input = parse(sendLoginCodeBody, await body(c));
    await sendLoginCode(deps(c), input.channel === 'phone' ? phoneAccount(input) : emailAccount(input));
    return c.json(success(sent));
  })
  .post('/v1/user/login', async (c) => {
    const input = parse(phoneLoginBody, await body(c));
    const account = phoneAccount(input);
    const attempt = captchaOf(c, input.captcha);
    const session = input.loginType === 'code'
      ? await loginWithCode(deps(c), account, input.code, attempt, input.inviteCode)
      : await loginWithPassword(deps(c), account, input.password, attempt);
    return signIn(c, session);
  })
  .post('/v1/user/mail/login', async (c) => {
    const input = parse(mailLoginBody, await body(c));
    const account = emailAccount(input);
    const attempt = captchaOf(c, input.captcha);
    const session = input.loginType === 'code'
      ? await loginWithCode(deps(c), account, input.code, attempt)
      : await loginWithPassword(deps(c), account, input.password, attempt);
    return signIn(c, session);
  })
  .post('/v1/user/mail/regVerify', async (c) => {
    const input = parse(emailBody, await body(c));
    await sendRegisterCode(deps(c), normalizeEmail(input.email));
    return c.json(success(sent));
  })
  .post('/v1/user/mail/register', async (c) => {
    const input = parse(registerBody, await body(c));
    return signIn(c, await register(deps(c), normalizeEmail(input.email), input.code, input.password, captchaOf(c, input.captcha), input.inviteCode));
  })
  .post('/v1/user/mail/forgot', async (c) => {
    const input = parse(emailBody, await body(c));
    await sendResetCode(deps(c), normalizeEmail(input.email));
    return c.json(success(sent));
  })
  .post('/v1/user/mail/verify', async (c) => {
    const input = parse(verifyBody, await body(c));
    await verifyResetCode(deps(c), normalizeEmail(input.email), input.code, captchaOf(c, input.captcha));
    return c.json(success(null));
  })
  .post('/v1/user/mail/password', async (c) => {
    const input = parse(resetBody, await body(c));
    await resetPassword(deps(c), normalizeEmail(input.email), input.code, input.password, captchaOf(c, input.captcha));
    return c.json(success(null));
  })
  .put('/v1/user/password', async (c) => {
    const user = await requireUser(c);
    const input = parse(changePasswordBody, await body(c));
    const token = getCookie(c, TOKEN_COOKIE) ?? '';
    await changePassword(deps(c), user, token, input.oldPassword || undefined, input.newPassword, captchaOf(c, input.captcha));
    return c.json(success(null));
  })
  .get('/v1/user/logout', async (c) => {
    // A GET (as the spec calls it) must not let another site sign the user out with a link.
    if (c.req.header('sec-fetch-site') === 'cross-site') throw new ApiError(403, 'cross_site_request');
    await endSession(c.get('db'), getCookie(c, TOKEN_COOKIE));
    for (const name of [TOKEN_COOKIE, USER_ID_COOKIE]) deleteCookie(c, name, { path: '/' });
    return c.json(success(null));
  })
  .get('/v1/user/captcha', async (c) => {
    parse(captchaQuery, c.req.query());
    const { db, clientKey, now } = deps(c);
    const challenge = await createChallenge(db, clientKey, now);
    setCookie(c, CAPTCHA_COOKIE, challenge.id, { path: '/api', httpOnly: true, sameSite: 'Lax', secure: secure(c), maxAge: CAPTCHA_TTL_MS / 1000 });
    // A local build tells its answer in a header, so end-to-end tests solve it as a person would type it.
    const devAnswer: Record<string, string> = c.env.APP_ENV === 'local' ? { [DEV_CAPTCHA_ANSWER_HEADER]: challenge.answer } : {};
    return c.body(challenge.png, 200, { 'content-type': 'image/png', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...devAnswer });
  })
  .get('/v1/user/profile', async (c) => {
    const user = await requireUser(c);
    return c.json(success(await profileOf(c.get('db'), user.userId)));
  })
  .put('/v1/user/profile', async (c) => {
    const user = await requireUser(c);
    const input = parse(profileBody, await body(c));
    return c.json(success(await updateNickname(c.get('db'), user.userId, input.nickname)));
  })
  .get('/v1/dev/outbox', async (c) => {
    const { target } = parse(outboxQuery, c.req.query());
    const normalized = target.includes('@') ? normalizeEmail(target) : target.trim();
    return c.json(success(await outboxFor(c.get('db'), normalized)));
  });
