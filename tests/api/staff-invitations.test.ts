/**
 * Staff invitations and the staff list: an operator invites a phone to a role, the link's holder
 * signs in with THAT phone's code (its account made if it has none) and accepts; expired, revoked,
 * used and other-phone acceptances refused; role changes and removals audited before → after, and
 * the marketplace never left without an operator.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { latestCode, signedInClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';

let operator: TestClient;
let operatorId: number;
let phoneCounter = 0;

interface Invitation {
  id: number;
  token: string;
  link: string;
}

function newPhone(): string {
  phoneCounter += 1;
  return `9${String(4000000 + phoneCounter)}`;
}

async function invite(phone: string, role = 'editor', by = operator) {
  return by.post<Invitation>('/api/v1/operator/staff/invitations', { countryCode: '+852', phone, role });
}

/** The link's holder asks the code for the invited phone and signs in with it. */
async function joinAs(phone: string, token: string, client = new TestClient()): Promise<TestClient> {
  const sent = await client.post(`/api/v1/staff-invitations/${token}/code`, {});
  expect(sent.status, sent.text).toBe(200);
  const signedIn = await client.post(`/api/v1/staff-invitations/${token}/sign-in`, { code: await latestCode(`+852 ${phone}`) });
  expect(signedIn.status, signedIn.text).toBe(200);
  return client;
}

const rolesOf = async (userId: number) =>
  (await env.DB.prepare('SELECT role FROM staff_roles WHERE user_id = ? ORDER BY role').bind(userId).all<{ role: string }>()).results.map(
    (row) => row.role,
  );

const lastAudit = async (action: string) =>
  env.DB.prepare('SELECT actor_id, subject_id, before_json, after_json FROM audit_log WHERE action = ? ORDER BY id DESC LIMIT 1')
    .bind(action)
    .first<{ actor_id: number; subject_id: string; before_json: string | null; after_json: string | null }>();

beforeAll(async () => {
  await seed();
  operator = await signedInClient('invite-operator');
  operatorId = Number(operator.cookies.get('pnid'));
  await env.DB.prepare("INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, 'operator', 0)").bind(operatorId).run();
});

describe('staff invitations', () => {
  it('lets the invited phone join: a new account signs in with its code and accepts the role, audited', async () => {
    const phone = newPhone();
    const created = await invite(phone);
    expect(created.status, created.text).toBe(200);
    expect(created.body.data.link).toBe(`http://localhost/ops/join/${created.body.data.token}`);
    const stored = await env.DB.prepare('SELECT token_hash FROM staff_invitations WHERE id = ?')
      .bind(created.body.data.id)
      .first<{ token_hash: string }>();
    expect(stored?.token_hash).not.toContain(created.body.data.token);
    expect((await lastAudit('staff.invite'))?.actor_id).toBe(operatorId);

    const invitee = await joinAs(phone, created.body.data.token);
    const inviteeId = Number(invitee.cookies.get('pnid'));
    const accepted = await invitee.post<{ role: string }>(`/api/v1/staff-invitations/${created.body.data.token}/accept`, {});
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.data.role).toBe('editor');
    expect(await rolesOf(inviteeId)).toEqual(['editor']);
    const audit = await lastAudit('staff.invitation_accept');
    expect(audit).toMatchObject({ actor_id: inviteeId, subject_id: String(inviteeId) });
    expect(JSON.parse(audit!.before_json!)).toEqual({ roles: [] });
    expect(JSON.parse(audit!.after_json!)).toMatchObject({ roles: ['editor'] });

    const again = await invitee.post(`/api/v1/staff-invitations/${created.body.data.token}/accept`, {});
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('staff_invitation_used');
    const codeAgain = await new TestClient().post(`/api/v1/staff-invitations/${created.body.data.token}/code`, {});
    expect(codeAgain.body.errorCode).toBe('staff_invitation_used');
  });

  it('refuses revoked, expired and unknown invitations with their own errors', async () => {
    const revoked = await invite(newPhone());
    expect((await operator.post(`/api/v1/operator/staff/invitations/${revoked.body.data.id}/revoke`, {})).status).toBe(200);
    const afterRevoke = await new TestClient().post(`/api/v1/staff-invitations/${revoked.body.data.token}/code`, {});
    expect(afterRevoke.status).toBe(409);
    expect(afterRevoke.body.errorCode).toBe('staff_invitation_revoked');
    expect(afterRevoke.body.message).toMatch(/withdrawn/);
    expect((await lastAudit('staff.invitation_revoke'))?.subject_id).toBe(String(revoked.body.data.id));

    const expired = await invite(newPhone());
    await env.DB.prepare('UPDATE staff_invitations SET expires_at = ? WHERE id = ?')
      .bind(Date.now() - 1, expired.body.data.id)
      .run();
    const afterExpiry = await new TestClient().post(`/api/v1/staff-invitations/${expired.body.data.token}/code`, {});
    expect(afterExpiry.body.errorCode).toBe('staff_invitation_expired');
    const revokeExpired = await operator.post(`/api/v1/operator/staff/invitations/${expired.body.data.id}/revoke`, {});
    expect(revokeExpired.body.errorCode).toBe('staff_invitation_expired');

    const unknown = await new TestClient().post(`/api/v1/staff-invitations/${'x'.repeat(43)}/code`, {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorCode).toBe('staff_invitation_not_found');
  });

  it('lets no other account accept', async () => {
    const created = await invite(newPhone());
    const stranger = await signedInClient('invite-stranger');
    const refused = await stranger.post(`/api/v1/staff-invitations/${created.body.data.token}/accept`, {});
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe('staff_invitation_wrong_phone');
    expect(await rolesOf(Number(stranger.cookies.get('pnid')))).toEqual([]);
    const visitor = await new TestClient().post(`/api/v1/staff-invitations/${created.body.data.token}/accept`, {});
    expect(visitor.status).toBe(401);
  });

  it('lets only operators invite', async () => {
    const buyer = await signedInClient('invite-buyer');
    expect((await invite(newPhone(), 'editor', buyer)).body.errorCode).toBe('not_staff');
    const phone = newPhone();
    const editorInvitation = await invite(phone);
    const editor = await joinAs(phone, editorInvitation.body.data.token);
    await editor.post(`/api/v1/staff-invitations/${editorInvitation.body.data.token}/accept`, {});
    const byEditor = await invite(newPhone(), 'editor', editor);
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.errorCode).toBe('staff_role_forbidden');
  });
});

describe('the staff list', () => {
  it('changes roles and removes members, audited before → after, never the last operator', async () => {
    expect((await operator.call(`/api/v1/operator/staff/${operatorId}`, { method: 'DELETE' })).body.errorCode).toBe('staff_last_operator');
    const demote = await operator.call(`/api/v1/operator/staff/${operatorId}/roles`, { method: 'PUT', body: { roles: ['editor'] } });
    expect(demote.status).toBe(409);
    expect(demote.body.errorCode).toBe('staff_last_operator');

    const phone = newPhone();
    const created = await invite(phone, 'customer_service');
    const member = await joinAs(phone, created.body.data.token);
    const memberId = Number(member.cookies.get('pnid'));
    await member.post(`/api/v1/staff-invitations/${created.body.data.token}/accept`, {});

    const promoted = await operator.call(`/api/v1/operator/staff/${memberId}/roles`, {
      method: 'PUT',
      body: { roles: ['operator', 'customer_service'] },
    });
    expect(promoted.status, promoted.text).toBe(200);
    const change = await lastAudit('staff.roles_change');
    expect(change).toMatchObject({ actor_id: operatorId, subject_id: String(memberId) });
    expect(JSON.parse(change!.before_json!)).toEqual({ roles: ['customer_service'] });
    expect(JSON.parse(change!.after_json!)).toEqual({ roles: ['operator', 'customer_service'] });

    const listed =
      await operator.call<{ userId: number; roles: string[]; passkeys: number; phone: string | null }[]>('/api/v1/operator/staff');
    expect(listed.body.data.find((row) => row.userId === memberId)).toMatchObject({
      roles: ['operator', 'customer_service'],
      passkeys: 0,
      phone: `+852 ${phone}`,
    });

    // Another operator now exists: the first may step down, and the new one removes them.
    const stepDown = await operator.call(`/api/v1/operator/staff/${operatorId}/roles`, { method: 'PUT', body: { roles: ['editor'] } });
    expect(stepDown.status).toBe(200);
    const removed = await member.call(`/api/v1/operator/staff/${operatorId}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(await rolesOf(operatorId)).toEqual([]);
    const removal = await lastAudit('staff.remove');
    expect(JSON.parse(removal!.before_json!)).toEqual({ roles: ['editor'], passkeys: [] });
    expect(removal!.after_json).toBeNull();
    expect((await operator.call('/api/v1/operator/staff')).body.errorCode).toBe('not_staff');
    expect((await member.call('/api/v1/operator/staff/999999', { method: 'DELETE' })).body.errorCode).toBe('staff_member_not_found');

    const audit = await member.call<{ records: { action: string; actorId: number; before: unknown }[]; next: number | null }>(
      `/api/v1/operator/audit?action=staff&subjectType=staff_member&subjectId=${operatorId}`,
    );
    expect(audit.status).toBe(200);
    expect(audit.body.data.records.map((row) => row.action)).toEqual(['staff.remove', 'staff.roles_change']);
    expect(audit.body.data.records[0].before).toEqual({ roles: ['editor'], passkeys: [] });
    const byActor = await member.call<{ records: { actorId: number }[] }>(
      `/api/v1/operator/audit?actorId=${memberId}&until=${Date.now() + 1000}`,
    );
    expect(byActor.body.data.records.length).toBeGreaterThan(0);
    expect(byActor.body.data.records.every((row) => row.actorId === memberId)).toBe(true);
    const future = await member.call<{ records: unknown[] }>(`/api/v1/operator/audit?from=${Date.now() + 3_600_000}`);
    expect(future.body.data.records).toEqual([]);
  });
});
