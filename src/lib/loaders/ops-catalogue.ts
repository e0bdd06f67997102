/**
 * What the console's venue, artist and category pages render (permission 'catalogue'): the list,
 * and the form of a new record or of the one `?id=` names (404 for an id that names none).
 */
import type { AstroGlobal } from 'astro';
import { localizedAddress, localizedName } from '../i18n/locales.ts';
import type { MessageKey } from '../i18n/keys.ts';
import { pageI18n } from '../i18n/page.ts';
import { artistList, artistRecord, type ArtistRecord } from '../services/catalogue-editing/artists.ts';
import { categoryList, categoryRecord, type CategoryRecord } from '../services/catalogue-editing/categories.ts';
import { venueList, venueRecord, type VenueRecord } from '../services/catalogue-editing/venues.ts';
import { editedRecord } from './not-found.ts';
import { PageExit } from './page-exit.ts';
import { staffPage } from './staff-page.ts';

export type PlaceKind = 'venue' | 'artist' | 'category';

export interface FormField {
  name: string;
  label: string;
  type: 'text' | 'textarea' | 'number' | 'select' | 'checkbox' | 'poster';
  options?: { code: string; name: string }[];
  step?: string;
}

/** The three name fields every catalogue record has, labelled in the page's language. */
export function nameFields(
  t: (key: MessageKey) => string,
  field = 'names',
  keys: readonly [string, string, string] = ['nameEn', 'nameZhHant', 'nameZhHans'],
): FormField[] {
  return (['en', 'zhHant', 'zhHans'] as const).map((script, index) => ({
    name: `${field}.${script}`,
    label: t(`opsCatalogue.field.${keys[index]}` as MessageKey),
    type: 'text',
  }));
}

export const namesValues = (row: { nameEn: string; nameZhHant: string; nameZhHans: string } | null, field = 'names') => ({
  [`${field}.en`]: row?.nameEn ?? '',
  [`${field}.zhHant`]: row?.nameZhHant ?? '',
  [`${field}.zhHans`]: row?.nameZhHans ?? '',
});

export interface PlaceRow {
  id: number;
  name: string;
  detail: string;
}

export async function loadOpsPlaces(astro: AstroGlobal, kind: PlaceKind) {
  const { locale, t } = pageI18n(astro.locals);
  const page = await staffPage(astro, 'catalogue');
  if (page instanceof PageExit) return page;
  const { scope } = page;
  const { db } = scope;
  const cities = scope.reference.cities;
  const cityName = (id: number) => {
    const city = cities.find((row) => row.id === id);
    return city ? localizedName(city, locale) : '';
  };
  const text = (key: string) => t(`opsCatalogue.field.${key}` as MessageKey);

  if (kind === 'venue') {
    const edited = await editedRecord<VenueRecord>(astro.url.searchParams, (id) => venueRecord(db, id));
    if (edited instanceof PageExit) return edited;
    const firstCity = cities[0];
    const rows: PlaceRow[] = (await venueList(db, null)).map((venue) => ({
      id: venue.id,
      name: localizedName(venue, locale),
      detail: `${cityName(venue.cityId)} · ${localizedAddress(venue, locale)}`,
    }));
    return {
      page,
      rows,
      recordId: edited?.id ?? null,
      fields: [
        {
          name: 'cityId',
          label: text('city'),
          type: 'select',
          options: cities.map((city) => ({ code: String(city.id), name: localizedName(city, locale) })),
        },
        ...nameFields(t),
        { name: 'addressEn', label: text('addressEn'), type: 'text' },
        { name: 'addressZh', label: text('addressZh'), type: 'text' },
        { name: 'mapUrl', label: text('mapUrl'), type: 'text' },
        { name: 'longitude', label: text('longitude'), type: 'number', step: 'any' },
        { name: 'latitude', label: text('latitude'), type: 'number', step: 'any' },
      ] satisfies FormField[],
      initial: {
        cityId: String(edited?.cityId ?? firstCity?.id ?? ''),
        ...namesValues(edited),
        addressEn: edited?.addressEn ?? '',
        addressZh: edited?.addressZh ?? '',
        mapUrl: edited?.mapUrl ?? '',
        longitude: String(edited?.longitude ?? firstCity?.longitude ?? ''),
        latitude: String(edited?.latitude ?? firstCity?.latitude ?? ''),
      },
    };
  }

  if (kind === 'artist') {
    const edited = await editedRecord<ArtistRecord>(astro.url.searchParams, (id) => artistRecord(db, id));
    if (edited instanceof PageExit) return edited;
    const rows: PlaceRow[] = (await artistList(db)).map((artist) => ({
      id: artist.id,
      name: localizedName(artist, locale),
      detail: artist.nameEn,
    }));
    return {
      page,
      rows,
      recordId: edited?.id ?? null,
      fields: [...nameFields(t), { name: 'pinyin', label: text('pinyin'), type: 'text' }] satisfies FormField[],
      initial: { ...namesValues(edited), pinyin: edited?.pinyin ?? '' },
    };
  }

  const edited = await editedRecord<CategoryRecord>(astro.url.searchParams, (id) => categoryRecord(db, id));
  if (edited instanceof PageExit) return edited;
  const rows: PlaceRow[] = (await categoryList(db)).map((category) => ({
    id: category.id,
    name: localizedName(category, locale),
    detail: category.slug,
  }));
  return {
    page,
    rows,
    recordId: edited?.id ?? null,
    fields: [
      { name: 'slug', label: text('slug'), type: 'text' },
      ...nameFields(t),
      { name: 'pinyin', label: text('pinyin'), type: 'text' },
      { name: 'sort', label: text('sort'), type: 'number' },
    ] satisfies FormField[],
    initial: { slug: edited?.slug ?? '', ...namesValues(edited), pinyin: edited?.pinyin ?? '', sort: String(edited?.sort ?? 0) },
  };
}

export type OpsPlaces = Exclude<Awaited<ReturnType<typeof loadOpsPlaces>>, PageExit>;
