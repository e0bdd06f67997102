/**
 * The storefront's curated kinds as the console's pages show them: each kind's services and input
 * schema, the fields of its form (named by the input's paths, so an error's field finds its input),
 * and how one of its records reads in the list.
 */
import type { z } from 'zod';
import { STOREFRONT_TIME_ZONE } from '../config/storefront.ts';
import { bannerBody, couponCampaignBody, hotSearchBody, lotteryBody, popupBody } from '../api/storefront-inputs.ts';
import { formatMoney } from '../domain/money.ts';
import { CAMPAIGN_AUDIENCES, localOfInstant } from '../domain/storefront-schedule.ts';
import type { Translate } from '../i18n/index.ts';
import { localizedName, catalogueOf, type Locale } from '../i18n/locales.ts';
import type { MessageKey } from '../i18n/keys.ts';
import type { StaffScope } from '../services/platform/scope.ts';
import { createBanner, listBanners, retireBanner, updateBanner, type BannerRecord } from '../services/storefront/banners.ts';
import {
  createCampaign,
  listCampaigns,
  retireCampaign,
  updateCampaign,
  type CampaignRecord,
} from '../services/storefront/coupon-campaigns.ts';
import {
  createHotSearch,
  HOT_SEARCH_SCRIPTS,
  listHotSearches,
  retireHotSearch,
  updateHotSearch,
  type HotSearchRecord,
} from '../services/storefront/hot-searches.ts';
import { createLottery, listLotteryRecords, retireLottery, updateLottery, type LotteryRecord } from '../services/storefront/lotteries.ts';
import { createPopup, listPopups, retirePopup, updatePopup, type PopupRecord } from '../services/storefront/popups.ts';

export type FieldKind = 'text' | 'textarea' | 'number' | 'datetime' | 'select' | 'money' | 'image';

export interface FieldSpec {
  /** The input's path: `startsAt`, `title.en`. */
  name: string;
  label: string;
  kind: FieldKind;
  hint?: string;
  /** Empty means null (an open end), not a missing value. */
  optional?: boolean;
  options?: { value: string; label: string }[];
  /** For money: the field naming its currency. */
  currencyField?: string;
}

export interface ItemView {
  id: number;
  state: 'scheduled' | 'live' | 'ended' | 'retired';
  title: string;
  lines: string[];
}

type CuratedRecord = { id: number; state: ItemView['state'] };

export interface Kind<Body extends z.ZodType = z.ZodType, R extends CuratedRecord = CuratedRecord> {
  /** Locale-free path of its page. */
  path: string;
  title: MessageKey;
  schema: Body;
  list: (scope: StaffScope) => Promise<R[]>;
  create: (scope: StaffScope, input: z.output<Body>) => Promise<unknown>;
  update: (scope: StaffScope, id: number, input: z.output<Body>) => Promise<unknown>;
  retire: (scope: StaffScope, id: number) => Promise<unknown>;
  fields: (scope: StaffScope, t: Translate, locale: Locale) => FieldSpec[];
  /** A new one's form: what is typed least often filled in. */
  defaults: (now: number) => { [name: string]: string };
  item: (record: R, scope: StaffScope, t: Translate, locale: Locale) => Omit<ItemView, 'id' | 'state'>;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const timeText = (ms: number) => localOfInstant(ms, STOREFRONT_TIME_ZONE).replace('T', ' ');
export const localInput = (ms: number) => localOfInstant(ms, STOREFRONT_TIME_ZONE);

const windowText = (t: Translate, from: number, until: number | null) =>
  t('storefront.window', { from: timeText(from), until: until === null ? t('storefront.open') : timeText(until) });

const scriptOptions = (t: Translate) => HOT_SEARCH_SCRIPTS.map((script) => ({ value: script, label: t(`storefront.script.${script}`) }));

const scheduleFields = (t: Translate, openEnd: boolean): FieldSpec[] => [
  { name: 'startsAt', label: t('storefront.field.startsAt'), kind: 'datetime' },
  openEnd
    ? { name: 'endsAt', label: t('storefront.field.endsAt'), kind: 'datetime', optional: true, hint: t('storefront.field.endsAtHint') }
    : { name: 'endsAt', label: t('storefront.field.endsAt'), kind: 'datetime' },
];

const cityOptions = (scope: StaffScope, locale: Locale) =>
  scope.reference.cities.map((city) => ({ value: String(city.id), label: localizedName(city, locale) }));

const currencyOptions = (scope: StaffScope) =>
  scope.reference.currencies.map((currency) => ({ value: currency.code, label: currency.code }));

/** Texts in each catalogue script, as fields `prefix.en`, `prefix.zh-Hant`, `prefix.zh-Hans`. */
const scriptFields = (
  t: Translate,
  prefix: string,
  label: 'storefront.field.title' | 'storefront.field.body' | 'storefront.field.name',
  kind: FieldKind,
) =>
  HOT_SEARCH_SCRIPTS.map((script) => ({
    name: `${prefix}.${script}`,
    label: t(label, { script: t(`storefront.script.${script}`) }),
    kind,
  }));

const money = (scope: StaffScope, amount: number, currency: string, locale: Locale) =>
  formatMoney({ amount, currency }, locale, scope.currencies.get(currency)?.minorDigits ?? 2);

const banners: Kind<typeof bannerBody, BannerRecord> = {
  path: '/ops/storefront/banners',
  title: 'title.opsBannersPage',
  schema: bannerBody,
  list: listBanners,
  create: createBanner,
  update: updateBanner,
  retire: retireBanner,
  fields: (scope, t, locale) => [
    { name: 'cityId', label: t('storefront.field.cityId'), kind: 'select', options: cityOptions(scope, locale) },
    { name: 'poster', label: t('storefront.field.poster'), kind: 'image', hint: t('storefront.field.posterHint') },
    { name: 'url', label: t('storefront.field.url'), kind: 'text' },
    { name: 'sort', label: t('storefront.field.sort'), kind: 'number' },
    ...scheduleFields(t, true),
  ],
  defaults: (now) => ({ cityId: '', poster: '', url: '/', sort: '0', startsAt: localInput(now), endsAt: '' }),
  item: (record, scope, t, locale) => {
    const city = scope.reference.cities.find((row) => row.id === record.cityId);
    return {
      title: `${city ? localizedName(city, locale) : `#${record.cityId}`} · ${record.url}`,
      lines: [record.poster, windowText(t, record.startsAt, record.endsAt)],
    };
  },
};

const hotSearches: Kind<typeof hotSearchBody, HotSearchRecord> = {
  path: '/ops/storefront/hot-searches',
  title: 'title.opsHotSearchesPage',
  schema: hotSearchBody,
  list: listHotSearches,
  create: createHotSearch,
  update: updateHotSearch,
  retire: retireHotSearch,
  fields: (_scope, t) => [
    { name: 'locale', label: t('storefront.field.locale'), kind: 'select', options: scriptOptions(t) },
    { name: 'keyword', label: t('storefront.field.keyword'), kind: 'text' },
    { name: 'content', label: t('storefront.field.content'), kind: 'text' },
    { name: 'sort', label: t('storefront.field.sort'), kind: 'number' },
    ...scheduleFields(t, true),
  ],
  defaults: (now) => ({ locale: 'en', keyword: '', content: '', sort: '0', startsAt: localInput(now), endsAt: '' }),
  item: (record, _scope, t) => ({
    title: record.keyword,
    lines: [t(`storefront.script.${record.locale}`), windowText(t, record.startsAt, record.endsAt), record.content].filter(Boolean),
  }),
};

const popups: Kind<typeof popupBody, PopupRecord> = {
  path: '/ops/storefront/popups',
  title: 'title.opsPopupsPage',
  schema: popupBody,
  list: listPopups,
  create: createPopup,
  update: updatePopup,
  retire: retirePopup,
  fields: (scope, t) => [
    ...scriptFields(t, 'title', 'storefront.field.title', 'text'),
    ...scriptFields(t, 'body', 'storefront.field.body', 'textarea').map((field) => ({ ...field, hint: t('storefront.field.bodyHint') })),
    { name: 'link', label: t('storefront.field.link'), kind: 'text' },
    { name: 'currency', label: t('storefront.field.currency'), kind: 'select', options: currencyOptions(scope) },
    ...scheduleFields(t, false),
  ],
  defaults: (now) => ({
    'title.en': '',
    'title.zh-Hant': '',
    'title.zh-Hans': '',
    'body.en': '',
    'body.zh-Hant': '',
    'body.zh-Hans': '',
    link: '',
    currency: 'HKD',
    startsAt: localInput(now),
    endsAt: localInput(now + 7 * DAY),
  }),
  item: (record, _scope, t, locale) => {
    const script = catalogueOf(locale);
    return {
      title: record.title[script] || record.title.en,
      lines: [record.body[script] || record.body.en, record.link, windowText(t, record.startsAt, record.endsAt)].filter(Boolean),
    };
  },
};

const coupons: Kind<typeof couponCampaignBody, CampaignRecord> = {
  path: '/ops/storefront/coupons',
  title: 'title.opsCouponsPage',
  schema: couponCampaignBody,
  list: listCampaigns,
  create: createCampaign,
  update: updateCampaign,
  retire: retireCampaign,
  fields: (scope, t, locale) => [
    ...scriptFields(t, 'names', 'storefront.field.name', 'text'),
    { name: 'currency', label: t('storefront.field.currency'), kind: 'select', options: currencyOptions(scope) },
    { name: 'amount', label: t('storefront.field.amount'), kind: 'money', currencyField: 'currency' },
    { name: 'minSpend', label: t('storefront.field.minSpend'), kind: 'money', currencyField: 'currency' },
    { name: 'validFrom', label: t('storefront.field.validFrom'), kind: 'datetime' },
    { name: 'validTo', label: t('storefront.field.validTo'), kind: 'datetime' },
    {
      name: 'audience',
      label: t('storefront.field.audience'),
      kind: 'select',
      options: CAMPAIGN_AUDIENCES.map((audience) => ({ value: audience, label: t(`storefront.audience.${audience}`) })),
    },
    { name: 'cityId', label: t('storefront.field.campaignCity'), kind: 'select', optional: true, options: cityOptions(scope, locale) },
    { name: 'claimLimit', label: t('storefront.field.claimLimit'), kind: 'number' },
    { name: 'startsAt', label: t('storefront.field.claimWindow'), kind: 'datetime' },
    { name: 'endsAt', label: t('storefront.field.claimEnds'), kind: 'datetime' },
  ],
  defaults: (now) => ({
    'names.en': '',
    'names.zh-Hant': '',
    'names.zh-Hans': '',
    currency: 'HKD',
    amount: '',
    minSpend: '0',
    validFrom: localInput(now),
    validTo: localInput(now + 30 * DAY),
    audience: 'all',
    cityId: '',
    claimLimit: '100',
    startsAt: localInput(now),
    endsAt: localInput(now + 7 * DAY),
  }),
  item: (record, scope, t, locale) => ({
    title: catalogueOf(locale) === 'en' ? record.names.en : record.names[catalogueOf(locale)] || record.names.en,
    lines: [
      t('storefront.coupon.terms', {
        amount: money(scope, record.amount, record.currency, locale),
        minimum: money(scope, record.minSpend, record.currency, locale),
        from: timeText(record.validFrom),
        until: timeText(record.validTo),
      }),
      `${t(`storefront.audience.${record.audience}`)} · ${t('storefront.claimed', { claimed: record.claimed, limit: record.claimLimit })}`,
      windowText(t, record.startsAt, record.endsAt),
    ],
  }),
};

const lotteries: Kind<typeof lotteryBody, LotteryRecord> = {
  path: '/ops/storefront/lotteries',
  title: 'title.opsLotteriesPage',
  schema: lotteryBody,
  list: listLotteryRecords,
  create: createLottery,
  update: updateLottery,
  retire: retireLottery,
  fields: (_scope, t) => [
    { name: 'tierId', label: t('storefront.field.tierId'), kind: 'number' },
    { name: 'prizeCount', label: t('storefront.field.prizeCount'), kind: 'number' },
    { name: 'ticketsPerPrize', label: t('storefront.field.ticketsPerPrize'), kind: 'number' },
    { name: 'maxCodesPerEntry', label: t('storefront.field.maxCodesPerEntry'), kind: 'number' },
    { name: 'entryOpensAt', label: t('storefront.field.entryOpensAt'), kind: 'datetime' },
    {
      name: 'entryClosesAt',
      label: t('storefront.field.entryClosesAt'),
      kind: 'datetime',
      optional: true,
      hint: t('storefront.field.entryClosesAtHint'),
    },
    { name: 'drawAt', label: t('storefront.field.drawAt'), kind: 'datetime' },
  ],
  defaults: (now) => ({
    tierId: '',
    prizeCount: '1',
    ticketsPerPrize: '1',
    maxCodesPerEntry: '5',
    entryOpensAt: localInput(now),
    entryClosesAt: '',
    drawAt: localInput(now + 7 * DAY),
  }),
  item: (record, _scope, t) => ({
    title: `#${record.id}`,
    lines: [
      t('storefront.lottery.summary', {
        tierId: record.tierId,
        prizeCount: record.prizeCount,
        tickets: record.ticketsPerPrize,
        entries: record.entries,
        drawAt: timeText(record.drawAt),
      }),
      windowText(t, record.entryOpensAt, record.entryClosesAt ?? record.drawAt),
    ],
  }),
};

/** The kinds, in the order the overview lists them. */
export const STOREFRONT_KINDS = { banners, hotSearches, popups, coupons, lotteries } as const;
export type KindName = keyof typeof STOREFRONT_KINDS;
