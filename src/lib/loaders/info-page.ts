/**
 * What the info pages share. They are rendered on the server, not prerendered: the header they carry
 * shows the visitor's city and sign-in state, and an unprefixed URL speaks the visitor's language, so
 * one URL differs per visitor; anonymous visitors get them from the edge cache (shared-page-cache.ts).
 */
import { SUPPORT_EMAIL } from '../config/company.ts';
import { PAYMENT_TIME_LIMIT_MS } from '../config/orders.ts';
import { liabilityCap } from '../domain/legal-text.ts';
import type { Translate } from '../i18n/index.ts';

/** The values the legal texts interpolate. */
export function legalParams(locale: string, t: Translate): Record<string, string | number> {
  return { brand: t('site.brand'), email: SUPPORT_EMAIL, minutes: PAYMENT_TIME_LIMIT_MS / 60_000, liabilityCap: liabilityCap(locale) };
}
