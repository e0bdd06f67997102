/**
 * Coupon campaigns: an amount off above a threshold, usable within its validity, offered to an
 * audience (every buyer, buyers who never paid for an order, or a city's buyers) up to a count of
 * claims while the campaign runs. The coupon's terms live on its `coupons` row (purpose 'campaign'),
 * which every claim's `user_coupons` row points at, as the other grants do (orders/coupons.ts);
 * retiring a campaign stops new claims, and the coupons already held stay good until they expire.
 *
 * A claim is one guarded INSERT ... SELECT: the window, the retirement, the count and the buyer's
 * own claim are checked inside the statement, and D1 runs statements one at a time, so concurrent
 * claims never pass the count nor give a buyer two.
 */
import { and, asc, count, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import { couponCampaigns, coupons, userCoupons } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import {
  campaignFault,
  campaignTermsFault,
  claimRefusal,
  scheduleState,
  type CampaignAudience,
  type ScheduleState,
} from '../../domain/storefront-schedule.ts';
import { localizedName } from '../../i18n/locales.ts';
import { hasPaidOrder } from '../orders/queries.ts';
import type { StaffScope, UserScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';
import { found, refuse, withNewId } from './curation.ts';
import type { ScriptTexts } from './popups.ts';

export interface CampaignInput {
  names: ScriptTexts;
  /** Minor units of `currency` off the tickets. */
  amount: number;
  currency: string;
  /** The ticket spend an order must reach, minor units of `currency`; 0 for none. */
  minSpend: number;
  validFrom: number;
  validTo: number;
  audience: CampaignAudience;
  cityId: number | null;
  claimLimit: number;
  startsAt: number;
  endsAt: number;
}

export interface CampaignRecord extends CampaignInput {
  id: number;
  couponId: number;
  claimed: number;
  retiredAt: number | null;
  state: ScheduleState;
}

const claimedCount = sql<number>`(SELECT count(*) FROM user_coupons u WHERE u.coupon_id = ${couponCampaigns.couponId})`;

const campaignColumns = { campaign: couponCampaigns, coupon: coupons, claimed: claimedCount };

type CampaignJoin = { campaign: typeof couponCampaigns.$inferSelect; coupon: typeof coupons.$inferSelect; claimed: number };

function recordOf({ campaign, coupon, claimed }: CampaignJoin, now: number): CampaignRecord {
  return {
    id: campaign.id,
    couponId: coupon.id,
    names: { en: coupon.nameEn, 'zh-Hant': coupon.nameZhHant, 'zh-Hans': coupon.nameZhHans },
    amount: coupon.amount ?? 0,
    currency: coupon.currency ?? '',
    minSpend: coupon.minSpend,
    validFrom: coupon.validFrom,
    validTo: coupon.validTo,
    audience: campaign.audience,
    cityId: campaign.cityId,
    claimLimit: campaign.claimLimit,
    startsAt: campaign.startsAt,
    endsAt: campaign.endsAt,
    retiredAt: campaign.retiredAt,
    claimed,
    state: scheduleState(campaign, now),
  };
}

function couponColumns(input: CampaignInput) {
  return {
    nameEn: input.names.en,
    nameZhHant: input.names['zh-Hant'],
    nameZhHans: input.names['zh-Hans'],
    amount: input.amount,
    currency: input.currency,
    minSpend: input.minSpend,
    validFrom: input.validFrom,
    validTo: input.validTo,
  };
}

function campaignColumnsOf(input: CampaignInput) {
  return {
    audience: input.audience,
    cityId: input.audience === 'city' ? input.cityId : null,
    claimLimit: input.claimLimit,
    startsAt: input.startsAt,
    endsAt: input.endsAt,
  };
}

/** Every campaign, newest first, with its claims so far. */
export async function listCampaigns(scope: StaffScope): Promise<CampaignRecord[]> {
  const rows = await scope.db
    .select(campaignColumns)
    .from(couponCampaigns)
    .innerJoin(coupons, eq(coupons.id, couponCampaigns.couponId))
    .orderBy(desc(couponCampaigns.id));
  return rows.map((row) => recordOf(row, scope.now));
}

async function campaignJoin(scope: UserScope, id: number): Promise<CampaignJoin | undefined> {
  const [row] = await scope.db
    .select(campaignColumns)
    .from(couponCampaigns)
    .innerJoin(coupons, eq(coupons.id, couponCampaigns.couponId))
    .where(eq(couponCampaigns.id, id));
  return row;
}

function check(scope: StaffScope, input: CampaignInput, claimed: number, previousEndsAt?: number): void {
  refuse(campaignFault(input, claimed, scope.now, previousEndsAt));
  if (!scope.currencies.has(input.currency)) throw new DomainError('currency_not_found', {}, 'currency');
  if (input.audience === 'city' && !scope.reference.cities.some((city) => city.id === input.cityId)) {
    throw new DomainError('city_not_found', {}, 'cityId');
  }
}

export async function createCampaign(scope: StaffScope, input: CampaignInput): Promise<CampaignRecord> {
  check(scope, input, 0);
  // A campaign and its coupon share their id: the coupon is made for the campaign alone.
  return withNewId(scope.db, coupons, coupons.id, async (id) => {
    const coupon = {
      id,
      code: `campaign-${id}`,
      kind: 'amount' as const,
      foldTenths: null,
      newUserOnly: input.audience === 'new_buyers',
      bundleCount: 1,
      purpose: 'campaign' as const,
      categoryId: null,
      ...couponColumns(input),
    };
    const campaign = { id, couponId: id, retiredAt: null, createdAt: scope.now, ...campaignColumnsOf(input) };
    const record = recordOf({ campaign, coupon, claimed: 0 }, scope.now);
    await batch(scope.db, {
      coupon: scope.db.insert(coupons).values(coupon),
      campaign: scope.db.insert(couponCampaigns).values(campaign),
      audit: auditEntry(scope, {
        action: 'coupon_campaign.create',
        subjectType: 'coupon_campaign',
        subjectId: id,
        before: null,
        after: record,
      }),
    });
    return record;
  });
}

/** An edit: names, audience, count and window any time before retiring; the coupon's terms only until the first claim. */
export async function updateCampaign(scope: StaffScope, id: number, input: CampaignInput): Promise<CampaignRecord> {
  const current = await campaignJoin(scope, id);
  const before = recordOf(found(current && { ...current, retiredAt: current.campaign.retiredAt }, true), scope.now);
  check(scope, input, before.claimed, before.endsAt);
  refuse(campaignTermsFault(before, input, before.claimed));
  const after: CampaignRecord = { ...before, ...input, cityId: input.audience === 'city' ? input.cityId : null };
  await batch(scope.db, {
    coupon: scope.db
      .update(coupons)
      .set({ ...couponColumns(input), newUserOnly: input.audience === 'new_buyers' })
      .where(eq(coupons.id, before.couponId)),
    campaign: scope.db.update(couponCampaigns).set(campaignColumnsOf(input)).where(eq(couponCampaigns.id, id)),
    audit: auditEntry(scope, { action: 'coupon_campaign.update', subjectType: 'coupon_campaign', subjectId: id, before, after }),
  });
  return after;
}

/** Stops new claims for good; coupons already claimed stay usable within their validity. */
export async function retireCampaign(scope: StaffScope, id: number): Promise<CampaignRecord> {
  const current = await campaignJoin(scope, id);
  const before = recordOf(found(current && { ...current, retiredAt: current.campaign.retiredAt }), scope.now);
  if (before.retiredAt !== null) return before;
  const after: CampaignRecord = { ...before, retiredAt: scope.now, state: 'retired' };
  await batch(scope.db, {
    update: scope.db.update(couponCampaigns).set({ retiredAt: scope.now }).where(eq(couponCampaigns.id, id)),
    audit: auditEntry(scope, { action: 'coupon_campaign.retire', subjectType: 'coupon_campaign', subjectId: id, before, after }),
  });
  return after;
}

// ---------------------------------------------------------------------------------------------
// Buyers

export interface ClaimableCampaign {
  id: number;
  name: string;
  amount: number;
  currency: string;
  minSpend: number;
  validFrom: number;
  validTo: number;
  endsAt: number;
  /** Whether the buyer holds its coupon already. */
  claimed: boolean;
}

/**
 * The campaigns running now whose audience takes the buyer and that still have coupons to give (or
 * whose coupon the buyer holds), soonest ending first. A city's campaign is for buyers browsing that city.
 */
export async function claimableCampaigns(scope: UserScope): Promise<ClaimableCampaign[]> {
  const { db, userId, now, ctx } = scope;
  const held = sql<number>`EXISTS (SELECT 1 FROM user_coupons u WHERE u.coupon_id = ${couponCampaigns.couponId} AND u.user_id = ${userId})`;
  const [rows, paid] = await Promise.all([
    db
      .select({ campaign: couponCampaigns, coupon: coupons, claimed: claimedCount, held })
      .from(couponCampaigns)
      .innerJoin(coupons, eq(coupons.id, couponCampaigns.couponId))
      .where(and(isNull(couponCampaigns.retiredAt), lte(couponCampaigns.startsAt, now), gt(couponCampaigns.endsAt, now)))
      .orderBy(asc(couponCampaigns.endsAt), asc(couponCampaigns.id)),
    hasPaidOrder(db, userId),
  ]);
  return rows
    .filter(({ campaign, claimed, held: holds }) => {
      const refusal = claimRefusal(claimCheck(campaign, claimed, Boolean(holds), ctx.cityId, paid), now);
      return refusal === null || refusal === 'coupon_already_claimed';
    })
    .map(({ campaign, coupon, held: holds }) => ({
      id: campaign.id,
      name: localizedName(coupon, ctx.locale),
      amount: coupon.amount ?? 0,
      currency: coupon.currency ?? '',
      minSpend: coupon.minSpend,
      validFrom: coupon.validFrom,
      validTo: coupon.validTo,
      endsAt: campaign.endsAt,
      claimed: Boolean(holds),
    }));
}

function claimCheck(campaign: typeof couponCampaigns.$inferSelect, claimed: number, held: boolean, cityId: number, paid: boolean) {
  return {
    schedule: campaign,
    claimed,
    claimLimit: campaign.claimLimit,
    audience: campaign.audience,
    campaignCityId: campaign.cityId,
    buyerCityId: cityId,
    buyerHasPaidOrder: paid,
    alreadyHeld: held,
  };
}

/** Claims the campaign's coupon for the buyer: once each, while it runs, for its audience, up to its count. */
export async function claimCampaignCoupon(scope: UserScope, id: number): Promise<{ couponId: number }> {
  const { db, userId, now, ctx } = scope;
  const judge = async () => {
    const row = await campaignJoin(scope, id);
    if (!row) throw new DomainError('storefront_item_not_found');
    const [[holding], paid] = await Promise.all([
      db
        .select({ n: count() })
        .from(userCoupons)
        .where(and(eq(userCoupons.couponId, row.coupon.id), eq(userCoupons.userId, userId))),
      hasPaidOrder(db, userId),
    ]);
    return { row, refusal: claimRefusal(claimCheck(row.campaign, row.claimed, holding.n > 0, ctx.cityId, paid), now) };
  };
  const { row, refusal } = await judge();
  if (refusal) throw new DomainError(refusal);
  const { meta } = await db.$client
    .prepare(`INSERT INTO user_coupons (user_id, coupon_id, status, created_at)
      SELECT ?1, k.coupon_id, 'unused', ?2 FROM coupon_campaigns k
      WHERE k.id = ?3 AND k.retired_at IS NULL AND k.starts_at <= ?2 AND k.ends_at > ?2
        AND (SELECT count(*) FROM user_coupons u WHERE u.coupon_id = k.coupon_id) < k.claim_limit
        AND NOT EXISTS (SELECT 1 FROM user_coupons u WHERE u.coupon_id = k.coupon_id AND u.user_id = ?1)`)
    .bind(userId, now, id)
    .run();
  if (meta.changes !== 1) throw new DomainError((await judge()).refusal ?? 'coupon_campaign_exhausted');
  return { couponId: row.coupon.id };
}
