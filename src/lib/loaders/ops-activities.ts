/**
 * What the console's activity pages render (permission 'catalogue'): the list (by name or id,
 * published or not), and the form of a new activity or of one with its sessions and tiers.
 */
import type { AstroGlobal } from 'astro';
import { DEFAULT_CURRENCY } from '../config/request.ts';
import { wallTime } from '../domain/calendar.ts';
import { formatDateRange } from '../domain/datetime.ts';
import { UNPUBLISHED_STATUS, SALE_STATUSES } from '../domain/catalogue-drafts.ts';
import { localizedName } from '../i18n/locales.ts';
import type { MessageKey } from '../i18n/keys.ts';
import { pageI18n } from '../i18n/page.ts';
import { pathTo } from '../routes.ts';
import { activityList, editedActivity, type EditedActivity, type PublishFilter } from '../services/catalogue-editing/activities.ts';
import { artistList } from '../services/catalogue-editing/artists.ts';
import { sellerChoices } from '../services/catalogue-editing/box-office.ts';
import { categoryList } from '../services/catalogue-editing/categories.ts';
import { venueList } from '../services/catalogue-editing/venues.ts';
import type { StaffScope } from '../services/platform/scope.ts';
import { type FormField, nameFields, namesValues } from './ops-catalogue.ts';
import { orNotFound } from './not-found.ts';
import { PageExit } from './page-exit.ts';
import { staffPage } from './staff-page.ts';

const FILTERS: readonly PublishFilter[] = ['all', 'draft', 'published'];
const PAGE = /^[1-9]\d{0,3}$/;

export async function loadOpsActivities(astro: AstroGlobal) {
  const { locale } = pageI18n(astro.locals);
  const page = await staffPage(astro, 'catalogue');
  if (page instanceof PageExit) return page;
  const params = astro.url.searchParams;
  const query = (params.get('q') ?? '').slice(0, 100);
  const asked = params.get('published') as PublishFilter | null;
  const published = asked && FILTERS.includes(asked) ? asked : 'all';
  const pageNumber = PAGE.test(params.get('page') ?? '') ? Number(params.get('page')) : 1;
  const { scope } = page;
  const rows = await activityList(scope.db, { query, published, page: pageNumber });
  const cities = scope.reference.cities;
  return {
    page,
    query,
    published,
    filters: FILTERS,
    rows: rows.map((row) => {
      const city = cities.find((each) => each.id === row.cityId);
      return {
        id: row.id,
        name: localizedName(row, locale),
        published: row.status !== UNPUBLISHED_STATUS,
        starts: city ? formatDateRange(row.startsAt, row.startsAt, locale, city.timeZone) : '',
        venue: row.venueNameEn,
      };
    }),
  };
}

/** The activity form's fields, its choices read from the catalogue. */
async function activityFields(scope: StaffScope, t: (key: MessageKey) => string, locale: Parameters<typeof localizedName>[1]) {
  const [venues, artists, categories, sellers] = await Promise.all([
    venueList(scope.db, null),
    artistList(scope.db),
    categoryList(scope.db),
    sellerChoices(scope.db),
  ]);
  const cities = scope.reference.cities;
  const text = (key: string) => t(`opsCatalogue.field.${key}` as MessageKey);
  const option = (row: { id: number; nameEn: string; nameZhHant: string; nameZhHans: string }) => ({
    code: String(row.id),
    name: localizedName(row, locale),
  });
  const cityOf = (id: number) => cities.find((city) => city.id === id);
  const fields: FormField[] = [
    ...nameFields(t),
    { name: 'categoryId', label: text('category'), type: 'select', options: categories.map(option) },
    { name: 'cityId', label: text('city'), type: 'select', options: cities.map(option) },
    {
      name: 'venueId',
      label: text('venue'),
      type: 'select',
      options: venues.map((venue) => {
        const city = cityOf(venue.cityId);
        return { code: String(venue.id), name: `${localizedName(venue, locale)}${city ? ` (${localizedName(city, locale)})` : ''}` };
      }),
    },
    { name: 'artistId', label: text('artist'), type: 'select', options: [{ code: '', name: text('noArtist') }, ...artists.map(option)] },
    {
      name: 'boxOfficeSellerId',
      label: text('boxOffice'),
      type: 'select',
      options: [{ code: '', name: text('noBoxOffice') }, ...sellers.map((seller) => ({ code: String(seller.id), name: seller.name }))],
    },
    {
      name: 'saleStatus',
      label: text('saleStatus'),
      type: 'select',
      options: SALE_STATUSES.map((status) => ({ code: String(status), name: t(`opsCatalogue.saleStatus.${status}`) })),
    },
    { name: 'numMax', label: text('numMax'), type: 'number' },
    { name: 'realNameRequired', label: text('realName'), type: 'checkbox' },
    ...nameFields(t, 'descriptions', ['descriptionEn', 'descriptionZhHant', 'descriptionZhHans']).map((field) => ({
      ...field,
      type: 'textarea' as const,
    })),
    ...nameFields(t, 'buyingNotes', ['notesEn', 'notesZhHant', 'notesZhHans']).map((field) => ({ ...field, type: 'textarea' as const })),
    { name: 'poster', label: text('poster'), type: 'poster' },
  ];
  return { fields, venues, categories };
}

/** The form of a new activity (`id` null) or of an existing one, with its sessions and tiers as their forms show them. */
export async function loadOpsActivity(astro: AstroGlobal, id: number | null) {
  const { locale, t, link } = pageI18n(astro.locals);
  const page = await staffPage(astro, 'catalogue');
  if (page instanceof PageExit) return page;
  const { scope } = page;
  const edited = id === null ? null : await orNotFound(editedActivity(scope.db, id));
  if (edited instanceof PageExit) return edited;
  const { fields, venues, categories } = await activityFields(scope, t, locale);
  const activity = edited?.activity ?? null;
  const cityId = activity?.cityId ?? scope.reference.cities[0]?.id ?? 0;
  const initial: Record<string, string> = {
    ...namesValues(activity),
    ...namesValues(
      activity && { nameEn: activity.descriptionEn, nameZhHant: activity.descriptionZhHant, nameZhHans: activity.descriptionZhHans },
      'descriptions',
    ),
    ...namesValues(
      activity && { nameEn: activity.buyingNotesEn, nameZhHant: activity.buyingNotesZhHant, nameZhHans: activity.buyingNotesZhHans },
      'buyingNotes',
    ),
    categoryId: String(activity?.categoryId ?? categories[0]?.id ?? ''),
    cityId: String(cityId),
    venueId: String(activity?.venueId ?? venues.find((venue) => venue.cityId === cityId)?.id ?? venues[0]?.id ?? ''),
    artistId: activity?.artistId ? String(activity.artistId) : '',
    boxOfficeSellerId: activity?.boxOfficeSellerId ? String(activity.boxOfficeSellerId) : '',
    saleStatus: String(activity?.saleStatus ?? SALE_STATUSES[0]),
    numMax: String(activity?.numMax ?? 6),
    realNameRequired: String(activity?.realNameRequired ?? false),
    poster: activity?.poster ?? '',
  };
  return {
    page,
    fields,
    initial,
    openPath: link('/ops/activities/'),
    edited: edited && scheduleOf(edited, scope),
    previewPath: activity && link(pathTo('detailPage', { id: activity.id })),
  };
}

/** An edited activity's sessions and tiers as the schedule's forms show them: wall-clock times of its city, face values in major units. */
function scheduleOf({ activity, sessions }: EditedActivity, scope: StaffScope) {
  const timeZone = scope.reference.cities.find((city) => city.id === activity.cityId)?.timeZone ?? 'Asia/Hong_Kong';
  const time = (ms: number | null) => (ms === null ? '' : wallTime(ms, timeZone));
  const digits = (currency: string) => scope.currencies.get(currency)?.minorDigits ?? 0;
  const blankTier = { 'names.en': '', 'names.zhHant': '', 'names.zhHans': '', faceValue: '', currency: DEFAULT_CURRENCY, quota: '' };
  return {
    id: activity.id,
    name: activity.nameEn,
    published: activity.status !== UNPUBLISHED_STATUS,
    timeZone,
    currencies: [...scope.currencies.values()].map(({ code, minorDigits }) => ({ code, minorDigits })),
    blankSession: { startsAt: '', endsAt: '', onSaleAt: '', offSaleAt: '', accountTicketCap: '', highDemand: 'false' },
    blankTier,
    sessions: sessions.map((session) => ({
      id: session.id,
      ordered: session.ordered,
      values: {
        startsAt: time(session.startsAt),
        endsAt: time(session.endsAt),
        onSaleAt: time(session.onSaleAt),
        offSaleAt: time(session.offSaleAt),
        accountTicketCap: session.accountTicketCap === null ? '' : String(session.accountTicketCap),
        highDemand: String(session.highDemand),
      },
      tiers: session.tiers.map((tier) => ({
        id: tier.id,
        sold: tier.sold,
        values: {
          ...namesValues(tier),
          faceValue: (tier.faceValue / 10 ** digits(tier.currency)).toFixed(digits(tier.currency)),
          currency: tier.currency,
          quota: String(tier.quota),
          sort: String(tier.sort),
        },
      })),
    })),
  };
}

export type OpsActivity = Exclude<Awaited<ReturnType<typeof loadOpsActivity>>, PageExit>;
