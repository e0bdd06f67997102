/**
 * The Turnstile widget of a page's protected step (the login form, a waiting room's join): what the
 * page hands its script, and the page's own CSP opened to the widget's origin for scripts and frames.
 * Only these pages do so, and only when challenges are on: every other page's policy stays Astro's.
 */
import type { AstroGlobal } from 'astro';
import { challengeWidget, type ChallengeWidget, type TurnstileEnv } from '../services/protection/turnstile.ts';

export function pageChallenge(astro: Pick<AstroGlobal, 'csp'>, env: TurnstileEnv): ChallengeWidget | null {
  const widget = challengeWidget(env);
  if (widget) {
    const origin = new URL(widget.scriptUrl).origin;
    // A page's first inserted source replaces Astro's default 'self', which its own bundles need.
    astro.csp?.insertScriptResource("'self'");
    astro.csp?.insertScriptResource(origin);
    astro.csp?.insertDirective(`frame-src ${origin}`);
  }
  return widget;
}
