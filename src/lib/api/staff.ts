/** The operator API's gate: after `signedIn`, only staff whose roles cover the route's permission go on (domain/staff.ts). */
import { createMiddleware } from 'hono/factory';
import type { StaffPermission } from '../domain/staff.ts';
import type { SessionUser } from '../services/accounts/sessions.ts';
import type { StaffScope } from '../services/platform/scope.ts';
import { requireStaff } from '../services/staff/roles.ts';
import type { SignedInEnv } from './session.ts';

/** The env of a handler behind `staffOnly`: its scope is a StaffScope. */
export type StaffEnv = SignedInEnv & { Variables: { user: SessionUser; scope: StaffScope } };

/** 403 `not_staff` for a buyer or seller, `staff_role_forbidden` for staff whose roles lack `permission`. */
export function staffOnly(permission: StaffPermission) {
  return createMiddleware<StaffEnv>(async (c, next) => {
    c.set('scope', await requireStaff(c.var.scope, permission));
    await next();
  });
}
