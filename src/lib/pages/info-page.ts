/**
 * What the info pages share. They are rendered on the server, not prerendered: the header they carry
 * shows the visitor's city and sign-in state, and an unprefixed URL speaks the visitor's language, so
 * one URL differs per visitor. The browser may keep its copy for an hour, for the same cookies.
 */
import { PAYMENT_TIME_LIMIT_MS, SUPPORT_EMAIL } from '../config.ts';
import { liabilityCap } from '../domain/legal-text.ts';
import type { Translate } from '../i18n/index.ts';

export const INFO_PAGE_CACHE_CONTROL = 'private, max-age=3600';

/** Lets the browser reuse an info page for an hour, only with the same cookies and languages. */
export function cacheInfoPage(headers: Headers): void {
  headers.set('Cache-Control', INFO_PAGE_CACHE_CONTROL);
  headers.set('Vary', 'Cookie, Accept-Language');
}

/** The values the legal texts interpolate. */
export function legalParams(locale: string, t: Translate): Record<string, string | number> {
  return { brand: t('site.brand'), email: SUPPORT_EMAIL, minutes: PAYMENT_TIME_LIMIT_MS / 60_000, liabilityCap: liabilityCap(locale) };
}
