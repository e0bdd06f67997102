import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { firstOperatorStatements } from '../../scripts/operator-bootstrap.ts';
import { newAccountNames } from '../../src/lib/domain/invitations.ts';

const phone = { callingCode: '+852', number: '91234567' };

/** Runs the script's statements as wrangler does (in order, one batch) and returns the last one's answer. */
async function makeFirstOperator(now: number, account = phone) {
  const statements = firstOperatorStatements({ phone: account, now, ...newAccountNames() });
  const answers = await env.DB.batch(statements.map((sql) => env.DB.prepare(sql)));
  return answers.at(-1)!.results[0] as { userId: number; nickname: string; granted: number };
}

async function rows(sql: string, ...values: unknown[]) {
  return (
    await env.DB.prepare(sql)
      .bind(...values)
      .all()
  ).results;
}

describe('the first operator', () => {
  it('is made once: an account for the phone, the operator role, one audit row without an actor', async () => {
    const made = await makeFirstOperator(1000);
    expect(made.granted).toBe(1);
    const again = await makeFirstOperator(2000);
    expect(again).toEqual({ ...made, granted: 0 });

    expect(await rows('SELECT id, phone_country_code, phone FROM users')).toEqual([
      { id: made.userId, phone_country_code: '+852', phone: '91234567' },
    ]);
    expect(await rows('SELECT user_id, role, granted_by, granted_at FROM staff_roles')).toEqual([
      { user_id: made.userId, role: 'operator', granted_by: null, granted_at: 1000 },
    ]);
    expect(await rows('SELECT actor_id, at, action, subject_type, subject_id, before_json, after_json FROM audit_log')).toEqual([
      {
        actor_id: null,
        at: 1000,
        action: 'staff.bootstrap',
        subject_type: 'user',
        subject_id: String(made.userId),
        before_json: '{"roles":[]}',
        after_json: '{"roles":["operator"]}',
      },
    ]);
  });

  it('is an existing account when the phone has one, keeping its other roles', async () => {
    const other = { callingCode: '+886', number: '912345678' };
    await env.DB.prepare("INSERT INTO users (phone_country_code, phone, nickname, invite_code) VALUES (?, ?, 'Editor', 'EDIT2345')")
      .bind(other.callingCode, other.number)
      .run();
    const [{ id }] = (await rows('SELECT id FROM users WHERE phone = ?', other.number)) as { id: number }[];
    await env.DB.prepare("INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, 'editor', 0)").bind(id).run();

    expect(await makeFirstOperator(3000, other)).toEqual({ userId: id, nickname: 'Editor', granted: 1 });
    expect(await rows('SELECT role FROM staff_roles WHERE user_id = ? ORDER BY role', id)).toEqual([
      { role: 'editor' },
      { role: 'operator' },
    ]);
    expect(await rows('SELECT before_json, after_json FROM audit_log WHERE subject_id = ?', String(id))).toEqual([
      { before_json: '{"roles":["editor"]}', after_json: '{"roles":["editor","operator"]}' },
    ]);
  });
});
