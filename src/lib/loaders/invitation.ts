/**
 * What the invitation page renders (auth route): the user's invitation code, its share link on the
 * public origin, and the coupons it gives the friend and the inviter.
 */
import type { AstroGlobal } from 'astro';
import { env } from 'cloudflare:workers';
import { pageI18n } from '../i18n/page.ts';
import { invitationOf, type InvitationReward } from '../services/accounts/invitations.ts';
import { requirePublicOrigin } from '../services/platform/public-origin.ts';
import { signedInPage } from './signed-in.ts';
import { invitationRewardText } from '../edge/invitation-rewards.ts';
import { PageExit } from './page-exit.ts';

export async function loadInvitation(astro: AstroGlobal) {
  const { t } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;

  const invitation = await invitationOf(signedIn.scope);
  const shareUrl = new URL(invitation.sharePath, requirePublicOrigin(env, astro.url)).href;
  const rewardText = (rewards: InvitationReward[]) => rewards.map((reward) => invitationRewardText(t, reward)).join('; ');
  return {
    invitation,
    rewardText,
    shareUrl,
  };
}
