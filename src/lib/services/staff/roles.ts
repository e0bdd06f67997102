/** Who is staff and what their roles let them do: the one check behind every console page and operator route. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { staffRoles } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { allows, type StaffPermission, type StaffRole } from '../../domain/staff.ts';
import type { StaffScope, UserScope } from '../platform/scope.ts';

/** The account's staff roles; none for a buyer or seller. */
export async function staffRolesOf(db: Db, userId: number): Promise<StaffRole[]> {
  const rows = await db.select({ role: staffRoles.role }).from(staffRoles).where(eq(staffRoles.userId, userId));
  return rows.map((row) => row.role);
}

/** The caller as staff whose roles cover `permission`: 403 `not_staff` for anyone else, `staff_role_forbidden` for a role without it. */
export async function requireStaff(scope: UserScope, permission: StaffPermission): Promise<StaffScope> {
  const roles = await staffRolesOf(scope.db, scope.userId);
  if (roles.length === 0) throw new DomainError('not_staff');
  if (!allows(roles, permission)) throw new DomainError('staff_role_forbidden');
  return { ...scope, staffRoles: roles };
}
