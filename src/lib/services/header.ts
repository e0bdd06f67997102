/** What the header shows: the current city's name, the rotating hot search words, the languages. */
import { asc, eq } from 'drizzle-orm';
import { HOT_KEYWORDS_SHOWN } from '../config.ts';
import type { Db } from '../db/client.ts';
import { hotKeywords } from '../db/schema.ts';
import { catalogueOf, type Locale } from '../i18n/locales.ts';
import { currentCity, listLanguages, type LanguageView } from './catalogue.ts';

export interface HeaderData {
  cityName: string;
  hotWords: string[];
  languages: LanguageView[];
}

export async function headerData(db: Db, cityId: number, locale: Locale): Promise<HeaderData> {
  const [city, words, languages] = await Promise.all([
    currentCity(db, cityId, locale),
    db
      .select({ keyword: hotKeywords.keyword })
      .from(hotKeywords)
      .where(eq(hotKeywords.locale, catalogueOf(locale)))
      .orderBy(asc(hotKeywords.sort), asc(hotKeywords.id))
      .limit(HOT_KEYWORDS_SHOWN),
    listLanguages(db),
  ]);
  return { cityName: city.cityName, hotWords: words.map((w) => w.keyword), languages };
}
