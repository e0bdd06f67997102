/**
 * The staff list as operators manage it: who has which roles and how many passkeys; changing a
 * member's roles and removing a member (their roles and passkeys), never leaving the marketplace
 * without an operator. Each change is audited, before → after, in its own batch.
 */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import { staffPasskeys, staffRoles, users } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { leavesNoOperator } from '../../domain/staff-access.ts';
import { STAFF_ROLES, type StaffRole } from '../../domain/staff.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from './audit.ts';

export interface StaffMember {
  userId: number;
  nickname: string;
  phone: string | null;
  email: string | null;
  roles: StaffRole[];
  passkeys: number;
}

const inRoleOrder = (roles: StaffRole[]) => STAFF_ROLES.filter((role) => roles.includes(role));

/** Every staff member, by account id, with their roles and passkey count. */
export async function staffMembers(scope: StaffScope): Promise<StaffMember[]> {
  const [roles, passkeys] = await Promise.all([
    scope.db
      .select({
        userId: staffRoles.userId,
        role: staffRoles.role,
        nickname: users.nickname,
        phoneCountryCode: users.phoneCountryCode,
        phone: users.phone,
        email: users.email,
      })
      .from(staffRoles)
      .innerJoin(users, eq(users.id, staffRoles.userId))
      .orderBy(asc(staffRoles.userId)),
    scope.db.select({ userId: staffPasskeys.userId, total: count() }).from(staffPasskeys).groupBy(staffPasskeys.userId),
  ]);
  const passkeysOf = new Map(passkeys.map((row) => [row.userId, row.total]));
  const members = new Map<number, StaffMember>();
  for (const row of roles) {
    const member = members.get(row.userId) ?? {
      userId: row.userId,
      nickname: row.nickname,
      phone: row.phone ? `${row.phoneCountryCode} ${row.phone}` : null,
      email: row.email,
      roles: [],
      passkeys: passkeysOf.get(row.userId) ?? 0,
    };
    member.roles.push(row.role);
    members.set(row.userId, member);
  }
  return [...members.values()].map((member) => ({ ...member, roles: inRoleOrder(member.roles) }));
}

/** A member's roles now, and today's operators; a member without roles is no staff member. */
async function rolesAndOperators(scope: StaffScope, userId: number) {
  const rows = await scope.db.select({ userId: staffRoles.userId, role: staffRoles.role }).from(staffRoles);
  const roles = inRoleOrder(rows.filter((row) => row.userId === userId).map((row) => row.role));
  if (roles.length === 0) throw new DomainError('staff_member_not_found');
  const operators = rows.filter((row) => row.role === 'operator').map((row) => row.userId);
  return { roles, operators };
}

/** Sets a member's roles to exactly `roles` (at least one; removing a member is `removeStaffMember`). */
export async function changeStaffRoles(scope: StaffScope, userId: number, wanted: readonly StaffRole[]): Promise<StaffRole[]> {
  const { roles, operators } = await rolesAndOperators(scope, userId);
  const after = inRoleOrder([...wanted]);
  if (leavesNoOperator(operators, userId, after)) throw new DomainError('staff_last_operator');
  const added = after.filter((role) => !roles.includes(role));
  const removed = roles.filter((role) => !after.includes(role));
  if (added.length === 0 && removed.length === 0) return after;
  await batch(scope.db, {
    removed:
      removed.length > 0 ? [scope.db.delete(staffRoles).where(and(eq(staffRoles.userId, userId), inArray(staffRoles.role, removed)))] : [],
    added:
      added.length > 0
        ? [scope.db.insert(staffRoles).values(added.map((role) => ({ userId, role, grantedBy: scope.userId, grantedAt: scope.now })))]
        : [],
    audit: auditEntry(scope, {
      action: 'staff.roles_change',
      subjectType: 'staff_member',
      subjectId: userId,
      before: { roles },
      after: { roles: after },
    }),
  });
  return after;
}

/** Removes a member from the staff: their roles and passkeys go; their account stays a buyer's. */
export async function removeStaffMember(scope: StaffScope, userId: number): Promise<void> {
  const { roles, operators } = await rolesAndOperators(scope, userId);
  if (leavesNoOperator(operators, userId, [])) throw new DomainError('staff_last_operator');
  const passkeys = await scope.db.select({ name: staffPasskeys.name }).from(staffPasskeys).where(eq(staffPasskeys.userId, userId));
  await batch(scope.db, {
    roles: scope.db.delete(staffRoles).where(eq(staffRoles.userId, userId)),
    passkeys: scope.db.delete(staffPasskeys).where(eq(staffPasskeys.userId, userId)),
    audit: auditEntry(scope, {
      action: 'staff.remove',
      subjectType: 'staff_member',
      subjectId: userId,
      before: { roles, passkeys: passkeys.map((row) => row.name) },
      after: null,
    }),
  });
}
