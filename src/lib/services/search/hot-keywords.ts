/** The hot search words of the header and the search page, per script (SPEC.md section 7). */
import { isLive } from '../../domain/storefront-schedule.ts';
import { catalogueOf, type Locale } from '../../i18n/locales.ts';
import type { ReferenceData } from '../catalogue/reference-data.ts';

export interface HotKeywordView {
  id: number;
  keyword: string;
  landingPageType: number;
  landingPageParams: string;
  content: string;
}

/**
 * The hot keywords of a locale's script live at `now`, in display order (SPEC.md section 7). The
 * kept reference tables hold scheduled words too, so a word's start and end need no reload.
 */
export function listHotKeywords(reference: ReferenceData, locale: Locale, now: number): HotKeywordView[] {
  const script = catalogueOf(locale);
  return reference.hotKeywords
    .filter((row) => row.locale === script && isLive(row, now))
    .map(({ id, keyword, landingPageType, landingPageParams, content }) => ({ id, keyword, landingPageType, landingPageParams, content }));
}
