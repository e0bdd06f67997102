/**
 * What every console page reads with: the signed-in staff member whose roles cover the page's
 * permission, or the exit to the console's sign-in (nobody signed in) or to the 403 page (a buyer,
 * a seller, or staff whose roles do not cover it).
 */
import type { AstroGlobal } from 'astro';
import { DomainError } from '../domain/errors.ts';
import type { StaffPermission } from '../domain/staff.ts';
import type { StaffScope } from '../services/platform/scope.ts';
import { requireStaff } from '../services/staff/roles.ts';
import { PageExit } from './page-exit.ts';
import { signedInPage } from './signed-in.ts';

export interface StaffPage {
  scope: StaffScope;
}

export async function staffPage(astro: Pick<AstroGlobal, 'locals'>, permission: StaffPermission): Promise<StaffPage | PageExit> {
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return PageExit.signIn;
  try {
    return { scope: await requireStaff(signedIn.scope, permission) };
  } catch (error) {
    if (error instanceof DomainError && (error.code === 'not_staff' || error.code === 'staff_role_forbidden')) return PageExit.staffOnly;
    throw error;
  }
}
