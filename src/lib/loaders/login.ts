/**
 * What the login page renders: the calling codes, the invitation of a friend's link (who invites and
 * the coupons the friend gets, in the page's currency) and the Turnstile widget of a new account's
 * first code. A signed-in visitor goes on where the link says, or home.
 */
import type { AstroGlobal } from 'astro';
import { safeRedirect } from '../domain/validation.ts';
import { localizedName } from '../i18n/locales.ts';
import { pageI18n } from '../i18n/page.ts';
import { pathTo } from '../routes.ts';
import { callingCodes } from '../services/accounts/sign-in.ts';
import { userOfCookies } from '../services/accounts/sessions.ts';
import { inviteeRewards, inviterByCode } from '../services/accounts/invitations.ts';
import { pageScope } from '../edge/page-scope.ts';
import { env } from 'cloudflare:workers';
import { pageChallenge } from '../edge/challenge.ts';
import { invitationHead } from '../edge/page-head.ts';
import { PageExit } from './page-exit.ts';

export async function loadLogin(astro: AstroGlobal) {
  const { locale, t, link } = pageI18n(astro.locals);
  const { db } = astro.locals;
  const redirect = safeRedirect(astro.url.searchParams.get('redirect'));
  const user = await userOfCookies(db, astro.locals.visitor.session, Date.now());
  if (user) return PageExit.redirect(redirect ?? link('/'), 302);

  const codes = await callingCodes(db, (row) => localizedName(row, locale));
  const inviteCode = astro.url.searchParams.get('inviteCode');
  // Only an invitation link reads the coupons, in the page's currency.
  const invitation = inviteCode
    ? await pageScope(astro).then(async (scope) => {
        const [inviter, rewards] = await Promise.all([inviterByCode(db, inviteCode).catch(() => null), inviteeRewards(scope)]);
        return inviter && { code: inviteCode, inviter, rewards, currency: scope.ctx.currency };
      })
    : null;
  // A new account's first code asks a Turnstile challenge: the form shows its widget when the server says so.
  const challenge = pageChallenge(astro, env);
  const initialTab: 'phone' | 'email' = astro.url.searchParams.get('type') === 'email' ? 'email' : 'phone';
  const links = {
    agreement: link(pathTo('userAgreement')),
    privacy: link(pathTo('privacyPage')),
    home: link('/'),
    login: pathTo('loginPage'),
  };
  return {
    head: invitation
      ? invitationHead(astro.url, locale, invitation.currency, t, invitation.code, invitation.inviter.nickname, invitation.rewards)
      : {},
    challenge,
    codes,
    initialTab,
    invitation,
    inviteCode,
    links,
    redirect,
  };
}
