import { describe, expect, it } from 'vitest';
import { firstOperatorStatements, parseOperatorPhone } from '../../scripts/operator-bootstrap.ts';

describe('the first operator’s phone number', () => {
  it('is read with its calling code, the longest one the sign-in serves', () => {
    expect(parseOperatorPhone('+85291234567')).toEqual({ callingCode: '+852', number: '91234567' });
    expect(parseOperatorPhone(' +852 9123-4567 ')).toEqual({ callingCode: '+852', number: '91234567' });
    expect(parseOperatorPhone('+8613812345678')).toEqual({ callingCode: '+86', number: '13812345678' });
    expect(parseOperatorPhone('+12125551234')).toEqual({ callingCode: '+1', number: '2125551234' });
  });

  it('is refused without a calling code, with one the sign-in does not serve, or with too few or too many digits', () => {
    for (const text of ['', '91234567', '85291234567', '+99912345678', '+852123', '+852123456789012', '+852 9123 456x', "+852'91234567"]) {
      expect(parseOperatorPhone(text), text).toBeNull();
    }
  });
});

describe('the first operator’s statements', () => {
  const grant = {
    phone: { callingCode: '+852', number: '91234567' },
    now: 1_795_000_000_000,
    nickname: 'User-AB2CD3',
    inviteCode: 'ABCD2345',
  };

  it('make the account when there is none, audit the grant before it is made, grant it, and answer the account', () => {
    const [account, audit, role, answer] = firstOperatorStatements(grant);
    const phone = "phone_country_code = '+852' AND phone = '91234567'";
    expect(account).toBe(
      `INSERT INTO users (phone_country_code, phone, nickname, invite_code, created_at) SELECT '+852', '91234567', 'User-AB2CD3', 'ABCD2345', 1795000000000 WHERE NOT EXISTS (SELECT 1 FROM users WHERE ${phone});`,
    );
    expect(audit).toMatch(/^INSERT INTO audit_log .* SELECT NULL, 1795000000000, 'staff\.bootstrap', 'user', CAST\(id AS TEXT\)/);
    expect(audit).toContain(`WHERE ${phone} AND NOT EXISTS (SELECT 1 FROM staff_roles WHERE user_id = users.id AND role = 'operator');`);
    expect(role).toBe(
      `INSERT OR IGNORE INTO staff_roles (user_id, role, granted_by, granted_at) SELECT id, 'operator', NULL, 1795000000000 FROM users WHERE ${phone};`,
    );
    expect(answer).toMatch(/^SELECT id AS userId, nickname, EXISTS .* AS granted FROM users WHERE/);
  });

  it('quote what they are given and refuse a time that is not one', () => {
    const [account] = firstOperatorStatements({ ...grant, nickname: "O'Neil" });
    expect(account).toContain("'O''Neil'");
    expect(() => firstOperatorStatements({ ...grant, now: Number.NaN })).toThrow(/time/);
  });
});
