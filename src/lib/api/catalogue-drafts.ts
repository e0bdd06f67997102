/**
 * The zod shapes of the console's catalogue drafts (domain/catalogue-drafts.ts): types and bounds at
 * the edge; the rules between fields (sale times in order, a known currency…) are the domain's.
 */
import { z } from 'zod';
import { CATALOGUE_LINE_MAX_LENGTH, CATALOGUE_NAME_MAX_LENGTH, CATALOGUE_TEXT_MAX_LENGTH } from '../config/catalogue.ts';
import { bodyId, currencyCode, epochMs, minorAmount } from './params.ts';

const texts = (max: number) => z.object({ en: z.string().max(max), zhHant: z.string().max(max), zhHans: z.string().max(max) });
const names = texts(CATALOGUE_NAME_MAX_LENGTH);
const line = z.string().max(CATALOGUE_LINE_MAX_LENGTH);

export const venueDraft = z.object({
  cityId: bodyId,
  names,
  addressEn: line,
  addressZh: line,
  mapUrl: line.default(''),
  longitude: z.number().min(-180).max(180),
  latitude: z.number().min(-90).max(90),
});

export const artistDraft = z.object({ names, pinyin: z.string().max(CATALOGUE_NAME_MAX_LENGTH).default('') });

export const categoryDraft = z.object({
  slug: z.string().max(60),
  names,
  pinyin: z.string().max(CATALOGUE_NAME_MAX_LENGTH).default(''),
  sort: z.number().int().min(0).max(10_000).default(0),
});

export const activityDraft = z.object({
  categoryId: bodyId,
  cityId: bodyId,
  venueId: bodyId,
  artistId: bodyId.nullable().default(null),
  boxOfficeSellerId: bodyId.nullable().default(null),
  names,
  descriptions: texts(CATALOGUE_TEXT_MAX_LENGTH),
  buyingNotes: texts(CATALOGUE_TEXT_MAX_LENGTH).default({ en: '', zhHant: '', zhHans: '' }),
  realNameRequired: z.boolean().default(false),
  poster: line.default(''),
  saleStatus: z.number().int(),
  numMax: z.number().int(),
});

export const sessionDraft = z.object({
  startsAt: epochMs,
  endsAt: epochMs,
  onSaleAt: epochMs,
  offSaleAt: epochMs,
  accountTicketCap: z.number().int().nullable().default(null),
  highDemand: z.boolean().default(false),
});

export const tierDraft = z.object({
  names,
  faceValue: minorAmount,
  currency: currencyCode,
  quota: z.number().int(),
  sort: z.number().int().min(0).max(10_000).default(0),
});
