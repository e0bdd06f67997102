/** The hot search words of the header and the search page, per script (SPEC.md section 7). */
import { catalogueOf, type Locale } from '../../i18n/locales.ts';
import type { ReferenceData } from '../catalogue/reference-data.ts';

export interface HotKeywordView {
  id: number;
  keyword: string;
  landingPageType: number;
  landingPageParams: string;
  content: string;
}

/** The hot keywords of a locale's script, in display order (SPEC.md section 7). */
export function listHotKeywords(reference: ReferenceData, locale: Locale): HotKeywordView[] {
  const script = catalogueOf(locale);
  return reference.hotKeywords
    .filter((row) => row.locale === script)
    .map(({ id, keyword, landingPageType, landingPageParams, content }) => ({ id, keyword, landingPageType, landingPageParams, content }));
}
