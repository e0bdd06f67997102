/**
 * The storefront's curated things (home banners, hot search words, pop-up boxes, coupon campaigns,
 * lotteries) are scheduled: live from a start until an end (or for good), unless retired. These
 * are the rules the console's writes check and the buyers' reads apply; time is passed in.
 */
import { zonedParts } from './calendar.ts';

/** A curated thing's schedule: `endsAt` null never ends; `retiredAt` set takes it down for good. */
export interface Schedule {
  startsAt: number;
  endsAt: number | null;
  retiredAt: number | null;
}

/** Where a curated thing stands at a time, as the console lists it. */
export type ScheduleState = 'scheduled' | 'live' | 'ended' | 'retired';

export function scheduleState(schedule: Schedule, now: number): ScheduleState {
  if (schedule.retiredAt !== null) return 'retired';
  if (now < schedule.startsAt) return 'scheduled';
  if (schedule.endsAt !== null && now >= schedule.endsAt) return 'ended';
  return 'live';
}

/** Whether buyers see it at `now`. */
export function isLive(schedule: Schedule, now: number): boolean {
  return scheduleState(schedule, now) === 'live';
}

/** A problem with one field of a curated thing: the error code and the field it belongs to. */
export interface FieldFault<Code extends string = StorefrontProblem> {
  code: Code;
  field: string;
}

export type StorefrontProblem =
  | 'schedule_end_before_start'
  | 'schedule_end_past'
  | 'storefront_link_invalid'
  | 'storefront_image_invalid'
  | 'coupon_amount_not_below_threshold'
  | 'coupon_validity_invalid'
  | 'coupon_validity_before_claims'
  | 'campaign_city_required'
  | 'campaign_limit_below_claimed'
  | 'campaign_terms_locked'
  | 'lottery_entry_window_invalid'
  | 'lottery_entry_after_draw'
  | 'lottery_draw_past'
  | 'lottery_prize_locked'
  | 'lottery_not_editable';

/**
 * The window's problem, if any: it ends after it starts, and an end being set is not in the past
 * (`previousEndsAt`, on an edit, is the end already saved: keeping it is no problem).
 */
export function scheduleFault(
  window: { startsAt: number; endsAt: number | null },
  now: number,
  previousEndsAt?: number | null,
): FieldFault | null {
  if (window.endsAt === null) return null;
  if (window.endsAt <= window.startsAt) return { code: 'schedule_end_before_start', field: 'endsAt' };
  if (window.endsAt <= now && window.endsAt !== previousEndsAt) return { code: 'schedule_end_past', field: 'endsAt' };
  return null;
}

/** A link a buyer follows from the storefront: a path on this site only (never another origin or a script URL). */
export function isSitePath(value: string): boolean {
  return /^\/(?![/\\])[^\s]*$/.test(value);
}

/** A stored image's path as the image service answers it (a site path), or an existing banner's path. */
export function isImagePath(value: string): boolean {
  return isSitePath(value) && !value.includes('..');
}

export interface CampaignTerms {
  /** Minor units of `currency` off the tickets. */
  amount: number;
  /** The spend the order must reach, in minor units of the same currency; 0 for none. */
  minSpend: number;
  /** When a claimed coupon may be used. */
  validFrom: number;
  validTo: number;
  /** When buyers may claim. */
  startsAt: number;
  endsAt: number;
  audience: CampaignAudience;
  cityId: number | null;
  claimLimit: number;
}

export const CAMPAIGN_AUDIENCES = ['all', 'new_buyers', 'city'] as const;
/** Every buyer; buyers who never paid for an order; buyers whose chosen city is the campaign's. */
export type CampaignAudience = (typeof CAMPAIGN_AUDIENCES)[number];

/**
 * A campaign's problem, if any: the amount below the threshold it needs (else the coupon pays the
 * whole of a minimum order), a validity that ends after it starts and no sooner than the claims (a
 * coupon claimed on the last day must still be usable), a city for a city's audience, and a count
 * no lower than the claims already made.
 */
export function campaignFault(terms: CampaignTerms, claimed: number, now: number, previousEndsAt?: number): FieldFault | null {
  const window = scheduleFault(terms, now, previousEndsAt);
  if (window) return window;
  if (terms.minSpend > 0 && terms.amount >= terms.minSpend) return { code: 'coupon_amount_not_below_threshold', field: 'amount' };
  if (terms.validTo <= terms.validFrom) return { code: 'coupon_validity_invalid', field: 'validTo' };
  if (terms.validTo < terms.endsAt) return { code: 'coupon_validity_before_claims', field: 'validTo' };
  if (terms.audience === 'city' && terms.cityId === null) return { code: 'campaign_city_required', field: 'cityId' };
  if (terms.claimLimit < claimed) return { code: 'campaign_limit_below_claimed', field: 'claimLimit' };
  return null;
}

/** The terms a held coupon carries: once anyone claimed the campaign's coupon, they stay as they were. */
const HELD_TERMS = ['amount', 'currency', 'minSpend', 'validFrom', 'validTo'] as const;

/** An edit's problem with the coupon's terms, if any: they are locked once a coupon was claimed. */
export function campaignTermsFault(
  current: Pick<CampaignTerms, 'amount' | 'minSpend' | 'validFrom' | 'validTo'> & { currency: string },
  next: Pick<CampaignTerms, 'amount' | 'minSpend' | 'validFrom' | 'validTo'> & { currency: string },
  claimed: number,
): FieldFault | null {
  if (claimed === 0) return null;
  const changed = HELD_TERMS.find((field) => current[field] !== next[field]);
  return changed ? { code: 'campaign_terms_locked', field: changed } : null;
}

export type CampaignClaimRefusal =
  | 'coupon_campaign_closed'
  | 'coupon_campaign_exhausted'
  | 'coupon_campaign_not_for_you'
  | 'coupon_already_claimed';

export interface ClaimCheck {
  schedule: Schedule;
  claimed: number;
  claimLimit: number;
  audience: CampaignAudience;
  campaignCityId: number | null;
  buyerCityId: number | null;
  buyerHasPaidOrder: boolean;
  alreadyHeld: boolean;
}

/** Why a buyer may not claim a campaign's coupon now, or null: while it is live, for its audience, once, up to its count. */
export function claimRefusal(check: ClaimCheck, now: number): CampaignClaimRefusal | null {
  if (!isLive(check.schedule, now)) return 'coupon_campaign_closed';
  if (check.audience === 'new_buyers' && check.buyerHasPaidOrder) return 'coupon_campaign_not_for_you';
  if (check.audience === 'city' && check.buyerCityId !== check.campaignCityId) return 'coupon_campaign_not_for_you';
  if (check.alreadyHeld) return 'coupon_already_claimed';
  if (check.claimed >= check.claimLimit) return 'coupon_campaign_exhausted';
  return null;
}

export interface LotteryPlan {
  entryOpensAt: number;
  entryClosesAt: number | null;
  drawAt: number;
  prizeCount: number;
  ticketsPerPrize: number;
  maxCodesPerEntry: number;
  tierId: number;
}

/** When a lottery stops taking entries: its own close, else its draw. */
export function entryClosesAt(lottery: { entryClosesAt: number | null; drawAt: number }): number {
  return lottery.entryClosesAt ?? lottery.drawAt;
}

/** A new lottery's problem, if any: entries open before they close, close no later than the draw, and the draw is ahead. */
export function lotteryPlanFault(plan: LotteryPlan, now: number): FieldFault | null {
  const closes = entryClosesAt(plan);
  if (closes <= plan.entryOpensAt) return { code: 'lottery_entry_window_invalid', field: 'entryClosesAt' };
  if (closes > plan.drawAt) return { code: 'lottery_entry_after_draw', field: 'entryClosesAt' };
  if (plan.drawAt <= now) return { code: 'lottery_draw_past', field: 'drawAt' };
  return null;
}

/**
 * An edit's problem, if any. Once entries have opened, people joined for this prize under these
 * rules: the prize, the codes per entry and the opening stay as they are, and the close and the draw
 * may move but not into the past. A lottery drawing or drawn, or retired, is not edited at all.
 */
export function lotteryEditFault(
  current: LotteryPlan & { status: 'open' | 'drawing' | 'drawn'; retiredAt: number | null },
  next: LotteryPlan,
  now: number,
): FieldFault | null {
  if (current.status !== 'open' || current.retiredAt !== null) return { code: 'lottery_not_editable', field: 'drawAt' };
  const fault = lotteryPlanFault(next, now);
  if (fault) return fault;
  if (now < current.entryOpensAt) return null;
  const locked = ['tierId', 'prizeCount', 'ticketsPerPrize', 'maxCodesPerEntry', 'entryOpensAt'] as const;
  const changed = locked.find((field) => current[field] !== next[field]);
  if (changed) return { code: 'lottery_prize_locked', field: changed };
  if (entryClosesAt(next) <= now) return { code: 'lottery_draw_past', field: 'entryClosesAt' };
  return null;
}

/** A wall-clock `YYYY-MM-DDTHH:mm` (a datetime-local input's value) in `timeZone` as an instant; null when unreadable. */
export function instantOfLocal(value: string, timeZone: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  if (Number.isNaN(asUtc) || new Date(asUtc).getUTCDate() !== day) return null;
  // Two steps settle the offset on either side of a daylight-saving change.
  const first = asUtc - offsetAt(asUtc, timeZone);
  return asUtc - offsetAt(first, timeZone);
}

/** An instant as a datetime-local input's value in `timeZone`. */
export function localOfInstant(ms: number, timeZone: string): string {
  const parts = zonedParts(ms, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(parts.year).padStart(4, '0')}-${two(parts.month)}-${two(parts.day)}T${two(parts.hour)}:${two(parts.minute)}`;
}

function offsetAt(ms: number, timeZone: string): number {
  const p = zonedParts(ms, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - (ms - (((ms % 1000) + 1000) % 1000));
}
