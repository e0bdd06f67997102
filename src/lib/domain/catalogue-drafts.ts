/**
 * The rules of what the console writes into the catalogue (venues, artists, categories, activities,
 * sessions, ticket tiers) and the rows it writes: the services check every draft here before they
 * write, and the demo seed builds its rows through the same functions, so no row of either breaks
 * them. Each problem names its field (as the form and the API name it) and its error code, which is
 * also the catalogue key `error.{code}` of its message.
 */
import {
  CATALOGUE_LINE_MAX_LENGTH,
  CATALOGUE_NAME_MAX_LENGTH,
  CATALOGUE_TEXT_MAX_LENGTH,
  ORDER_TICKET_MAX,
  SESSION_TICKET_CAP_MAX,
  TIER_QUOTA_MAX,
} from '../config/catalogue.ts';
import { ACTIVITY_STATUS } from './activity.ts';
import { hasControlCharacter } from './text.ts';

export type DraftProblemCode =
  | 'name_required'
  | 'text_too_long'
  | 'address_required'
  | 'map_url_invalid'
  | 'coordinates_invalid'
  | 'slug_invalid'
  | 'poster_invalid'
  | 'sale_status_invalid'
  | 'ticket_limit_invalid'
  | 'session_times_invalid'
  | 'sale_times_unordered'
  | 'account_cap_invalid'
  | 'face_value_invalid'
  | 'tier_currency_unknown'
  | 'quota_invalid'
  | 'quota_below_sold';

export interface DraftProblem {
  field: string;
  code: DraftProblemCode;
}

/** A text in English, Traditional and Simplified Chinese. */
export interface Names {
  en: string;
  zhHant: string;
  zhHans: string;
}

export const SCRIPTS = ['en', 'zhHant', 'zhHans'] as const satisfies readonly (keyof Names)[];

/** The sale states an editor may give an activity: on sale, priority booking, not yet on sale, ended. */
export const SALE_STATUSES = [ACTIVITY_STATUS.onSale, ACTIVITY_STATUS.booking, ACTIVITY_STATUS.notYetOnSale, 7] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];
/** `activities.status` of an activity no buyer sees: a draft, or one unpublished. */
export const UNPUBLISHED_STATUS = 0;

export interface VenueDraft {
  cityId: number;
  names: Names;
  addressEn: string;
  addressZh: string;
  /** '' for the link made from the coordinates. */
  mapUrl: string;
  longitude: number;
  latitude: number;
}

export interface ArtistDraft {
  names: Names;
  pinyin: string;
}

export interface CategoryDraft {
  slug: string;
  names: Names;
  pinyin: string;
  sort: number;
}

export interface ActivityDraft {
  categoryId: number;
  cityId: number;
  venueId: number;
  artistId: number | null;
  /** The seller account that sells each tier's quota at face value once published; null: resale only. */
  boxOfficeSellerId: number | null;
  names: Names;
  descriptions: Names;
  buyingNotes: Names;
  realNameRequired: boolean;
  /** The poster's path as the image upload answered it; '' while it has none. */
  poster: string;
  saleStatus: number;
  /** The most tickets of one tier in one order. */
  numMax: number;
}

export interface SessionDraft {
  startsAt: number;
  endsAt: number;
  onSaleAt: number;
  offSaleAt: number;
  /** null: the default cap (ACCOUNT_TICKET_CAP). */
  accountTicketCap: number | null;
  highDemand: boolean;
}

export interface TierDraft {
  names: Names;
  /** Minor units of `currency`. */
  faceValue: number;
  currency: string;
  quota: number;
  sort: number;
}

function textProblem(field: string, value: string, max: number, required: boolean): DraftProblem | null {
  if (required && value.trim() === '') return { field, code: 'name_required' };
  if ([...value].length > max) return { field, code: 'text_too_long' };
  return null;
}

/** Each script's text: required (names) or not (descriptions, notes), and not too long. */
export function namesProblems(field: string, names: Names, { required = true, max = CATALOGUE_NAME_MAX_LENGTH } = {}): DraftProblem[] {
  return SCRIPTS.map((script) => textProblem(`${field}.${script}`, names[script], max, required)).filter((p) => p !== null);
}

/** An https link with a host, nothing else (no javascript:, no http:, no relative path). */
export function isHttpsUrl(value: string): boolean {
  if (value.length > CATALOGUE_LINE_MAX_LENGTH || hasControlCharacter(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** A path of this site's own ("/posters/…"), as the image upload answers it; '' for none. */
export function isPosterPath(value: string): boolean {
  if (value === '') return true;
  return (
    value.length <= CATALOGUE_LINE_MAX_LENGTH && /^\/[A-Za-z0-9._~/-]+$/.test(value) && !value.startsWith('//') && !value.includes('..')
  );
}

export function venueProblems(draft: VenueDraft): DraftProblem[] {
  const problems = namesProblems('names', draft.names);
  for (const field of ['addressEn', 'addressZh'] as const) {
    const problem = textProblem(field, draft[field], CATALOGUE_LINE_MAX_LENGTH, true);
    if (problem) problems.push(problem.code === 'name_required' ? { field, code: 'address_required' } : problem);
  }
  if (draft.mapUrl !== '' && !isHttpsUrl(draft.mapUrl)) problems.push({ field: 'mapUrl', code: 'map_url_invalid' });
  const { longitude, latitude } = draft;
  if (!(Math.abs(longitude) <= 180 && Math.abs(latitude) <= 90)) problems.push({ field: 'longitude', code: 'coordinates_invalid' });
  return problems;
}

export function artistProblems(draft: ArtistDraft): DraftProblem[] {
  const problems = namesProblems('names', draft.names);
  const pinyin = textProblem('pinyin', draft.pinyin, CATALOGUE_NAME_MAX_LENGTH, false);
  return pinyin ? [...problems, pinyin] : problems;
}

export function categoryProblems(draft: CategoryDraft): DraftProblem[] {
  const problems = artistProblems(draft);
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(draft.slug) || draft.slug.length > 60) problems.push({ field: 'slug', code: 'slug_invalid' });
  return problems;
}

export function activityProblems(draft: ActivityDraft): DraftProblem[] {
  const problems = [
    ...namesProblems('names', draft.names),
    ...namesProblems('descriptions', draft.descriptions, { max: CATALOGUE_TEXT_MAX_LENGTH }),
    ...namesProblems('buyingNotes', draft.buyingNotes, { required: false, max: CATALOGUE_TEXT_MAX_LENGTH }),
  ];
  if (!isPosterPath(draft.poster)) problems.push({ field: 'poster', code: 'poster_invalid' });
  if (!(SALE_STATUSES as readonly number[]).includes(draft.saleStatus)) problems.push({ field: 'saleStatus', code: 'sale_status_invalid' });
  if (!Number.isInteger(draft.numMax) || draft.numMax < 1 || draft.numMax > ORDER_TICKET_MAX) {
    problems.push({ field: 'numMax', code: 'ticket_limit_invalid' });
  }
  return problems;
}

/** A session ends after it starts; its sale opens before it closes, and closes by the time the show starts. */
export function sessionProblems(draft: SessionDraft): DraftProblem[] {
  const problems: DraftProblem[] = [];
  if (!(draft.endsAt > draft.startsAt)) problems.push({ field: 'endsAt', code: 'session_times_invalid' });
  if (!(draft.onSaleAt < draft.offSaleAt)) problems.push({ field: 'offSaleAt', code: 'sale_times_unordered' });
  else if (!(draft.offSaleAt <= draft.startsAt)) problems.push({ field: 'offSaleAt', code: 'sale_times_unordered' });
  const cap = draft.accountTicketCap;
  if (cap !== null && (!Number.isInteger(cap) || cap < 1 || cap > SESSION_TICKET_CAP_MAX)) {
    problems.push({ field: 'accountTicketCap', code: 'account_cap_invalid' });
  }
  return problems;
}

/** A face value above zero in whole minor units of a currency we know; a quota no lower than the tickets already ordered. */
export function tierProblems(draft: TierDraft, known: { currencies: readonly string[]; sold: number }): DraftProblem[] {
  const problems = namesProblems('names', draft.names);
  if (!Number.isSafeInteger(draft.faceValue) || draft.faceValue <= 0) problems.push({ field: 'faceValue', code: 'face_value_invalid' });
  if (!known.currencies.includes(draft.currency)) problems.push({ field: 'currency', code: 'tier_currency_unknown' });
  if (!Number.isInteger(draft.quota) || draft.quota < 0 || draft.quota > TIER_QUOTA_MAX)
    problems.push({ field: 'quota', code: 'quota_invalid' });
  else if (draft.quota < known.sold) problems.push({ field: 'quota', code: 'quota_below_sold' });
  return problems;
}

const nameColumns = (names: Names) => ({ nameEn: names.en.trim(), nameZhHant: names.zhHant.trim(), nameZhHans: names.zhHans.trim() });

export function venueRow(draft: VenueDraft) {
  return {
    cityId: draft.cityId,
    ...nameColumns(draft.names),
    addressEn: draft.addressEn.trim(),
    addressZh: draft.addressZh.trim(),
    mapUrl: draft.mapUrl === '' ? null : draft.mapUrl,
    longitude: draft.longitude,
    latitude: draft.latitude,
  };
}

export function artistRow(draft: ArtistDraft) {
  return { ...nameColumns(draft.names), pinyin: draft.pinyin.trim() };
}

export function categoryRow(draft: CategoryDraft) {
  return { slug: draft.slug, ...nameColumns(draft.names), pinyin: draft.pinyin.trim(), sort: draft.sort };
}

/** The activity's own columns; its status and dates follow from publishing and its sessions. */
export function activityRow(draft: ActivityDraft) {
  return {
    categoryId: draft.categoryId,
    cityId: draft.cityId,
    venueId: draft.venueId,
    artistId: draft.artistId,
    boxOfficeSellerId: draft.boxOfficeSellerId,
    ...nameColumns(draft.names),
    descriptionEn: draft.descriptions.en,
    descriptionZhHant: draft.descriptions.zhHant,
    descriptionZhHans: draft.descriptions.zhHans,
    buyingNotesEn: draft.buyingNotes.en,
    buyingNotesZhHant: draft.buyingNotes.zhHant,
    buyingNotesZhHans: draft.buyingNotes.zhHans,
    poster: draft.poster,
    saleStatus: draft.saleStatus,
    realNameRequired: draft.realNameRequired,
    numMin: 1,
    numMax: draft.numMax,
  };
}

export function sessionRow(draft: SessionDraft) {
  return {
    startsAt: draft.startsAt,
    endsAt: draft.endsAt,
    onSaleAt: draft.onSaleAt,
    offSaleAt: draft.offSaleAt,
    accountTicketCap: draft.accountTicketCap,
    highDemand: draft.highDemand,
  };
}

export function tierRow(draft: TierDraft) {
  return { ...nameColumns(draft.names), faceValue: draft.faceValue, currency: draft.currency, quota: draft.quota, sort: draft.sort };
}

/**
 * An activity's dates from its sessions: its first and last session's start (listings filter by
 * them) and its earliest on-sale time; null without sessions.
 */
export function activityDates(sessions: readonly Pick<SessionDraft, 'startsAt' | 'onSaleAt'>[]) {
  if (sessions.length === 0) return null;
  const starts = sessions.map((session) => session.startsAt);
  return {
    startsAt: Math.min(...starts),
    endsAt: Math.max(...starts),
    saleStartsAt: Math.min(...sessions.map((session) => session.onSaleAt)),
  };
}

export type PublishProblemCode = 'activity_without_sessions' | 'session_without_tiers';

/** An activity can be published once it has a session and every session has a tier. */
export function publishProblem(sessions: readonly { id: number; tiers: number }[]): PublishProblemCode | null {
  if (sessions.length === 0) return 'activity_without_sessions';
  return sessions.some((session) => session.tiers === 0) ? 'session_without_tiers' : null;
}
