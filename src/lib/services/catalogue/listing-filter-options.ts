/** The listing page's filter options (categories, hot cities, time presets, sorts), each with its locale-free URL. */
import { matchingPreset, presetRange, TIME_PRESETS } from '../../domain/listing-filters.ts';
import { ALL_CATEGORIES, ALL_CITIES, listingUrl, SORTS, type ListingQuery, type Sort } from '../../domain/listing-url.ts';
import type { RequestContext } from '../../domain/request-context.ts';
import { translator } from '../../i18n/index.ts';
import { localizedName } from '../../i18n/locales.ts';
import type { CategoryView, CityView } from './catalogue.ts';
import type { CityRow } from './reference-data.ts';

export interface FilterOption {
  /** A category slug, a city id, a time preset or a sort; `all` for no filter. */
  id: string;
  name: string;
  /** The locale-free listing URL with this option chosen (and page 1). */
  url: string;
  selected: boolean;
}

const CATEGORY_SORTS: readonly Sort[] = SORTS.filter((sort) => sort !== 'relevance');
const SEARCH_SORTS: readonly Sort[] = ['relevance', 'time', 'hot', 'price'];

/** Every filter of a listing page, each option with its URL. */
export interface FilterOptions {
  categoryFilters: FilterOption[];
  hotCityFilters: FilterOption[];
  timeFilters: FilterOption[];
  sortFilters: FilterOption[];
}

interface FilterSources {
  categoryList: CategoryView[];
  hot: CityView[];
  category: CategoryView | null;
  city: CityRow | null;
  today: string;
}

export function filterOptions(
  query: ListingQuery,
  ctx: RequestContext,
  { categoryList, hot, category, city, today }: FilterSources,
): FilterOptions {
  const t = translator(ctx.locale);
  const first = { ...query, page: 1 };
  const categoryUrl = (slug: string) =>
    first.kind === 'category'
      ? listingUrl({ ...first, category: slug })
      : listingUrl({ ...first, category: slug === ALL_CATEGORIES ? undefined : slug });
  const selectedSlug = category?.slug ?? ALL_CATEGORIES;
  const categoryFilters: FilterOption[] = [
    { id: ALL_CATEGORIES, name: t('listing.allCategories'), url: categoryUrl(ALL_CATEGORIES), selected: selectedSlug === ALL_CATEGORIES },
    ...categoryList.map((item) => ({ id: item.slug, name: item.name, url: categoryUrl(item.slug), selected: item.slug === selectedSlug })),
  ];

  const cityOptions = hot.map((item) => ({ id: item.cityId, name: item.cityName }));
  if (city && !cityOptions.some((item) => item.id === city.id)) cityOptions.push({ id: city.id, name: localizedName(city, ctx.locale) });
  const hotCityFilters: FilterOption[] = [
    { id: ALL_CITIES, name: t('listing.allCities'), url: listingUrl({ ...first, cityId: ALL_CITIES }), selected: !city },
    ...cityOptions.map((item) => ({
      id: String(item.id),
      name: item.name,
      url: listingUrl({ ...first, cityId: item.id }),
      selected: item.id === city?.id,
    })),
  ];

  const preset = matchingPreset(query, today);
  const timeFilters: FilterOption[] = TIME_PRESETS.map((id) => {
    const range = presetRange(id, today);
    return { id, name: t(`listing.time.${id}`), url: listingUrl({ ...first, from: range.from, to: range.to }), selected: id === preset };
  });

  const sortFilters: FilterOption[] = (query.kind === 'search' ? SEARCH_SORTS : CATEGORY_SORTS).map((id) => ({
    id,
    name: t(`listing.sort.${id}`),
    url: listingUrl({ ...first, sort: id }),
    selected: id === query.sort,
  }));
  return { categoryFilters, hotCityFilters, timeFilters, sortFilters };
}
