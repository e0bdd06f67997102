import { describe, expect, it } from 'vitest';
import {
  campaignFault,
  campaignTermsFault,
  claimRefusal,
  entryClosesAt,
  instantOfLocal,
  isImagePath,
  isLive,
  isSitePath,
  localOfInstant,
  lotteryEditFault,
  lotteryPlanFault,
  scheduleFault,
  scheduleState,
  type CampaignTerms,
  type ClaimCheck,
  type LotteryPlan,
} from '../../src/lib/domain/storefront-schedule.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = 1_800_000_000_000;

describe('a schedule', () => {
  it('is scheduled before its start, live from it, ended at its end, retired whatever the time', () => {
    const window = { startsAt: NOW, endsAt: NOW + DAY, retiredAt: null };
    expect(scheduleState(window, NOW - 1)).toBe('scheduled');
    expect(scheduleState(window, NOW)).toBe('live');
    expect(scheduleState(window, NOW + DAY - 1)).toBe('live');
    expect(scheduleState(window, NOW + DAY)).toBe('ended');
    expect(scheduleState({ ...window, retiredAt: NOW - DAY }, NOW + 1)).toBe('retired');
    expect(isLive({ startsAt: 0, endsAt: null, retiredAt: null }, NOW)).toBe(true);
    expect(isLive({ ...window, retiredAt: NOW }, NOW + 1)).toBe(false);
  });

  it('ends after it starts, and an end being set is not past (keeping a saved end is allowed)', () => {
    expect(scheduleFault({ startsAt: NOW, endsAt: null }, NOW)).toBeNull();
    expect(scheduleFault({ startsAt: NOW, endsAt: NOW }, NOW - DAY)).toEqual({ code: 'schedule_end_before_start', field: 'endsAt' });
    expect(scheduleFault({ startsAt: NOW - DAY, endsAt: NOW - HOUR }, NOW)).toEqual({ code: 'schedule_end_past', field: 'endsAt' });
    expect(scheduleFault({ startsAt: NOW - DAY, endsAt: NOW - HOUR }, NOW, NOW - HOUR)).toBeNull();
  });
});

describe('links and images', () => {
  it('are paths on this site only', () => {
    expect(isSitePath('/activity/1000')).toBe(true);
    expect(isSitePath('//evil.example')).toBe(false);
    expect(isSitePath('https://evil.example')).toBe(false);
    expect(isSitePath('javascript:alert(1)')).toBe(false);
    expect(isSitePath('/a b')).toBe(false);
    expect(isImagePath('/images/banner/abc.jpg')).toBe(true);
    expect(isImagePath('/images/../secret')).toBe(false);
  });
});

const terms: CampaignTerms = {
  amount: 5_000,
  minSpend: 30_000,
  validFrom: NOW,
  validTo: NOW + 30 * DAY,
  startsAt: NOW,
  endsAt: NOW + 7 * DAY,
  audience: 'all',
  cityId: null,
  claimLimit: 100,
};

describe('a coupon campaign', () => {
  it('takes off less than its threshold', () => {
    expect(campaignFault(terms, 0, NOW)).toBeNull();
    expect(campaignFault({ ...terms, amount: 30_000 }, 0, NOW)).toEqual({ code: 'coupon_amount_not_below_threshold', field: 'amount' });
    expect(campaignFault({ ...terms, minSpend: 0, amount: 90_000 }, 0, NOW)).toBeNull();
  });

  it('keeps its coupons usable until its claims close, and names the city of a city audience', () => {
    expect(campaignFault({ ...terms, validTo: NOW }, 0, NOW)).toEqual({ code: 'coupon_validity_invalid', field: 'validTo' });
    expect(campaignFault({ ...terms, validTo: NOW + DAY }, 0, NOW)).toEqual({ code: 'coupon_validity_before_claims', field: 'validTo' });
    expect(campaignFault({ ...terms, audience: 'city' }, 0, NOW)).toEqual({ code: 'campaign_city_required', field: 'cityId' });
    expect(campaignFault({ ...terms, audience: 'city', cityId: 1 }, 0, NOW)).toBeNull();
  });

  it('gives no fewer coupons than were claimed, and locks the held terms after a claim', () => {
    expect(campaignFault({ ...terms, claimLimit: 4 }, 5, NOW)).toEqual({ code: 'campaign_limit_below_claimed', field: 'claimLimit' });
    expect(campaignFault({ ...terms, claimLimit: 5 }, 5, NOW)).toBeNull();
    const held = { ...terms, currency: 'HKD' };
    expect(campaignTermsFault(held, { ...held, amount: 4_000 }, 0)).toBeNull();
    expect(campaignTermsFault(held, { ...held, amount: 4_000 }, 1)).toEqual({ code: 'campaign_terms_locked', field: 'amount' });
    const moreCoupons = { ...held, claimLimit: 500 };
    expect(campaignTermsFault(held, moreCoupons, 1)).toBeNull();
  });
});

const claim: ClaimCheck = {
  schedule: { startsAt: NOW, endsAt: NOW + DAY, retiredAt: null },
  claimed: 0,
  claimLimit: 2,
  audience: 'all',
  campaignCityId: null,
  buyerCityId: 1,
  buyerHasPaidOrder: true,
  alreadyHeld: false,
};

describe('claiming a campaign coupon', () => {
  it('is open while the campaign runs, to its audience, once per buyer, up to its count', () => {
    expect(claimRefusal(claim, NOW)).toBeNull();
    expect(claimRefusal(claim, NOW - 1)).toBe('coupon_campaign_closed');
    expect(claimRefusal(claim, NOW + DAY)).toBe('coupon_campaign_closed');
    expect(claimRefusal({ ...claim, schedule: { ...claim.schedule, retiredAt: NOW } }, NOW + 1)).toBe('coupon_campaign_closed');
    expect(claimRefusal({ ...claim, audience: 'new_buyers' }, NOW)).toBe('coupon_campaign_not_for_you');
    expect(claimRefusal({ ...claim, audience: 'new_buyers', buyerHasPaidOrder: false }, NOW)).toBeNull();
    expect(claimRefusal({ ...claim, audience: 'city', campaignCityId: 2 }, NOW)).toBe('coupon_campaign_not_for_you');
    expect(claimRefusal({ ...claim, audience: 'city', campaignCityId: 1 }, NOW)).toBeNull();
    expect(claimRefusal({ ...claim, alreadyHeld: true }, NOW)).toBe('coupon_already_claimed');
    expect(claimRefusal({ ...claim, claimed: 2 }, NOW)).toBe('coupon_campaign_exhausted');
  });
});

const plan: LotteryPlan = {
  entryOpensAt: NOW + DAY,
  entryClosesAt: NOW + 3 * DAY,
  drawAt: NOW + 4 * DAY,
  prizeCount: 3,
  ticketsPerPrize: 2,
  maxCodesPerEntry: 5,
  tierId: 7,
};

describe('a lottery plan', () => {
  it('opens entries before it closes them, closes them no later than the draw, and draws ahead', () => {
    expect(lotteryPlanFault(plan, NOW)).toBeNull();
    expect(entryClosesAt({ entryClosesAt: null, drawAt: plan.drawAt })).toBe(plan.drawAt);
    expect(lotteryPlanFault({ ...plan, entryClosesAt: null }, NOW)).toBeNull();
    expect(lotteryPlanFault({ ...plan, entryClosesAt: plan.entryOpensAt }, NOW)).toEqual({
      code: 'lottery_entry_window_invalid',
      field: 'entryClosesAt',
    });
    expect(lotteryPlanFault({ ...plan, entryClosesAt: plan.drawAt + 1 }, NOW)).toEqual({
      code: 'lottery_entry_after_draw',
      field: 'entryClosesAt',
    });
    expect(lotteryPlanFault({ ...plan, entryOpensAt: NOW - 3 * DAY, entryClosesAt: NOW - 2 * DAY, drawAt: NOW - DAY }, NOW)).toEqual({
      code: 'lottery_draw_past',
      field: 'drawAt',
    });
  });

  it('keeps the prize once entries opened, and lets the close and the draw move but not into the past', () => {
    const current = { ...plan, status: 'open' as const, retiredAt: null };
    const opened = NOW + 2 * DAY;
    expect(lotteryEditFault(current, { ...plan, prizeCount: 9 }, NOW)).toBeNull();
    expect(lotteryEditFault(current, { ...plan, prizeCount: 9 }, opened)).toEqual({ code: 'lottery_prize_locked', field: 'prizeCount' });
    expect(lotteryEditFault(current, { ...plan, entryOpensAt: NOW + DAY + 1 }, opened)).toEqual({
      code: 'lottery_prize_locked',
      field: 'entryOpensAt',
    });
    expect(lotteryEditFault(current, { ...plan, drawAt: NOW + 9 * DAY }, opened)).toBeNull();
    expect(lotteryEditFault(current, { ...plan, entryClosesAt: opened - 1 }, opened)).toEqual({
      code: 'lottery_draw_past',
      field: 'entryClosesAt',
    });
    expect(lotteryEditFault({ ...current, status: 'drawn' }, plan, NOW)).toEqual({ code: 'lottery_not_editable', field: 'drawAt' });
    expect(lotteryEditFault({ ...current, retiredAt: NOW }, plan, NOW)).toEqual({ code: 'lottery_not_editable', field: 'drawAt' });
  });
});

describe('console times', () => {
  it('read a datetime-local value in the time zone and write it back', () => {
    const instant = instantOfLocal('2027-01-15T20:30', 'Asia/Hong_Kong');
    expect(instant).toBe(Date.UTC(2027, 0, 15, 12, 30));
    expect(localOfInstant(instant ?? 0, 'Asia/Hong_Kong')).toBe('2027-01-15T20:30');
    expect(instantOfLocal('2027-02-30T10:00', 'Asia/Hong_Kong')).toBeNull();
    expect(instantOfLocal('tomorrow', 'Asia/Hong_Kong')).toBeNull();
    const london = instantOfLocal('2027-07-01T09:00', 'Europe/London');
    expect(london).toBe(Date.UTC(2027, 6, 1, 8, 0));
  });
});
