/**
 * Cloudflare Turnstile on the steps a bot farm needs (services/protection/turnstile.ts): a code for a phone with
 * no account yet or for any email, and a new place in a waiting room. Turnstile's siteverify is the local
 * double (tests/doubles/turnstile-api.ts); clients that set its keys act as a configured build.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { TURNSTILE_ACTION } from '../../src/lib/config/accounts.ts';
import type { WaitingView } from '../../src/lib/services/on-sale/waiting-room.ts';
import { allowAnotherCode, latestCode, signUp, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { eTicketSource, type ETicketSource } from './shop.ts';
import { solvedToken, TURNSTILE_KEYS } from './turnstile-client.ts';

const configured = TURNSTILE_KEYS;
const solved = solvedToken;

let phones = 0;
/** A Hong Kong mobile number no account has yet. */
const newPhone = () => `6${String(3_000_000 + ++phones).padStart(7, '0')}`;
const askCode = (client: TestClient, phone: string, turnstileToken?: string) =>
  client.post('/api/v3/user/sendLoginCode', { channel: 'phone', countryCode: '+852', phone, turnstileToken });

beforeAll(async () => {
  await seed();
});

describe('a login code for a phone with no account yet', () => {
  it('is refused without a solved challenge, in the caller language', async () => {
    const answer = await askCode(new TestClient(configured), newPhone());
    expect(answer.status).toBe(400);
    expect(answer.body.errorCode).toBe('challenge_required');
    const chinese = await new TestClient(configured).call('/api/v3/user/sendLoginCode', {
      method: 'POST',
      body: { channel: 'phone', countryCode: '+852', phone: newPhone() },
      headers: { language: 'zh-HK' },
    });
    expect(chinese.body.errorCode).toBe('challenge_required');
    expect(chinese.body.message).toBe('請先完成真人驗證。');
  });

  it('is sent with a token solved for the login step on our hostname', async () => {
    const answer = await askCode(new TestClient(configured), newPhone(), await solved(TURNSTILE_ACTION.loginCode));
    expect(answer.status, answer.text).toBe(200);
  });

  it('is refused with a token used once already (tokens are single-use)', async () => {
    const token = await solved(TURNSTILE_ACTION.loginCode);
    expect((await askCode(new TestClient(configured), newPhone(), token)).status).toBe(200);
    const reused = await askCode(new TestClient(configured), newPhone(), token);
    expect(reused.status).toBe(400);
    expect(reused.body.errorCode).toBe('challenge_failed');
  });

  it('is refused with a token solved for another step, on another site, or made up', async () => {
    for (const token of [
      await solved(TURNSTILE_ACTION.waitingRoomJoin),
      await solved(TURNSTILE_ACTION.loginCode, 'elsewhere.example'),
      'XXXX.DOUBLE.made-up',
    ]) {
      const answer = await askCode(new TestClient(configured), newPhone(), token);
      expect(answer.body.errorCode, token).toBe('challenge_failed');
    }
  });

  it('asks for a challenge on the email channels too: a login code and a registration code', async () => {
    const client = new TestClient(configured);
    const login = await client.post('/api/v3/user/sendLoginCode', { channel: 'email', email: 'nobody-yet@example.com' });
    expect(login.body.errorCode).toBe('challenge_required');
    const register = await client.post('/api/v1/user/mail/regVerify', { email: 'nobody-yet@example.com' });
    expect(register.body.errorCode).toBe('challenge_required');
    const token = await solved(TURNSTILE_ACTION.loginCode);
    expect((await client.post('/api/v1/user/mail/regVerify', { email: 'nobody-yet@example.com', turnstileToken: token })).status).toBe(200);
  });

  it('needs none in a local build without Turnstile keys (the check is off)', async () => {
    expect((await askCode(new TestClient(), newPhone())).status).toBe(200);
  });

  it('refuses the step in a deployed build without the secret or the site key (503), and when siteverify refuses our secret', async () => {
    const unconfigured = await askCode(new TestClient({ APP_ENV: 'production' }), newPhone());
    expect(unconfigured.status).toBe(503);
    expect(unconfigured.body.errorCode).toBe('server_misconfigured');
    const noSiteKey = await askCode(
      new TestClient({ APP_ENV: 'production', TURNSTILE_SECRET_KEY: TURNSTILE_KEYS.TURNSTILE_SECRET_KEY }),
      newPhone(),
    );
    expect(noSiteKey.status).toBe(503);
    const wrongSecret = await askCode(
      new TestClient({ ...configured, TURNSTILE_SECRET_KEY: 'not-our-secret' }),
      newPhone(),
      await solved(TURNSTILE_ACTION.loginCode),
    );
    expect(wrongSecret.status).toBe(503);
    expect(wrongSecret.body.errorCode).toBe('server_misconfigured');
  });
});

describe('a login code for a known account', () => {
  it('needs no challenge for a phone, whose sign-in already tells it has an account', async () => {
    const phone = newPhone();
    expect((await askCode(new TestClient(configured), phone, await solved(TURNSTILE_ACTION.loginCode))).status).toBe(200);
    const signedIn = await new TestClient().post('/api/v1/user/login', {
      countryCode: '+852',
      phone,
      loginType: 'code',
      code: await latestCode(`+852 ${phone}`),
      agreement: true,
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    await allowAnotherCode(`+852 ${phone}`);
    const answer = await askCode(new TestClient(configured), phone);
    expect(answer.status, answer.text).toBe(200);
  });

  it('asks one for an email whether or not it has an account, so the answer tells neither', async () => {
    const email = 'known-account@example.com';
    await signUp(new TestClient(), email);
    await allowAnotherCode(email);
    for (const target of [email, 'no-account-yet@example.com']) {
      const refused = await new TestClient(configured).post('/api/v3/user/sendLoginCode', { channel: 'email', email: target });
      expect(refused.body.errorCode, target).toBe('challenge_required');
      const register = await new TestClient(configured).post('/api/v1/user/mail/regVerify', { email: target });
      expect(register.body.errorCode, target).toBe('challenge_required');
    }
    const answer = await new TestClient(configured).post('/api/v3/user/sendLoginCode', {
      channel: 'email',
      email,
      turnstileToken: await solved(TURNSTILE_ACTION.loginCode),
    });
    expect(answer.status, answer.text).toBe(200);
  });
});

describe('joining a waiting room', () => {
  let room: ETicketSource;
  beforeAll(async () => {
    room = await eTicketSource('last');
    await env.DB.prepare('UPDATE activity_sessions SET high_demand = 1 WHERE id = ?').bind(room.sessionId).run();
  });

  let buyers = 0;
  async function buyer(): Promise<TestClient> {
    const client = new TestClient();
    await signUp(client, `turnstile-queue${++buyers}@example.com`);
    client.envOverrides = configured;
    return client;
  }
  const join = (client: TestClient, turnstileToken?: string) =>
    client.post<WaitingView>(`/api/v1/waiting-rooms/${room.sessionId}`, { turnstileToken });

  it('is refused without a solved challenge, and joins with one', async () => {
    const client = await buyer();
    const refused = await join(client);
    expect(refused.status).toBe(400);
    expect(refused.body.errorCode).toBe('challenge_required');
    const joined = await join(client, await solved(TURNSTILE_ACTION.waitingRoomJoin));
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body.data.position).not.toBeNull();
  });

  it('keeps a place already taken without a new challenge (a reload), and takes a login token for no place', async () => {
    const client = await buyer();
    const joined = await join(client, await solved(TURNSTILE_ACTION.waitingRoomJoin));
    const again = await join(client);
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.position).toBe(joined.body.data.position);
    const other = await buyer();
    expect((await join(other, await solved(TURNSTILE_ACTION.loginCode))).body.errorCode).toBe('challenge_failed');
  });

  it('needs none in a local build without Turnstile keys', async () => {
    const client = await buyer();
    client.envOverrides = {};
    expect((await join(client)).status).toBe(200);
  });
});
