/** The hot search words of the header and the search page, per script (SPEC.md section 7). */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { hotKeywords } from '../db/schema.ts';
import { catalogueOf, type Locale } from '../i18n/locales.ts';

export interface HotKeywordView {
  id: number;
  keyword: string;
  landingPageType: number;
  landingPageParams: string;
  content: string;
}

/** The hot keywords of a locale's script, in display order (SPEC.md section 7). */
export async function listHotKeywords(db: Db, locale: Locale): Promise<HotKeywordView[]> {
  return db
    .select({
      id: hotKeywords.id,
      keyword: hotKeywords.keyword,
      landingPageType: hotKeywords.landingPageType,
      landingPageParams: hotKeywords.landingPageParams,
      content: hotKeywords.content,
    })
    .from(hotKeywords)
    .where(eq(hotKeywords.locale, catalogueOf(locale)))
    .orderBy(asc(hotKeywords.sort), asc(hotKeywords.id));
}
