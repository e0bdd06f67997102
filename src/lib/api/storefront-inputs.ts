/**
 * The inputs of storefront curation, one schema per kind: the operator routes validate their JSON
 * bodies with them, and the console's pages parse their forms with the same (loaders/storefront.ts),
 * so a field is refused the same way wherever it is typed. Times are epoch ms, money minor units.
 */
import { z } from 'zod';
import { CAMPAIGN_AUDIENCES } from '../domain/storefront-schedule.ts';
import { HOT_SEARCH_SCRIPTS } from '../services/storefront/hot-searches.ts';
import { bodyId, currencyCode, epochMs } from './params.ts';

const scriptTexts = (max: number) =>
  z.object({
    en: z.string().trim().min(1).max(max),
    'zh-Hant': z.string().trim().min(1).max(max),
    'zh-Hans': z.string().trim().min(1).max(max),
  });

const sort = z.number().int().min(0).max(9999);
const path = z.string().trim().min(1).max(500);

export const bannerBody = z.object({
  cityId: bodyId,
  poster: path,
  url: path,
  sort,
  startsAt: epochMs,
  endsAt: epochMs.nullable(),
});

export const hotSearchBody = z.object({
  locale: z.enum(HOT_SEARCH_SCRIPTS),
  keyword: z.string().trim().min(1).max(40),
  content: z.string().trim().max(200),
  sort,
  startsAt: epochMs,
  endsAt: epochMs.nullable(),
});

export const popupBody = z.object({
  title: scriptTexts(80),
  body: scriptTexts(400),
  link: z.string().trim().max(500),
  currency: currencyCode,
  startsAt: epochMs,
  endsAt: epochMs,
});

export const couponCampaignBody = z.object({
  names: scriptTexts(60),
  amount: z.number().int().positive(),
  currency: currencyCode,
  minSpend: z.number().int().min(0),
  validFrom: epochMs,
  validTo: epochMs,
  audience: z.enum(CAMPAIGN_AUDIENCES),
  cityId: bodyId.nullable(),
  claimLimit: z.number().int().positive().max(10_000_000),
  startsAt: epochMs,
  endsAt: epochMs,
});

export const lotteryBody = z.object({
  tierId: bodyId,
  prizeCount: z.number().int().positive().max(1000),
  ticketsPerPrize: z.number().int().positive().max(10),
  maxCodesPerEntry: z.number().int().positive().max(100),
  entryOpensAt: epochMs,
  entryClosesAt: epochMs.nullable(),
  drawAt: epochMs,
});
