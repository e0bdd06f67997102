/**
 * Storefront curation (staff whose roles cover 'storefront': operators and editors; api/staff.ts
 * answers 403 not_staff or staff_role_forbidden to anyone else). Each kind is listed, created,
 * updated and retired; every change writes its audit row in its own batch (services/storefront/).
 * Times are epoch ms; a null end never ends. Bodies: api/storefront-inputs.ts.
 *
 *   GET  v1/operator/banners                 every home banner with its state (scheduled, live, ended, retired)
 *   POST v1/operator/banners                 { cityId, poster, url, sort, startsAt, endsAt }; poster is the
 *                                            path POST v1/operator/images answered, or a banner's own
 *   PUT  v1/operator/banners/{id}            the same body; 409 storefront_item_retired once retired
 *   POST v1/operator/banners/{id}/retire     taken down for good
 *   …/hot-searches                           { locale: en|zh-Hant|zh-Hans, keyword, content, sort, startsAt, endsAt };
 *                                            buyers see an edit within REFERENCE_DATA_TTL_MS (hot-searches.ts)
 *   …/popups                                 { title, body: { en, zh-Hant, zh-Hans }, link, currency, startsAt, endsAt }
 *   …/coupon-campaigns                       { names, amount, currency, minSpend, validFrom, validTo, audience:
 *                                            all|new_buyers|city, cityId, claimLimit, startsAt, endsAt }; the
 *                                            coupon's terms are locked once claimed; retiring stops new claims
 *   …/lotteries                              { tierId, prizeCount, ticketsPerPrize, maxCodesPerEntry, entryOpensAt,
 *                                            entryClosesAt, drawAt }; after entries open only the close and the
 *                                            draw move; only a lottery nobody entered is retired
 *
 * Buyers (signed in):
 *   GET  v1/coupon/campaigns                 the running campaigns the buyer may claim (or holds)
 *   POST v1/coupon/campaigns/{id}/claim      the campaign's coupon, once per buyer, up to its count
 */
import { Hono } from 'hono';
import type { z } from 'zod';
import type { StaffScope } from '../../services/platform/scope.ts';
import { createBanner, listBanners, retireBanner, updateBanner } from '../../services/storefront/banners.ts';
import {
  claimableCampaigns,
  claimCampaignCoupon,
  createCampaign,
  listCampaigns,
  retireCampaign,
  updateCampaign,
} from '../../services/storefront/coupon-campaigns.ts';
import { createHotSearch, listHotSearches, retireHotSearch, updateHotSearch } from '../../services/storefront/hot-searches.ts';
import { createLottery, listLotteryRecords, retireLottery, updateLottery } from '../../services/storefront/lotteries.ts';
import { createPopup, listPopups, retirePopup, updatePopup } from '../../services/storefront/popups.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { idParam } from '../params.ts';
import { signedIn } from '../session.ts';
import { staffOnly } from '../staff.ts';
import { bannerBody, couponCampaignBody, hotSearchBody, lotteryBody, popupBody } from '../storefront-inputs.ts';
import { input } from '../validate.ts';

interface Curated<Body extends z.ZodType, Record> {
  /** The path under v1/operator/. */
  path: string;
  /** What the docs call one of them. */
  noun: string;
  body: Body;
  list: (scope: StaffScope) => Promise<Record[]>;
  create: (scope: StaffScope, input: z.output<Body>) => Promise<Record>;
  update: (scope: StaffScope, id: number, input: z.output<Body>) => Promise<Record>;
  retire: (scope: StaffScope, id: number) => Promise<Record>;
}

const doc = describe('Storefront');

/** The four routes of one curated kind, behind sign-in and the storefront permission. */
function curatedRoutes<Body extends z.ZodType, Record>(kind: Curated<Body, Record>) {
  const base = `/v1/operator/${kind.path}`;
  const staff = staffOnly('storefront');
  return new Hono<ApiEnv>()
    .get(base, doc.user(`Every ${kind.noun} with its schedule state (storefront staff)`), signedIn, staff, async (c) =>
      c.json(success(await kind.list(c.var.scope))),
    )
    .post(base, doc.user(`Creates a ${kind.noun} (storefront staff)`), signedIn, staff, input('json', kind.body), async (c) =>
      c.json(success(await kind.create(c.var.scope, c.req.valid('json') as z.output<Body>))),
    )
    .put(
      `${base}/:id`,
      doc.user(`Changes a ${kind.noun} (storefront staff)`),
      signedIn,
      staff,
      input('param', idParam),
      input('json', kind.body),
      async (c) => c.json(success(await kind.update(c.var.scope, c.req.valid('param').id, c.req.valid('json') as z.output<Body>))),
    )
    .post(
      `${base}/:id/retire`,
      doc.user(`Retires a ${kind.noun} for good (storefront staff)`),
      signedIn,
      staff,
      input('param', idParam),
      async (c) => c.json(success(await kind.retire(c.var.scope, c.req.valid('param').id))),
    );
}

export const storefrontRoutes = new Hono<ApiEnv>()
  .route(
    '/',
    curatedRoutes({
      path: 'banners',
      noun: 'home banner',
      body: bannerBody,
      list: listBanners,
      create: createBanner,
      update: updateBanner,
      retire: retireBanner,
    }),
  )
  .route(
    '/',
    curatedRoutes({
      path: 'hot-searches',
      noun: 'hot search word',
      body: hotSearchBody,
      list: listHotSearches,
      create: createHotSearch,
      update: updateHotSearch,
      retire: retireHotSearch,
    }),
  )
  .route(
    '/',
    curatedRoutes({
      path: 'popups',
      noun: 'pop-up box',
      body: popupBody,
      list: listPopups,
      create: createPopup,
      update: updatePopup,
      retire: retirePopup,
    }),
  )
  .route(
    '/',
    curatedRoutes({
      path: 'coupon-campaigns',
      noun: 'coupon campaign',
      body: couponCampaignBody,
      list: listCampaigns,
      create: createCampaign,
      update: updateCampaign,
      retire: retireCampaign,
    }),
  )
  .route(
    '/',
    curatedRoutes({
      path: 'lotteries',
      noun: 'lottery',
      body: lotteryBody,
      list: listLotteryRecords,
      create: createLottery,
      update: updateLottery,
      retire: retireLottery,
    }),
  )
  .get('/v1/coupon/campaigns', doc.user('The running coupon campaigns the buyer may claim, or holds'), signedIn, async (c) =>
    c.json(success(await claimableCampaigns(c.var.scope))),
  )
  .post(
    '/v1/coupon/campaigns/:id/claim',
    doc.user("Claims a campaign's coupon: once per buyer, up to its count"),
    signedIn,
    input('param', idParam),
    async (c) => c.json(success(await claimCampaignCoupon(c.var.scope, c.req.valid('param').id))),
  );
