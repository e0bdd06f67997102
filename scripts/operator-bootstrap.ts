/**
 * The SQL of `npm run first-operator` (scripts/first-operator.ts): the account of a phone number, made
 * when there is none, with the operator role, and the grant's audit row (no actor: nobody was signed
 * in). Idempotent: run again, it finds the account and its role and changes nothing.
 */
import { COUNTRIES } from '../src/lib/db/seed-data.ts';
import { normalizePhone, type PhoneNumber, phoneProblem } from '../src/lib/domain/validation.ts';

/** The calling codes the reference data serves (the login page's list), longest first: "+852…" is not "+85" and a number. */
const CALLING_CODES = COUNTRIES.map((country) => country.callingCode).sort((a, b) => b.length - a.length);

/**
 * A phone number written with its calling code ("+85291234567", "+852 9123 4567"), or null when it is
 * none the sign-in serves: the phone code is how the first operator signs in.
 */
export function parseOperatorPhone(text: string): PhoneNumber | null {
  const compact = text.replace(/[\s-]/g, '');
  if (!/^\+\d+$/.test(compact)) return null;
  for (const callingCode of CALLING_CODES) {
    const rest = compact.slice(callingCode.length);
    if (compact.startsWith(callingCode) && phoneProblem(rest) === null) return normalizePhone(callingCode, rest);
  }
  return null;
}

export interface OperatorGrant {
  phone: PhoneNumber;
  /** Epoch ms: the account's creation, the grant and its audit row. */
  now: number;
  /** The account's nickname and invite code, used only when the account is made (services/accounts/users.ts). */
  nickname: string;
  inviteCode: string;
}

export const BOOTSTRAP_ACTION = 'staff.bootstrap';

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * The statements, in order; the last one answers `userId`, `nickname` and `granted` (1 when this run
 * made the account an operator, 0 when it already was one). Plain SQL for `wrangler d1 execute`.
 */
export function firstOperatorStatements({ phone, now, nickname, inviteCode }: OperatorGrant): string[] {
  if (!Number.isSafeInteger(now)) throw new Error(`Not a time: ${now}`);
  const account = `phone_country_code = ${literal(phone.callingCode)} AND phone = ${literal(phone.number)}`;
  const roles = '(SELECT json_group_array(role) FROM staff_roles WHERE user_id = users.id)';
  return [
    `INSERT INTO users (phone_country_code, phone, nickname, invite_code, created_at) SELECT ${literal(phone.callingCode)}, ${literal(phone.number)}, ${literal(nickname)}, ${literal(inviteCode)}, ${now} WHERE NOT EXISTS (SELECT 1 FROM users WHERE ${account});`,
    // Before the grant, so that it sees the roles held before; only when the role is new.
    `INSERT INTO audit_log (actor_id, at, action, subject_type, subject_id, before_json, after_json) SELECT NULL, ${now}, '${BOOTSTRAP_ACTION}', 'user', CAST(id AS TEXT), json_object('roles', json(${roles})), json_object('roles', json_insert(${roles}, '$[#]', 'operator')) FROM users WHERE ${account} AND NOT EXISTS (SELECT 1 FROM staff_roles WHERE user_id = users.id AND role = 'operator');`,
    `INSERT OR IGNORE INTO staff_roles (user_id, role, granted_by, granted_at) SELECT id, 'operator', NULL, ${now} FROM users WHERE ${account};`,
    `SELECT id AS userId, nickname, EXISTS (SELECT 1 FROM audit_log WHERE action = '${BOOTSTRAP_ACTION}' AND subject_id = CAST(users.id AS TEXT) AND at = ${now}) AS granted FROM users WHERE ${account};`,
  ];
}
