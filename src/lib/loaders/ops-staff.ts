/**
 * What the console's staff pages render: the sign-in (where a signed-in staff member goes straight
 * on), an invitation's join page (the invitation, or why it can no longer be used), the staff
 * screen's lists and a staff member's own passkeys.
 */
import type { AstroGlobal } from 'astro';
import { DomainError } from '../domain/errors.ts';
import { consoleReturnPath, type StaffInvitationRefusal } from '../domain/staff-access.ts';
import { pageI18n } from '../i18n/page.ts';
import { pathTo } from '../routes.ts';
import { userOfCookies } from '../services/accounts/sessions.ts';
import { type InvitationView, invitationView, recentInvitations } from '../services/staff/invitations.ts';
import { staffMembers } from '../services/staff/members.ts';
import { ownPasskeys } from '../services/staff/passkeys.ts';
import { staffRolesOf } from '../services/staff/roles.ts';
import { PageExit } from './page-exit.ts';
import { staffPage } from './staff-page.ts';

type PageAstro = Pick<AstroGlobal, 'locals' | 'url' | 'params'>;

/** The sign-in page: where to go afterwards (a console path the link named, else the console's home). */
export async function loadOpsSignIn(astro: PageAstro) {
  const { link } = pageI18n(astro.locals);
  const returnTo = consoleReturnPath(astro.url.searchParams.get('redirect')) ?? link(pathTo('opsPage'));
  const user = await userOfCookies(astro.locals.db, astro.locals.visitor.session, Date.now());
  if (user && (await staffRolesOf(astro.locals.db, user.userId)).length > 0) return PageExit.redirect(returnTo, 302);
  return { returnTo, passkeysPath: link('/ops/passkeys') };
}

export type JoinPage = { invitation: InvitationView; token: string } | { refusal: StaffInvitationRefusal | 'staff_invitation_not_found' };

const JOIN_REFUSALS = new Set([
  'staff_invitation_revoked',
  'staff_invitation_used',
  'staff_invitation_expired',
  'staff_invitation_not_found',
]);

/** An invitation's page: the open invitation, or the reason it cannot be used. */
export async function loadJoin(astro: PageAstro): Promise<JoinPage> {
  const token = astro.params.token ?? '';
  const now = Date.now();
  const user = await userOfCookies(astro.locals.db, astro.locals.visitor.session, now);
  try {
    return { invitation: await invitationView(astro.locals.db, token, user?.userId ?? null, now), token };
  } catch (error) {
    if (error instanceof DomainError && JOIN_REFUSALS.has(error.code)) return { refusal: error.code as StaffInvitationRefusal };
    throw error;
  }
}

/** The staff screen (operators): the staff and the latest invitations. */
export async function loadStaffScreen(astro: PageAstro) {
  const page = await staffPage(astro, 'staff');
  if (page instanceof PageExit) return page;
  const [members, invitations] = await Promise.all([staffMembers(page.scope), recentInvitations(page.scope)]);
  return { roles: page.scope.staffRoles, members, invitations };
}

/** A staff member's own passkeys. */
export async function loadPasskeysScreen(astro: PageAstro) {
  const page = await staffPage(astro, 'console');
  if (page instanceof PageExit) return page;
  return { roles: page.scope.staffRoles, passkeys: await ownPasskeys(page.scope) };
}
