/**
 * What the header shows on every page: the current city and the rotating hot search words. The
 * lists its two dialogs offer are not in the page: they load when a dialog first opens
 * (services/catalogue/header-choices.ts, served by GET /api/v1/header/choices).
 */
import { HOT_KEYWORDS_SHOWN } from '../config/browse.ts';
import { DEFAULT_CITY_ID } from '../config/request.ts';
import { type PickerCity, pickerCities } from '../services/catalogue/header-choices.ts';
import { listHotKeywords } from '../services/search/hot-keywords.ts';
import type { RequestScope } from '../services/platform/scope.ts';

export interface HeaderData {
  city: PickerCity;
  hotWords: string[];
}

/** Reads nothing: the reference tables in the scope hold all of it. */
export function headerData(scope: RequestScope): HeaderData {
  const { cityId, locale } = scope.ctx;
  const cities = pickerCities(scope.reference, locale);
  const city = cities.find((c) => c.id === cityId) ?? cities.find((c) => c.id === DEFAULT_CITY_ID);
  if (!city) throw new Error('The default city is missing: apply the migrations (0036 inserts the reference data)');
  return {
    city,
    hotWords: listHotKeywords(scope.reference, locale, scope.now)
      .slice(0, HOT_KEYWORDS_SHOWN)
      .map((k) => k.keyword),
  };
}
