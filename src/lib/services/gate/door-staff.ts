/** Door staff, assigned by a seller for one session: the accounts that admit the seller's tickets at its door. */
import { and, asc, eq } from 'drizzle-orm';
import { GATE_STAFF_MAX } from '../../config/gate.ts';
import { gateStaff, users } from '../../db/schema.ts';
import { parseStaffAccount } from '../../domain/admission.ts';
import { DomainError } from '../../domain/errors.ts';
import type { UserScope } from '../platform/scope.ts';
import { sellsTicketsAt } from './admission.ts';

export interface DoorStaff {
  userId: number;
  nickname: string;
  /** How the seller named them: the email, or the phone with its calling code. */
  account: string;
}

/** The session's door staff the seller assigned; a 403 for anyone who does not sell at the session. */
export async function doorStaff(scope: UserScope, sessionId: number): Promise<DoorStaff[]> {
  const { db, userId: sellerId } = scope;
  if (!(await sellsTicketsAt(scope, sessionId))) throw new DomainError('not_gate_staff');
  const rows = await db
    .select({
      userId: users.id,
      nickname: users.nickname,
      email: users.email,
      phoneCountryCode: users.phoneCountryCode,
      phone: users.phone,
    })
    .from(gateStaff)
    .innerJoin(users, eq(users.id, gateStaff.staffId))
    .where(and(eq(gateStaff.sessionId, sessionId), eq(gateStaff.sellerId, sellerId)))
    .orderBy(asc(gateStaff.id));
  return rows.map((row) => ({ userId: row.userId, nickname: row.nickname, account: row.email ?? `${row.phoneCountryCode} ${row.phone}` }));
}

/** Lets the account named by `accountText` admit the seller's tickets at the session's door; answers the staff list. */
export async function assignDoorStaff(scope: UserScope, sessionId: number, accountText: string): Promise<DoorStaff[]> {
  const { db, userId: sellerId, now } = scope;
  const current = await doorStaff(scope, sessionId);
  const account = parseStaffAccount(accountText);
  if (!account) throw new DomainError('staff_account_invalid', {}, 'account');
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      account.kind === 'email'
        ? eq(users.email, account.email)
        : and(eq(users.phoneCountryCode, account.callingCode), eq(users.phone, account.number)),
    );
  if (!user) throw new DomainError('staff_account_not_found', {}, 'account');
  if (user.id === sellerId) throw new DomainError('staff_is_seller', {}, 'account');
  if (current.some((staff) => staff.userId === user.id)) return current;
  if (current.length >= GATE_STAFF_MAX) throw new DomainError('staff_limit_reached', { max: GATE_STAFF_MAX }, 'account');
  await db.insert(gateStaff).values({ sessionId, sellerId, staffId: user.id, createdAt: now }).onConflictDoNothing();
  return doorStaff(scope, sessionId);
}

/** Ends an account's door duty for the seller at the session (nothing to do when it had none); answers the staff list. */
export async function removeDoorStaff(scope: UserScope, sessionId: number, staffId: number): Promise<DoorStaff[]> {
  const { db, userId: sellerId } = scope;
  if (!(await sellsTicketsAt(scope, sessionId))) throw new DomainError('not_gate_staff');
  await db
    .delete(gateStaff)
    .where(and(eq(gateStaff.sessionId, sessionId), eq(gateStaff.sellerId, sellerId), eq(gateStaff.staffId, staffId)));
  return doorStaff(scope, sessionId);
}
