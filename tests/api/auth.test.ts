import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CAPTCHA_AFTER_FAILURES,
  CODE_MAX_ATTEMPTS,
  CODE_SEND_LIMITS,
  PASSWORD_LOCKOUT,
  TURNSTILE_ACTION,
} from '../../src/lib/config/accounts.ts';
import { DEV_CAPTCHA_ANSWER_HEADER } from '../../src/lib/config/request.ts';
import { database } from '../../src/lib/data/client.ts';
import { solveChallenge, storeChallenge } from '../../src/lib/services/protection/captcha.ts';
import { resendDouble } from '../doubles/resend-api.ts';
import { twilioDouble } from '../doubles/twilio-api.ts';
import { allowAnotherCode, latestCode, signUp, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { exceptSiteverify, solvedToken, TURNSTILE_KEYS } from './turnstile-client.ts';

const db = () => database(env.DB);
let nextAccount = 1;
const freshEmail = () => `buyer${nextAccount++}@example.com`;
const freshPhone = () => String(91000000 + nextAccount++);

beforeAll(async () => {
  // Countries (the calling codes) come with the catalogue.
  await seed();
});

async function outbox(target: string) {
  const { body } = await new TestClient().call<{ subject: string; body: string; channel: string }[]>(
    `/api/v1/dev/outbox?target=${encodeURIComponent(target)}`,
  );
  return body.data;
}

async function phoneLogin(client: TestClient, phone: string) {
  await client.post('/api/v3/user/sendLoginCode', { channel: 'phone', countryCode: '+852', phone });
  const code = await latestCode(`+852 ${phone}`);
  return client.post<{ user: { userId: number; nickname: string } }>('/api/v1/user/login', {
    countryCode: '+852',
    phone,
    loginType: 'code',
    code,
    agreement: true,
  });
}

describe('phone login by code', () => {
  it('sends a code by SMS and creates the account on first login, then signs the same account in', async () => {
    const phone = freshPhone();
    const client = new TestClient();
    const sent = await client.post('/api/api/v3/user/sendLoginCode', { channel: 'phone', countryCode: '+852', phone });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ resendAfterSeconds: 60 });
    const [sms] = await outbox(`+852 ${phone}`);
    expect(sms.channel).toBe('sms');

    const first = await client.post<{ user: { userId: number; nickname: string } }>('/api/api/v1/user/login', {
      countryCode: '+852',
      phone: `852-${phone}`,
      loginType: 'code',
      code: await latestCode(`+852 ${phone}`),
      agreement: true,
    });
    expect(first.status).toBe(200);
    expect(first.body.data.user.nickname).toMatch(/^User-/);
    await allowAnotherCode(`+852 ${phone}`);
    const again = await phoneLogin(new TestClient(), phone);
    expect(again.body.data.user.userId).toBe(first.body.data.user.userId);
  });

  it('sets pner HttpOnly and pnid, both SameSite=Lax, not Secure on local http', async () => {
    const client = new TestClient();
    const { status, headers, body } = await phoneLogin(client, freshPhone());
    expect(status).toBe(200);
    const cookies = headers.getSetCookie();
    const token = cookies.find((line) => line.startsWith('pner='))!;
    const userId = cookies.find((line) => line.startsWith('pnid='))!;
    expect(token).toMatch(/HttpOnly/);
    expect(token).toMatch(/SameSite=Lax/);
    expect(token).not.toMatch(/Secure/);
    expect(userId).not.toMatch(/HttpOnly/);
    expect(userId).toContain(`pnid=${body.data.user.userId}`);
    expect(client.cookies.get('pner')).toMatch(/^[\w-]{43}$/);
  });

  it('requires the agreement and a known calling code, and checks the phone format', async () => {
    const client = new TestClient();
    const phone = freshPhone();
    const noAgreement = await client.post('/api/v1/user/login', { countryCode: '+852', phone, loginType: 'code', code: '123456' });
    expect(noAgreement.body).toMatchObject({ code: 400, errorCode: 'agreement_required', field: 'agreement' });
    const badPhone = await client.post('/api/v3/user/sendLoginCode', { channel: 'phone', countryCode: '+852', phone: '12ab' });
    expect(badPhone.body).toMatchObject({ errorCode: 'phone_invalid', field: 'phone', message: 'Please enter a valid phone number' });
    const noPhone = await client.post('/api/v3/user/sendLoginCode', { channel: 'phone', countryCode: '+852' });
    expect(noPhone.body).toMatchObject({ errorCode: 'phone_required', message: 'Phone cannot be empty' });
    const unknownCountry = await client.post('/api/v3/user/sendLoginCode', { channel: 'phone', countryCode: '+999', phone });
    expect(unknownCountry.body).toMatchObject({ errorCode: 'country_code_invalid', field: 'countryCode' });
  });
});

describe('email registration and password login', () => {
  it('registers with a code and password, then logs in with the password', async () => {
    const email = freshEmail();
    const client = new TestClient();
    const userId = await signUp(client, email);
    expect(client.cookies.get('pnid')).toBe(String(userId));
    const profile = await client.call<{ email: string; hasPassword: boolean }>('/api/v1/user/profile');
    expect(profile.body.data).toMatchObject({ userId, email, phone: null, hasPassword: true });

    const other = new TestClient();
    const login = await other.post('/api/v1/user/mail/login', {
      email: email.toUpperCase(),
      loginType: 'password',
      password: 'Tickets2026',
    });
    expect(login.status).toBe(200);
    expect(login.body.data).toEqual({ user: { userId, nickname: expect.stringMatching(/^User-/) } });
  });

  it('fails a wrong password and an unknown account with the same answer', async () => {
    const email = freshEmail();
    await signUp(new TestClient(), email);
    const wrong = await new TestClient().post('/api/v1/user/mail/login', { email, loginType: 'password', password: 'Wrong12345' });
    const unknown = await new TestClient().post('/api/v1/user/mail/login', {
      email: freshEmail(),
      loginType: 'password',
      password: 'Wrong12345',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: 400, data: null, message: 'Incorrect account or password', errorCode: 'credentials_wrong' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('answers a registration request for a taken email like any other, mailing a notice instead of a code', async () => {
    const email = freshEmail();
    await signUp(new TestClient(), email);
    await allowAnotherCode(email);
    const again = await new TestClient().post('/api/v1/user/mail/regVerify', { email });
    expect(again.body).toEqual({ code: 200, data: { resendAfterSeconds: 60 }, message: '' });
    const [notice] = await outbox(email);
    expect(notice.body).toMatch(/already has one/);
    expect(notice.body).not.toMatch(/\d{6}/);
  });

  it('mails an unknown email a notice for a login code, and no code it could guess signs it in', async () => {
    const email = freshEmail();
    const client = new TestClient();
    const sent = await client.post('/api/v3/user/sendLoginCode', { channel: 'email', email });
    expect(sent.status).toBe(200);
    const [notice] = await outbox(email);
    expect(notice.body).toMatch(/has no TicketWing account/);
    const login = await client.post('/api/v1/user/mail/login', { email, loginType: 'code', code: '123456' });
    expect(login.body.errorCode).toBe('code_wrong');
  });

  it('logs a registered email in by code', async () => {
    const email = freshEmail();
    const userId = await signUp(new TestClient(), email);
    await allowAnotherCode(email);
    const client = new TestClient();
    await client.post('/api/v3/user/sendLoginCode', { channel: 'email', email });
    const login = await client.post<{ user: { userId: number } }>('/api/v1/user/mail/login', {
      email,
      loginType: 'code',
      code: await latestCode(email),
    });
    expect(login.body.data.user.userId).toBe(userId);
  });

  it('validates every field on the server with the page messages, localized', async () => {
    const client = new TestClient();
    const cases: [unknown, string, string][] = [
      [
        { email: 'not-an-email', code: '123456', password: 'Tickets2026', agreement: true },
        'email_invalid',
        'Please enter a valid email address',
      ],
      [
        { email: 'a@b.toolongsuffix', code: '123456', password: 'Tickets2026', agreement: true },
        'email_invalid',
        'Please enter a valid email address',
      ],
      [{ code: '123456', password: 'Tickets2026', agreement: true }, 'email_required', 'Email cannot be empty'],
      [
        { email: 'a@b.com', code: '12345', password: 'Tickets2026', agreement: true },
        'code_invalid',
        'Incorrect verification code format!',
      ],
      [{ email: 'a@b.com', code: '', password: 'Tickets2026', agreement: true }, 'code_required', 'Verification code cannot be empty'],
      [
        { email: 'a@b.com', code: '123456', password: 'lettersonly', agreement: true },
        'password_invalid',
        'Password does not meet the requirements',
      ],
      [
        { email: 'a@b.com', code: '123456', password: 'short1', agreement: true },
        'password_invalid',
        'Password does not meet the requirements',
      ],
      [
        { email: 'a@b.com', code: '123456', password: `a1${'x'.repeat(31)}`, agreement: true },
        'password_invalid',
        'Password does not meet the requirements',
      ],
      [{ email: 'a@b.com', code: '123456', agreement: true }, 'password_required', 'Password cannot be empty'],
      [
        { email: 'a@b.com', code: '123456', password: 'Tickets2026', agreement: false },
        'agreement_required',
        'Please read and agree to the User Agreement and the Privacy Policy',
      ],
      [
        { email: 42, code: '123456', password: 'Tickets2026', agreement: true },
        'invalid_input',
        'Required info cannot be empty or is invalid: email',
      ],
    ];
    for (const [body, errorCode, message] of cases) {
      const answer = await client.post('/api/v1/user/mail/register', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body, JSON.stringify(body)).toMatchObject({ errorCode, message });
    }
    const chinese = await client.call('/api/v1/user/mail/regVerify', {
      method: 'POST',
      body: { email: 'nope' },
      headers: { language: 'zh-HK' },
    });
    expect(chinese.body.message).toBe('請輸入有效的電郵地址');
    const notJson = await client.call('/api/v1/user/mail/regVerify', {
      method: 'POST',
      body: '{email',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.body).toMatchObject({ code: 400, errorCode: 'invalid_input', field: 'body' });
    const oversized = await client.post('/api/v1/user/mail/login', {
      email: 'a@b.com',
      loginType: 'password',
      password: 'x'.repeat(70 * 1024),
    });
    expect(oversized.status).toBe(413);
  });
});

describe('verification codes', () => {
  async function sendRegisterCode(email: string, client = new TestClient()) {
    await client.post('/api/v1/user/mail/regVerify', { email });
    return latestCode(email);
  }
  const register = (client: TestClient, email: string, code: string) =>
    client.post('/api/v1/user/mail/register', { email, code, password: 'Tickets2026', agreement: true });

  it('refuses a wrong code, then accepts the right one once', async () => {
    const email = freshEmail();
    const code = await sendRegisterCode(email);
    const client = new TestClient();
    const wrong = await register(client, email, code === '000000' ? '111111' : '000000');
    expect(wrong.body).toMatchObject({ code: 400, errorCode: 'code_wrong', field: 'code', message: 'Incorrect verification code' });
    expect((await register(client, email, code)).status).toBe(200);
    const reused = await register(new TestClient(), email, code);
    expect(reused.body.errorCode).toBe('code_wrong');
  });

  it('refuses an expired code', async () => {
    const email = freshEmail();
    const code = await sendRegisterCode(email);
    await env.DB.prepare('UPDATE verification_codes SET expires_at = ? WHERE target = ?')
      .bind(Date.now() - 1, email)
      .run();
    const expired = await register(new TestClient(), email, code);
    expect(expired.body).toMatchObject({
      errorCode: 'code_expired',
      message: 'The verification code has expired, please request a new one',
    });
  });

  it(`allows ${CODE_MAX_ATTEMPTS} attempts per code, after which even the right code fails`, async () => {
    const email = freshEmail();
    const code = await sendRegisterCode(email);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const answers = [];
    const forgetFailures = () => env.DB.prepare('DELETE FROM rate_limits WHERE key = ?').bind(`fail:account:email:${email}`).run();
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) {
      // The captcha (after repeated failures) would step in first: this test is about the code alone.
      await forgetFailures();
      answers.push((await register(new TestClient(), email, wrongCode)).body.errorCode);
    }
    expect(answers.slice(0, -1).every((code) => code === 'code_wrong')).toBe(true);
    expect(answers.at(-1)).toBe('code_attempts_exceeded');
    await forgetFailures();
    const right = await register(new TestClient(), email, code);
    expect(right.body).toMatchObject({
      errorCode: 'code_attempts_exceeded',
      message: 'Too many incorrect attempts, please request a new code',
    });
  });

  it('stores only a hash of each code, and a new code replaces the old one', async () => {
    const email = freshEmail();
    const client = new TestClient();
    const first = await sendRegisterCode(email, client);
    const rows = await env.DB.prepare('SELECT code_hash, used_at FROM verification_codes WHERE target = ?')
      .bind(email)
      .all<{ code_hash: string }>();
    expect(rows.results[0].code_hash).not.toContain(first);
    expect(rows.results[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
    await env.DB.prepare('UPDATE rate_limits SET window_start = 0 WHERE key LIKE ?').bind(`send:%:minute:%`).run();
    const second = await sendRegisterCode(email, client);
    if (first !== second) expect((await register(new TestClient(), email, first)).body.errorCode).toBe('code_wrong');
    expect((await register(new TestClient(), email, second)).status).toBe(200);
  });
});

describe('sending limits', () => {
  it('sends one code a minute per address, with a clear 429', async () => {
    const email = freshEmail();
    const client = new TestClient();
    expect((await client.post('/api/v1/user/mail/regVerify', { email })).status).toBe(200);
    const again = await new TestClient().post('/api/v1/user/mail/regVerify', { email });
    expect(again.status).toBe(429);
    expect(again.body.errorCode).toBe('code_too_frequent');
    expect(again.body.message).toMatch(/^Please wait \d+ s before asking for another code$/);
    await env.DB.prepare('UPDATE rate_limits SET window_start = window_start - 61000 WHERE key = ?')
      .bind(`send:target:minute:${email}`)
      .run();
    expect((await client.post('/api/v1/user/mail/regVerify', { email })).status).toBe(200);
  });

  it('counts every plus and dot spelling of one mailbox as one address', async () => {
    const name = `mailbox${nextAccount++}`;
    const sendLogin = (email: string) => new TestClient().post('/api/v3/user/sendLoginCode', { channel: 'email', email });
    expect((await sendLogin(`${name}+first@example.com`)).status).toBe(200);
    const tagged = await sendLogin(`${name}+second@example.com`);
    expect(tagged.status).toBe(429);
    expect(tagged.body.errorCode).toBe('code_too_frequent');

    const gmail = `${name.slice(0, 4)}.${name.slice(4)}`;
    expect((await sendLogin(`${gmail}@gmail.com`)).status).toBe(200);
    expect((await sendLogin(`${name}+x@googlemail.com`)).status).toBe(429);
  });

  it('sends at most 10 codes a day per address', async () => {
    const email = freshEmail();
    await env.DB.prepare('INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, 10)')
      .bind(`send:target:day:${email}`, Date.now())
      .run();
    const refused = await new TestClient().post('/api/v1/user/mail/regVerify', { email });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      errorCode: 'code_daily_limit',
      message: 'Too many codes were requested today, please try again later',
    });
  });

  it(`limits one client asking for codes to many addresses (${CODE_SEND_LIMITS.clientPerMinute.limit} a minute)`, async () => {
    const client = new TestClient();
    const statuses = [];
    const { limit } = CODE_SEND_LIMITS.clientPerMinute;
    for (let i = 0; i <= limit; i++) statuses.push((await client.post('/api/v1/user/mail/regVerify', { email: freshEmail() })).status);
    expect(statuses.slice(0, limit).every((status) => status === 200)).toBe(true);
    expect(statuses[limit]).toBe(429);
  });

  it('without a connecting address, limits each client on its own, never all clients together', async () => {
    const client = new TestClient();
    client.sendsAddress = false;
    const { limit } = CODE_SEND_LIMITS.clientPerMinute;
    const statuses = [];
    for (let i = 0; i <= limit; i++) statuses.push((await client.post('/api/v1/user/mail/regVerify', { email: freshEmail() })).status);
    // The browser keeps the device id it was given, so its own limit holds it...
    expect(statuses.slice(0, limit).every((status) => status === 200)).toBe(true);
    expect(statuses[limit]).toBe(429);
    // ...and another client is not refused for it.
    const other = new TestClient();
    other.sendsAddress = false;
    expect((await other.post('/api/v1/user/mail/regVerify', { email: freshEmail() })).status).toBe(200);
  });
});

describe('captcha after repeated failures', () => {
  const login = (client: TestClient, email: string, password: string, captcha?: string) =>
    client.post('/api/v1/user/mail/login', { email, loginType: 'password', password, captcha });

  it('serves a PNG image, its challenge in an HttpOnly cookie; only a local build tells the answer, for e2e tests', async () => {
    const client = new TestClient();
    const image = await client.call(`/api/api/v1/user/captcha?timestamp=${Date.now()}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toBe('no-store');
    expect([...new TextEncoder().encode(image.text.slice(1, 4))]).toEqual([80, 78, 71]);
    expect(image.headers.getSetCookie().find((line) => line.startsWith('pncap='))).toMatch(/HttpOnly/);
    const row = await env.DB.prepare('SELECT answer_hash, client_key FROM captcha_challenges WHERE id = ?')
      .bind(client.cookies.get('pncap'))
      .first();
    expect(row).toMatchObject({ client_key: client.ip, answer_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });

    // The answer the local build tells solves it; a deployed build tells nothing.
    const answer = image.headers.get(DEV_CAPTCHA_ANSWER_HEADER)!;
    expect(answer).toMatch(/^[A-Z2-9]{4}$/);
    expect(await solveChallenge(db(), client.cookies.get('pncap'), answer.toLowerCase(), client.ip, Date.now())).toBe(true);
    const deployed = await new TestClient({ APP_ENV: 'production', PUBLIC_ORIGIN: 'https://tickets.example.com' }).call(
      '/api/v1/user/captcha?timestamp=1',
    );
    expect(deployed.headers.get('content-type')).toBe('image/png');
    expect(deployed.headers.has(DEV_CAPTCHA_ANSWER_HEADER)).toBe(false);
  });

  it(`requires a solved captcha for an account after ${CAPTCHA_AFTER_FAILURES.perAccount} failures, checks it on the server, and counts it once`, async () => {
    const email = freshEmail();
    await signUp(new TestClient(), email);
    for (let i = 0; i < CAPTCHA_AFTER_FAILURES.perAccount; i++)
      expect((await login(new TestClient(), email, 'Wrong12345')).body.errorCode).toBe('credentials_wrong');

    const client = new TestClient();
    const blocked = await login(client, email, 'Tickets2026');
    expect(blocked.body).toMatchObject({
      code: 400,
      errorCode: 'captcha_required',
      field: 'captcha',
      message: 'Graphic captcha is required',
    });

    await client.call('/api/v1/user/captcha?timestamp=1');
    const wrongAnswer = await login(client, email, 'Tickets2026', 'ZZZZ');
    expect(wrongAnswer.body.errorCode).toBe('captcha_wrong');

    client.cookies.set('pncap', 'known-challenge-1');
    await storeChallenge(db(), 'known-challenge-1', 'AB3D', client.ip, Date.now());
    const solved = await login(client, email, 'Tickets2026', 'ab3d');
    expect(solved.status).toBe(200);
    // Success clears the account's failures; three more bring the captcha back, and a solved challenge is spent.
    expect((await login(new TestClient(), email, 'Wrong12345')).body.errorCode).toBe('credentials_wrong');
    for (let i = 1; i < CAPTCHA_AFTER_FAILURES.perAccount; i++) await login(new TestClient(), email, 'Wrong12345');
    expect((await login(client, email, 'Tickets2026', 'AB3D')).body.errorCode).toBe('captcha_wrong');
  });

  it('honours a challenge only for the client it was shown to, and only before it expires', async () => {
    const email = freshEmail();
    await signUp(new TestClient(), email);
    for (let i = 0; i < CAPTCHA_AFTER_FAILURES.perAccount; i++) await login(new TestClient(), email, 'Wrong12345');
    const thief = new TestClient();
    thief.cookies.set('pncap', 'someone-elses');
    await storeChallenge(db(), 'someone-elses', 'AB3D', '203.0.113.9', Date.now());
    expect((await login(thief, email, 'Tickets2026', 'AB3D')).body.errorCode).toBe('captcha_wrong');

    const late = new TestClient();
    late.cookies.set('pncap', 'expired-one');
    await storeChallenge(db(), 'expired-one', 'AB3D', late.ip, Date.now() - 6 * 60 * 1000);
    expect((await login(late, email, 'Tickets2026', 'AB3D')).body.errorCode).toBe('captcha_wrong');
  });

  it(`requires a captcha from a client after ${CAPTCHA_AFTER_FAILURES.perClient} failures across accounts`, async () => {
    const client = new TestClient();
    for (let i = 0; i < CAPTCHA_AFTER_FAILURES.perClient; i++) await login(client, freshEmail(), 'Wrong12345');
    const next = await login(client, freshEmail(), 'Wrong12345');
    expect(next.body.errorCode).toBe('captcha_required');
    const elsewhere = await login(new TestClient(), freshEmail(), 'Wrong12345');
    expect(elsewhere.body.errorCode).toBe('credentials_wrong');
  });
});

describe('password lockout', () => {
  const login = (client: TestClient, email: string, password: string, captcha?: string, language = 'en') =>
    client.call('/api/v1/user/mail/login', {
      method: 'POST',
      body: { email, loginType: 'password', password, captcha },
      headers: { language },
    });
  /** A wrong password from a client with a solved captcha: the lockout counts however many captchas are solved. */
  const solvedWrongGuess = async (email: string) => {
    const client = new TestClient();
    const id = `lockout-${crypto.randomUUID()}`;
    client.cookies.set('pncap', id);
    await storeChallenge(db(), id, 'AB3D', client.ip, Date.now());
    return login(client, email, 'Wrong12345', 'AB3D');
  };

  it(`locks password sign-in after ${PASSWORD_LOCKOUT.free} wrong passwords, says when to try again, and lets a code sign-in through`, async () => {
    const email = freshEmail();
    await signUp(new TestClient(), email);
    for (let i = 0; i < PASSWORD_LOCKOUT.free; i++) expect((await solvedWrongGuess(email)).body.errorCode).toBe('credentials_wrong');

    // Even the right password (with a solved captcha) waits out the lock, and says how long, in the caller's language.
    const locked = await solvedWrongGuess(email);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({
      errorCode: 'login_locked',
      message: 'Too many wrong passwords for this account. Try again in 1 minute, or sign in with a verification code.',
    });
    const client = new TestClient();
    client.cookies.set('pncap', 'lockout-right');
    await storeChallenge(db(), 'lockout-right', 'AB3D', client.ip, Date.now());
    const right = await login(client, email, 'Tickets2026', 'AB3D', 'zh-HK');
    expect(right.body).toMatchObject({
      code: 429,
      errorCode: 'login_locked',
      message: '此帳戶密碼錯誤次數過多。請於 1 分鐘後再試，或使用驗證碼登入。',
    });

    // A code sign-in proves the mailbox: it is not locked (the captcha the failures asked for still applies).
    await allowAnotherCode(email);
    expect((await new TestClient().post('/api/v3/user/sendLoginCode', { channel: 'email', email })).status).toBe(200);
    const coder = new TestClient();
    coder.cookies.set('pncap', 'lockout-code');
    await storeChallenge(db(), 'lockout-code', 'AB3D', coder.ip, Date.now());
    const byCode = await coder.post('/api/v1/user/mail/login', {
      email,
      loginType: 'code',
      code: await latestCode(email),
      captcha: 'AB3D',
    });
    expect(byCode.status, byCode.text).toBe(200);
  });

  it('doubles the lock with each further wrong password, and a sign-in once it ends clears the count', async () => {
    const email = freshEmail();
    await signUp(new TestClient(), email);
    for (let i = 0; i < PASSWORD_LOCKOUT.free; i++) await solvedWrongGuess(email);
    const key = `email:${email}`;
    const lockOf = () =>
      env.DB.prepare('SELECT failures, locked_until - updated_at AS lockMs FROM login_failures WHERE account_key = ?')
        .bind(key)
        .first<{ failures: number; lockMs: number }>();
    expect(await lockOf()).toEqual({ failures: PASSWORD_LOCKOUT.free, lockMs: PASSWORD_LOCKOUT.firstLockMs });
    // The lock ends (moved into the past, as time would): the next wrong password locks for twice as long.
    await env.DB.prepare('UPDATE login_failures SET locked_until = 0 WHERE account_key = ?').bind(key).run();
    expect((await solvedWrongGuess(email)).body.errorCode).toBe('credentials_wrong');
    expect(await lockOf()).toEqual({ failures: PASSWORD_LOCKOUT.free + 1, lockMs: 2 * PASSWORD_LOCKOUT.firstLockMs });
    const waiting = await solvedWrongGuess(email);
    expect(waiting.body.message).toContain('Try again in 2 minutes');
    await env.DB.prepare('UPDATE login_failures SET locked_until = 0 WHERE account_key = ?').bind(key).run();
    const client = new TestClient();
    client.cookies.set('pncap', 'lockout-after');
    await storeChallenge(db(), 'lockout-after', 'AB3D', client.ip, Date.now());
    expect((await login(client, email, 'Tickets2026', 'AB3D')).status).toBe(200);
    expect(await lockOf()).toBeNull();
  });
});

describe('forgot password', () => {
  it('resets the password with an emailed code, ending every session', async () => {
    const email = freshEmail();
    const signedIn = new TestClient();
    await signUp(signedIn, email);
    await allowAnotherCode(email);
    const client = new TestClient();
    expect((await client.post('/api/v1/user/mail/forgot', { email })).status).toBe(200);
    const code = await latestCode(email);
    const wrong = await client.post('/api/v1/user/mail/verify', { email, code: code === '000000' ? '111111' : '000000' });
    expect(wrong.body.errorCode).toBe('code_wrong');
    expect((await client.post('/api/v1/user/mail/verify', { email, code })).status).toBe(200);
    const weak = await client.post('/api/v1/user/mail/password', { email, code, password: 'weak' });
    expect(weak.body).toMatchObject({ errorCode: 'password_invalid', field: 'password' });
    expect((await client.post('/api/v1/user/mail/password', { email, code, password: 'NewPass2026' })).status).toBe(200);

    expect((await signedIn.call('/api/v1/user/profile')).status).toBe(401);
    expect(
      (await new TestClient().post('/api/v1/user/mail/login', { email, loginType: 'password', password: 'Tickets2026' })).body.errorCode,
    ).toBe('credentials_wrong');
    expect((await new TestClient().post('/api/v1/user/mail/login', { email, loginType: 'password', password: 'NewPass2026' })).status).toBe(
      200,
    );
    expect((await client.post('/api/v1/user/mail/password', { email, code, password: 'Again2026x' })).body.errorCode).toBe('code_wrong');
  });

  it('answers for an unknown email as for a known one', async () => {
    const email = freshEmail();
    const answer = await new TestClient().post('/api/v1/user/mail/forgot', { email });
    expect(answer.body).toEqual({ code: 200, data: { resendAfterSeconds: 60 }, message: '' });
    expect((await outbox(email))[0].body).not.toMatch(/\d{6}/);
  });
});

describe('change password', () => {
  it('refuses a wrong old password, then changes it, ending the other sessions only', async () => {
    const email = freshEmail();
    const client = new TestClient();
    await signUp(client, email);
    const elsewhere = new TestClient();
    await elsewhere.post('/api/v1/user/mail/login', { email, loginType: 'password', password: 'Tickets2026' });

    const wrong = await client.call('/api/v1/user/password', {
      method: 'PUT',
      body: { oldPassword: 'Wrong12345', newPassword: 'NewPass2026' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ errorCode: 'old_password_wrong', field: 'oldPassword', message: 'The old password is incorrect' });
    const missing = await client.call('/api/v1/user/password', { method: 'PUT', body: { newPassword: 'NewPass2026' } });
    expect(missing.body).toMatchObject({ errorCode: 'password_required', field: 'oldPassword' });
    const empty = await client.call('/api/v1/user/password', { method: 'PUT', body: { oldPassword: 'Tickets2026' } });
    expect(empty.body).toMatchObject({ errorCode: 'new_password_required', message: 'New password cannot be empty' });

    const changed = await client.call('/api/v1/user/password', {
      method: 'PUT',
      body: { oldPassword: 'Tickets2026', newPassword: 'NewPass2026' },
    });
    expect(changed.status).toBe(200);
    expect((await client.call('/api/v1/user/profile')).status).toBe(200);
    expect((await elsewhere.call('/api/v1/user/profile')).status).toBe(401);
    expect((await new TestClient().post('/api/v1/user/mail/login', { email, loginType: 'password', password: 'NewPass2026' })).status).toBe(
      200,
    );
  });

  it('lets an account made by phone code set a first password without an old one', async () => {
    const client = new TestClient();
    const phone = freshPhone();
    await phoneLogin(client, phone);
    expect((await client.call<{ hasPassword: boolean }>('/api/v1/user/profile')).body.data.hasPassword).toBe(false);
    expect((await client.call('/api/v1/user/password', { method: 'PUT', body: { newPassword: 'Phone2026pw' } })).status).toBe(200);
    const login = await new TestClient().post('/api/v1/user/login', {
      countryCode: '+852',
      phone,
      loginType: 'password',
      password: 'Phone2026pw',
      agreement: true,
    });
    expect(login.status).toBe(200);
  });

  it('needs a session', async () => {
    const answer = await new TestClient().call('/api/v1/user/password', {
      method: 'PUT',
      body: { oldPassword: 'a', newPassword: 'NewPass2026' },
    });
    expect(answer.status).toBe(401);
  });
});

describe('sessions and profile', () => {
  it('answers a forged or expired token with 401 and clears both cookies', async () => {
    const forged = new TestClient();
    forged.cookies.set('pner', 'forged-token');
    forged.cookies.set('pnid', '1');
    const answer = await forged.call('/api/v1/user/profile');
    expect(answer.status).toBe(401);
    expect(answer.body.errorCode).toBe('unauthorized');
    const cleared = answer.headers.getSetCookie().join('\n');
    expect(cleared).toMatch(/pner=;/);
    expect(cleared).toMatch(/pnid=;/);

    const client = new TestClient();
    await signUp(client, freshEmail());
    await env.DB.prepare('UPDATE auth_sessions SET expires_at = ? WHERE user_id = ?')
      .bind(Date.now() - 1, Number(client.cookies.get('pnid')))
      .run();
    expect((await client.call('/api/v1/user/profile')).status).toBe(401);
  });

  it('stores tokens only hashed, with an expiry', async () => {
    const client = new TestClient();
    const userId = await signUp(client, freshEmail());
    const row = await env.DB.prepare('SELECT token_hash, expires_at FROM auth_sessions WHERE user_id = ?')
      .bind(userId)
      .first<{ token_hash: string; expires_at: number }>();
    expect(row?.token_hash).not.toBe(client.cookies.get('pner'));
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.expires_at).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
  });

  it('shows each user their own profile whatever the pnid cookie says', async () => {
    const alice = new TestClient();
    const bob = new TestClient();
    const aliceEmail = freshEmail();
    const aliceId = await signUp(alice, aliceEmail);
    const bobId = await signUp(bob, freshEmail());
    bob.cookies.set('pnid', String(aliceId));
    const bobView = await bob.call<{ userId: number; email: string }>('/api/v1/user/profile');
    expect(bobView.body.data.userId).toBe(bobId);
    expect(bobView.body.data.email).not.toBe(aliceEmail);
  });

  it('renames the user with a checked nickname', async () => {
    const client = new TestClient();
    await signUp(client, freshEmail());
    const empty = await client.call('/api/v1/user/profile', { method: 'PUT', body: { nickname: '   ' } });
    expect(empty.body).toMatchObject({ errorCode: 'nickname_required', field: 'nickname' });
    const long = await client.call('/api/v1/user/profile', { method: 'PUT', body: { nickname: 'x'.repeat(31) } });
    expect(long.body.errorCode).toBe('nickname_invalid');
    const renamed = await client.call<{ nickname: string }>('/api/v1/user/profile', {
      method: 'PUT',
      body: { nickname: '  Ticket Fan 票迷 ' },
    });
    expect(renamed.body.data.nickname).toBe('Ticket Fan 票迷');
    expect((await new TestClient().call('/api/v1/user/profile', { method: 'PUT', body: { nickname: 'x' } })).status).toBe(401);
  });

  it('logs out: the session ends on the server and both cookies are cleared', async () => {
    const client = new TestClient();
    await signUp(client, freshEmail());
    const token = client.cookies.get('pner');
    const out = await client.call('/api/api/v1/user/logout');
    expect(out.status).toBe(200);
    expect(client.cookies.has('pner')).toBe(false);
    expect(client.cookies.has('pnid')).toBe(false);
    client.cookies.set('pner', token!);
    expect((await client.call('/api/v1/user/profile')).status).toBe(401);
  });

  it('refuses a logout another site links to', async () => {
    const client = new TestClient();
    await signUp(client, freshEmail());
    const answer = await client.call('/api/v1/user/logout', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(answer.status).toBe(403);
    expect((await client.call('/api/v1/user/profile')).status).toBe(200);
  });
});

describe('production configuration', () => {
  it('has no dev outbox, refuses to send codes without a relay, and sets Secure cookies', async () => {
    const email = freshEmail();
    await signUp(new TestClient(), email);
    await allowAnotherCode(email);
    const production = new TestClient({ APP_ENV: 'production' });
    expect((await production.call(`/api/v1/dev/outbox?target=${encodeURIComponent(email)}`)).status).toBe(404);

    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const send = await production.post('/api/v1/user/mail/forgot', { email });
    expect(send.status).toBe(503);
    expect(send.body.errorCode).toBe('messaging_unavailable');
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/Messaging is not configured/));
    log.mockRestore();

    const login = await production.post('/api/v1/user/mail/login', { email, loginType: 'password', password: 'Tickets2026' });
    expect(login.headers.getSetCookie().every((line) => /; Secure/.test(line))).toBe(true);
  });

  it('sends codes through the configured relay', async () => {
    const relay = vi.spyOn(globalThis, 'fetch').mockImplementation(exceptSiteverify(async () => new Response(null, { status: 202 })));
    const client = new TestClient({
      APP_ENV: 'production',
      MESSAGING_WEBHOOK_URL: 'https://relay.example/send',
      MESSAGING_WEBHOOK_TOKEN: 'relay-token',
      ...TURNSTILE_KEYS,
    });
    const email = freshEmail();
    const turnstileToken = await solvedToken(TURNSTILE_ACTION.loginCode);
    expect((await client.post('/api/v1/user/mail/regVerify', { email, turnstileToken })).status).toBe(200);
    const [, init] = relay.mock.calls.find(([to]) => to === 'https://relay.example/send') as [string, RequestInit];
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer relay-token');
    expect(JSON.parse(String(init.body))).toMatchObject({ channel: 'email', to: email, text: expect.stringMatching(/\b\d{6}\b/) });
    relay.mockImplementation(exceptSiteverify(async () => new Response('down', { status: 500 })));
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const again = { email: freshEmail(), turnstileToken: await solvedToken(TURNSTILE_ACTION.loginCode) };
    expect((await new TestClient(client.envOverrides).post('/api/v1/user/mail/regVerify', again)).status).toBe(503);
    log.mockRestore();
    relay.mockRestore();
  });

  it('sends email codes through Resend and SMS codes through Twilio when configured, and answers 503 when they refuse', async () => {
    const resend = resendDouble();
    const twilio = twilioDouble();
    const providers = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(
        exceptSiteverify(async (input, init) =>
          String(input).startsWith('https://resend.test/')
            ? resend.fetch(String(input), init ?? {})
            : twilio.fetch(String(input), init ?? {}),
        ),
      );
    const configured = {
      APP_ENV: 'production',
      EMAIL_PROVIDER: 'resend',
      RESEND_API_KEY: resend.apiKey,
      RESEND_API_URL: 'https://resend.test',
      EMAIL_FROM: 'TicketWing <tickets@example.com>',
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: twilio.account.accountSid,
      TWILIO_AUTH_TOKEN: twilio.account.authToken,
      TWILIO_FROM: twilio.account.from,
      TWILIO_API_URL: 'https://twilio.test',
      ...TURNSTILE_KEYS,
    } as const;
    const solved = async () => ({ turnstileToken: await solvedToken(TURNSTILE_ACTION.loginCode) });
    const email = freshEmail();
    expect((await new TestClient(configured).post('/api/v1/user/mail/regVerify', { email, ...(await solved()) })).status).toBe(200);
    expect(resend.emails).toEqual([
      expect.objectContaining({
        from: configured.EMAIL_FROM,
        to: [email],
        text: expect.stringMatching(/\b\d{6}\b/),
        idempotencyKey: expect.any(String),
      }),
    ]);
    const phone = freshPhone();
    const sent = await new TestClient(configured).post('/api/v3/user/sendLoginCode', {
      channel: 'phone',
      countryCode: '+852',
      phone,
      ...(await solved()),
    });
    expect(sent.status).toBe(200);
    expect(twilio.messages).toEqual([
      expect.objectContaining({ to: `+852${phone}`, from: twilio.account.from, body: expect.stringMatching(/\b\d{6}\b/) }),
    ]);

    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const refused = await new TestClient({ ...configured, RESEND_API_KEY: 're_revoked' }).post('/api/v1/user/mail/regVerify', {
      email: freshEmail(),
      ...(await solved()),
    });
    expect(refused.body).toMatchObject({ code: 503, errorCode: 'messaging_unavailable' });
    twilio.failNext(1, 503);
    const down = await new TestClient(configured).post('/api/v3/user/sendLoginCode', {
      channel: 'phone',
      countryCode: '+852',
      phone: freshPhone(),
      ...(await solved()),
    });
    expect(down.body).toMatchObject({ code: 503, errorCode: 'messaging_unavailable' });
    expect(resend.emails).toHaveLength(1);
    expect(twilio.messages).toHaveLength(1);
    log.mockRestore();
    providers.mockRestore();
  });
});
