/**
 * Staff passkeys end to end against a software authenticator: registration and usernameless
 * sign-in through the real API (the same session a code sign-in starts), a replayed challenge and a
 * wrong signature refused, the per-client limit, and managing one's own passkeys, each change audited.
 */
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, signedInClient, TestClient as Client } from './auth-client.ts';
import { seed } from './helpers.ts';
import { SoftwareAuthenticator } from './software-authenticator.ts';

let operator: TestClient;
let operatorId: number;

async function makeStaff(client: TestClient, role = 'operator'): Promise<number> {
  const userId = Number(client.cookies.get('pnid'));
  await env.DB.prepare('INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, ?, 0)').bind(userId, role).run();
  return userId;
}

async function addPasskey(client: TestClient, authenticator: SoftwareAuthenticator, name: string) {
  const options = await client.post<PublicKeyCredentialCreationOptionsJSON>('/api/v1/operator/passkeys/options', {});
  expect(options.status, options.text).toBe(200);
  const response = await authenticator.register(options.body.data);
  return { response, answer: await client.post<{ id: number; name: string }>('/api/v1/operator/passkeys', { response, name }) };
}

async function signInWith(client: TestClient, authenticator: SoftwareAuthenticator, signWith?: CryptoKey) {
  const options = await client.post<PublicKeyCredentialRequestOptionsJSON>('/api/v1/auth/passkey/options', {});
  expect(options.status, options.text).toBe(200);
  const response = await authenticator.authenticate(options.body.data, signWith);
  return { response, answer: await client.post<{ user: { userId: number } }>('/api/v1/auth/passkey/sign-in', { response }) };
}

const auditActions = async (userId: number) =>
  (
    await env.DB.prepare("SELECT action FROM audit_log WHERE actor_id = ? AND action LIKE 'passkey.%' ORDER BY id")
      .bind(userId)
      .all<{ action: string }>()
  ).results.map((row) => row.action);

beforeAll(async () => {
  await seed();
  operator = await signedInClient('passkey-operator');
  operatorId = await makeStaff(operator);
});

describe('staff passkeys', () => {
  const authenticator = SoftwareAuthenticator.create();

  it('registers a passkey bound to the configured origin, and refuses the same answer twice', async () => {
    const options = await operator.post<PublicKeyCredentialCreationOptionsJSON>('/api/v1/operator/passkeys/options', {});
    expect(options.body.data.rp.id).toBe('localhost');
    expect(options.body.data.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    const device = await authenticator;
    const response = await device.register(options.body.data);
    const added = await operator.post<{ name: string }>('/api/v1/operator/passkeys', { response, name: ' Work laptop ' });
    expect(added.status, added.text).toBe(200);
    expect(added.body.data.name).toBe('Work laptop');
    const replayed = await operator.post('/api/v1/operator/passkeys', { response, name: 'Again' });
    expect(replayed.status).toBe(400);
    expect(replayed.body.errorCode).toBe('passkey_challenge_expired');
    const listed = await operator.call<{ name: string; lastUsedAt: number | null }[]>('/api/v1/operator/passkeys');
    expect(listed.body.data).toEqual([expect.objectContaining({ name: 'Work laptop', lastUsedAt: null })]);
  });

  it('signs in with the passkey, usernameless, into a session like any other', async () => {
    const visitor = new Client();
    const { answer } = await signInWith(visitor, await authenticator);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.user.userId).toBe(operatorId);
    expect(visitor.cookies.get('pner')).toBeTruthy();
    expect(answer.headers.getSetCookie().some((line) => /^pner=.*HttpOnly/i.test(line))).toBe(true);
    const listed = await visitor.call<{ lastUsedAt: number | null }[]>('/api/v1/operator/passkeys');
    expect(listed.status).toBe(200);
    expect(listed.body.data[0].lastUsedAt).not.toBeNull();
  });

  it('refuses a replayed sign-in answer, a wrong signature and an unknown credential', async () => {
    const visitor = new Client();
    const device = await authenticator;
    const { response } = await signInWith(visitor, device);
    const replayed = await visitor.post('/api/v1/auth/passkey/sign-in', { response });
    expect(replayed.status).toBe(400);
    expect(replayed.body.errorCode).toBe('passkey_challenge_expired');

    const other = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign'])) as CryptoKeyPair;
    const forged = await signInWith(new Client(), device, other.privateKey);
    expect(forged.answer.status).toBe(400);
    expect(forged.answer.body.errorCode).toBe('passkey_rejected');

    const stranger = await SoftwareAuthenticator.create();
    const unknown = await signInWith(new Client(), stranger);
    expect(unknown.answer.body.errorCode).toBe('passkey_rejected');
  });

  it('refuses an answer made for another origin', async () => {
    const elsewhere = await SoftwareAuthenticator.create('https://evil.example');
    const { answer } = await addPasskey(operator, elsewhere, 'Phished');
    expect(answer.status).toBe(400);
    expect(answer.body.errorCode).toBe('passkey_rejected');
  });

  it('keeps at least one passkey; renames and removes, each change audited', async () => {
    const [only] = (await operator.call<{ id: number }[]>('/api/v1/operator/passkeys')).body.data;
    const last = await operator.call(`/api/v1/operator/passkeys/${only.id}`, { method: 'DELETE' });
    expect(last.status).toBe(409);
    expect(last.body.errorCode).toBe('passkey_last');

    const { answer } = await addPasskey(operator, await SoftwareAuthenticator.create(), 'Phone');
    expect(answer.status, answer.text).toBe(200);
    const renamed = await operator.call(`/api/v1/operator/passkeys/${answer.body.data.id}`, {
      method: 'PATCH',
      body: { name: 'My phone' },
    });
    expect(renamed.status).toBe(200);
    const badName = await operator.call(`/api/v1/operator/passkeys/${answer.body.data.id}`, { method: 'PATCH', body: { name: '  ' } });
    expect(badName.body).toMatchObject({ errorCode: 'passkey_name_required', field: 'name' });
    const removed = await operator.call(`/api/v1/operator/passkeys/${only.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect((await operator.call<{ name: string }[]>('/api/v1/operator/passkeys')).body.data.map((row) => row.name)).toEqual(['My phone']);
    expect(await auditActions(operatorId)).toEqual(['passkey.add', 'passkey.add', 'passkey.rename', 'passkey.remove']);

    const someoneElse = await signedInClient('passkey-other-staff');
    await makeStaff(someoneElse, 'editor');
    const notTheirs = await someoneElse.call(`/api/v1/operator/passkeys/${answer.body.data.id}`, { method: 'DELETE' });
    expect(notTheirs.status).toBe(404);
  });

  it('answers a buyer 403 on the passkey routes', async () => {
    const buyer = await signedInClient('passkey-buyer');
    const answer = await buyer.post('/api/v1/operator/passkeys/options', {});
    expect(answer.status).toBe(403);
    expect(answer.body.errorCode).toBe('not_staff');
  });

  it('limits passkey sign-in calls per client', async () => {
    const client = new Client();
    const statuses: number[] = [];
    for (let call = 0; call < 21; call += 1) statuses.push((await client.post('/api/v1/auth/passkey/options', {})).status);
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    const refused = await client.post('/api/v1/auth/passkey/options', {});
    expect(refused.status).toBe(429);
    expect(refused.body.errorCode).toBe('passkey_too_frequent');
  });
});
