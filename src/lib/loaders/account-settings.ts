/**
 * What the account settings page renders (auth route): the user's profile.
 */
import type { AstroGlobal } from 'astro';
import { signedInPage } from './signed-in.ts';
import { profileOf } from '../services/accounts/profile.ts';
import { PageExit } from './page-exit.ts';

export async function loadAccountSettings(astro: AstroGlobal) {
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;
  const profile = await profileOf(signedIn.scope);
  return {
    profile,
  };
}
