/**
 * Server-side translation: one i18next instance holding the three catalogues, initialised
 * synchronously at module load (resources are bundled, nothing is fetched).
 */
import i18next, { type TFunction } from 'i18next';
import en from './locales/en.json';
import zhHant from './locales/zh-Hant.json';
import zhHans from './locales/zh-Hans.json';
import { catalogueOf, type Locale } from './locales.ts';

export const catalogues = { en, 'zh-Hant': zhHant, 'zh-Hans': zhHans } as const;
export type MessageKey = keyof typeof en;

const i18n = i18next.createInstance();
i18n.init({
  initAsync: false,
  resources: {
    en: { translation: en },
    'zh-Hant': { translation: zhHant },
    'zh-Hans': { translation: zhHans },
  },
  lng: 'en',
  fallbackLng: 'en',
  keySeparator: false,
  nsSeparator: false,
  // Astro and React escape on output; escaping here too would double-escape.
  interpolation: { escapeValue: false },
});

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** The translate function of a locale. */
export function translator(locale: Locale): Translate {
  const fixed: TFunction = i18n.getFixedT(catalogueOf(locale));
  return (key, params) => fixed(key, params) as string;
}
