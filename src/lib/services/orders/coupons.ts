/**
 * A user's coupons: the My Coupons list (tabs usable / used / expired), granting coupons (the
 * new-user gift, the invitee coupons, the inviter's reward) and the invite-coupon pop-ups of the home page.
 *
 * Every grant is one guarded INSERT ... SELECT: the row count it may add is decided inside the
 * statement from what the user already holds, and D1 runs statements one at a time, so a retried
 * or concurrent grant adds nothing the first one added. A bundle coupon grants `bundle_count` rows.
 */
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { NEW_USER_GIFT_COUPON } from '../../config/accounts.ts';
import type { Db } from '../../data/client.ts';
import { categories, coupons, userCoupons } from '../../db/schema.ts';
import { couponState, couponTab, foldText, percentOff, COUPON_TABS, type CouponState, type CouponTab } from '../../domain/coupons.ts';
import { convert, formattedMoney, type CurrencyTable, type FormattedMoney } from '../../domain/money.ts';
import type { RequestContext } from '../../domain/request-context.ts';
import type { Translate } from '../../i18n/index.ts';
import { localizedName, type Locale } from '../../i18n/locales.ts';
import { prefixed } from '../../data/batch-columns.ts';
import { read, readOne, type Read } from '../../data/read-together.ts';
import type { CurrencyView } from '../catalogue/reference-data.ts';
import type { UserScope } from '../platform/scope.ts';

/** More copies than any bundle holds; the statement caps a bundle at this. */
const BUNDLE_MAX = 20;

/** Inserts `bundle_count` unused rows of each coupon chosen by `selector` for user ?1 at ?2, when `guard` holds. */
function grantSql(selector: string, guard: string): string {
  return `WITH RECURSIVE copies(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM copies WHERE n < ${BUNDLE_MAX})
    INSERT INTO user_coupons (user_id, coupon_id, status, created_at)
    SELECT ?1, c.id, 'unused', ?2 FROM coupons c JOIN copies ON copies.n <= c.bundle_count
    WHERE ${selector} AND c.valid_to > ?2 AND (${guard})`;
}

/** The new-user gift, once per account. */
export function grantNewUserGift(db: Db, userId: number, now: number): D1PreparedStatement {
  return db.$client
    .prepare(grantSql('c.code = ?3', 'NOT EXISTS (SELECT 1 FROM user_coupons u WHERE u.user_id = ?1 AND u.coupon_id = c.id)'))
    .bind(userId, now, NEW_USER_GIFT_COUPON);
}

/** The invitee coupons, once per account, and only to an account that was invited. */
export function grantInviteeCoupons(db: Db, inviteeId: number, now: number): D1PreparedStatement {
  return db.$client
    .prepare(
      grantSql(
        "c.purpose = 'invitee'",
        `EXISTS (SELECT 1 FROM invitations WHERE invitee_id = ?1)
     AND NOT EXISTS (SELECT 1 FROM user_coupons u JOIN coupons k ON k.id = u.coupon_id WHERE u.user_id = ?1 AND k.purpose = 'invitee')`,
      ),
    )
    .bind(inviteeId, now);
}

/** Inviter rewards granted since ?3 (the month's start) to the inviter of the `invitations` row being updated. */
const REWARDS_THIS_MONTH = `(SELECT count(*) FROM invitations j
  WHERE j.inviter_id = invitations.inviter_id AND j.reward_state = 'granted' AND j.rewarded_at >= ?3)`;

/**
 * The inviter's reward, decided by the invited friend's first paid order (`orderId`): granted while
 * the inviter has had fewer than `cap` this month (the coupons, one bundle per invitation, made
 * while the coupon was valid), else capped. Guarded on the invitation still waiting and on the order
 * being paid and not refunded, so a retried confirmation grants nothing twice.
 */
export function rewardInviterStatements(db: Db, orderId: number, now: number, monthStart: number, cap: number): D1PreparedStatement[] {
  const d1 = db.$client;
  return [
    d1
      .prepare(`UPDATE invitations SET reward_order_id = ?1,
        reward_state = CASE WHEN ${REWARDS_THIS_MONTH} < ?4 THEN 'granted' ELSE 'capped' END,
        rewarded_at = CASE WHEN ${REWARDS_THIS_MONTH} < ?4 THEN ?2 ELSE NULL END
      WHERE reward_state = 'waiting'
        AND invitee_id = (SELECT user_id FROM orders WHERE id = ?1 AND paid_at IS NOT NULL AND status <> 'refunded')`)
      .bind(orderId, now, monthStart, cap),
    d1
      .prepare(`WITH RECURSIVE copies(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM copies WHERE n < ${BUNDLE_MAX})
      INSERT INTO user_coupons (user_id, coupon_id, status, created_at, invitation_id)
      SELECT i.inviter_id, c.id, 'unused', ?2, i.id
      FROM invitations i JOIN coupons c ON c.purpose = 'inviter' JOIN copies ON copies.n <= c.bundle_count
      WHERE i.reward_order_id = ?1 AND i.reward_state = 'granted' AND c.valid_to > ?2 AND i.created_at >= c.valid_from
        AND NOT EXISTS (SELECT 1 FROM user_coupons u WHERE u.invitation_id = i.id)`)
      .bind(orderId, now),
  ];
}

/**
 * A refund of the order that earned an inviter's reward takes back the reward's unused coupons; when
 * none of them was spent, the invitation waits again for the friend's next paid order.
 */
export function withdrawInviterRewardStatements(db: Db, orderId: number): D1PreparedStatement[] {
  const d1 = db.$client;
  const refunded = "EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND status = 'refunded')";
  return [
    d1
      .prepare(`DELETE FROM user_coupons WHERE status = 'unused' AND ${refunded}
      AND invitation_id IN (SELECT id FROM invitations WHERE reward_order_id = ?1)`)
      .bind(orderId),
    d1
      .prepare(`UPDATE invitations SET reward_state = 'waiting', reward_order_id = NULL, rewarded_at = NULL
      WHERE reward_order_id = ?1 AND ${refunded}
        AND NOT EXISTS (SELECT 1 FROM user_coupons u WHERE u.invitation_id = invitations.id)`)
      .bind(orderId),
  ];
}

// ---------------------------------------------------------------------------------------------
// My Coupons

export interface CouponCard {
  couponId: number;
  code: string;
  name: string;
  state: CouponState;
  /** How many of this coupon the user holds in this state (several for a bundle). */
  count: number;
  bundleCount: number;
  kind: 'rate' | 'amount';
  /** A rate as a fold ("8.5") and its percent off (15). */
  fold: string | null;
  percentOff: number | null;
  /**
   * An amount in its own currency, and converted to the user's currency when that differs: checkout
   * converts the coupon's own amount at that day's rate, so the converted one is shown as "about".
   */
  amount: FormattedMoney | null;
  amountInUserCurrency: FormattedMoney | null;
  /** The minimum spend likewise, the converted one rounded up (spending it always meets the minimum). */
  minSpend: FormattedMoney | null;
  minSpendInUserCurrency: FormattedMoney | null;
  validFrom: number;
  validTo: number;
  newUserOnly: boolean;
  /** Where it applies: null for every show, else the category's id and name. */
  category: { id: number; name: string } | null;
}

export interface CouponList {
  tab: CouponTab;
  counts: Record<CouponTab, number>;
  items: CouponCard[];
}

type CouponRow = typeof coupons.$inferSelect;

/**
 * The amount and minimum spend of a coupon in its currency, plus in `currency` when that is another
 * one: the amount converted as checkout converts it, the minimum rounded up.
 */
export function couponAmounts(coupon: CouponRow, currency: string, locale: Locale, table: CurrencyTable) {
  const own = coupon.currency ?? currency;
  const amount =
    coupon.kind === 'amount' && coupon.amount !== null ? couponMoney(coupon.amount, own, 'amount', currency, locale, table) : null;
  const minSpend = coupon.minSpend > 0 ? couponMoney(coupon.minSpend, own, 'minimum', currency, locale, table) : null;
  return {
    amount: amount?.own ?? null,
    amountInUserCurrency: amount?.inUserCurrency ?? null,
    minSpend: minSpend?.own ?? null,
    minSpendInUserCurrency: minSpend?.inUserCurrency ?? null,
  };
}

/**
 * Minor units of a coupon's (or an offer's) currency `own`, and converted to the buyer's `currency`
 * when that differs: an amount off as checkout converts it, a minimum spend rounded up.
 */
export function couponMoney(
  units: number,
  own: string,
  kind: 'amount' | 'minimum',
  currency: string,
  locale: Locale,
  table: CurrencyTable,
) {
  const rounding = kind === 'minimum' ? 'up' : 'nearest';
  return {
    own: formattedMoney(units, own, locale, table),
    inUserCurrency:
      own === currency
        ? null
        : formattedMoney(convert({ amount: units, currency: own }, currency, table, rounding).amount, currency, locale, table),
  };
}

/**
 * A coupon's amount (or minimum) in the buyer's currency: exact when the coupon is in it; "about" the
 * converted amount otherwise, since checkout converts the coupon's own amount at that day's rate (the
 * confirm page then shows the exact discount, which is the one charged).
 */
export function couponAmountText(own: FormattedMoney, inUserCurrency: FormattedMoney | null, t: Translate): string {
  return inUserCurrency && inUserCurrency.currency !== own.currency
    ? t('coupons.converted', { amount: inUserCurrency.formatted })
    : own.formatted;
}

function cardOf(
  coupon: CouponRow,
  category: { id: number; name: string } | null,
  state: CouponState,
  count: number,
  ctx: RequestContext,
  table: CurrencyTable,
): CouponCard {
  const rate = coupon.kind === 'rate' && coupon.foldTenths !== null ? coupon.foldTenths : null;
  return {
    couponId: coupon.id,
    code: coupon.code,
    name: localizedName(coupon, ctx.locale),
    state,
    count,
    bundleCount: coupon.bundleCount,
    kind: coupon.kind,
    fold: rate === null ? null : foldText(rate),
    percentOff: rate === null ? null : percentOff(rate),
    ...couponAmounts(coupon, ctx.currency, ctx.locale, table),
    validFrom: coupon.validFrom,
    validTo: coupon.validTo,
    newUserOnly: coupon.newUserOnly,
    category,
  };
}

const TAB_ORDER: Record<CouponTab, (a: CouponCard, b: CouponCard) => number> = {
  // Usable: the one to use first (ending soonest) on top; expired: the latest to end on top.
  usable: (a, b) => a.validTo - b.validTo || a.couponId - b.couponId,
  used: (a, b) => b.validTo - a.validTo || a.couponId - b.couponId,
  expired: (a, b) => b.validTo - a.validTo || a.couponId - b.couponId,
};

/** The user's coupons of one tab, a card per coupon and state with how many are held, and every tab's count. */
export async function listCoupons(scope: UserScope, tab: CouponTab): Promise<CouponList> {
  const { db, ctx, currencies: table, userId, now } = scope;
  const rows = await db
    .select({ status: userCoupons.status, coupon: coupons, category: categories })
    .from(userCoupons)
    .innerJoin(coupons, eq(coupons.id, userCoupons.couponId))
    .leftJoin(categories, eq(categories.id, coupons.categoryId))
    .where(eq(userCoupons.userId, userId))
    .orderBy(asc(userCoupons.id));
  const counts = Object.fromEntries(COUPON_TABS.map((name) => [name, 0])) as Record<CouponTab, number>;
  const cards = new Map<string, CouponCard>();
  for (const row of rows) {
    const state = couponState(row.status, row.coupon, now);
    const rowTab = couponTab(state);
    counts[rowTab] += 1;
    if (rowTab !== tab) continue;
    const key = `${row.coupon.id}:${state}`;
    const card = cards.get(key);
    if (card) card.count += 1;
    else
      cards.set(
        key,
        cardOf(
          row.coupon,
          row.category ? { id: row.category.id, name: localizedName(row.category, ctx.locale) } : null,
          state,
          1,
          ctx,
          table,
        ),
      );
  }
  return { tab, counts, items: [...cards.values()].sort(TAB_ORDER[tab]) };
}

// ---------------------------------------------------------------------------------------------
// Invite-coupon pop-ups (SPEC.md section 7: GET /api/v1/popBox/inviteCoupon/list)

export interface InviteCouponPopup {
  /** The newest held row of the coupon: the home page marks pop-ups up to it as shown. */
  id: number;
  type: 'invitee' | 'inviter';
  name: string;
  count: number;
  percentOff: number | null;
  fold: string | null;
  amount: FormattedMoney | null;
  /** The amount in the user's currency (the same as `amount` when the coupon is in it). */
  mainAmount: FormattedMoney | null;
  mainCurrencyVO: CurrencyView;
  validTo: number;
}

/** The unused, unexpired invitee and inviter coupons the user received after row `afterId`, a pop-up per coupon. */
export function inviteCouponPopupsRead(scope: UserScope, afterId: number): Read<InviteCouponPopup[]> {
  const { db, ctx, currencies: table, userId, now } = scope;
  const main = scope.reference.currencies.find((currency) => currency.code === ctx.currency);
  return read(
    {
      coupons: db
        .select({ id: prefixed('user_coupon', userCoupons, ['id']).id, coupon: coupons })
        .from(userCoupons)
        .innerJoin(coupons, eq(coupons.id, userCoupons.couponId))
        .where(
          and(
            eq(userCoupons.userId, userId),
            gt(userCoupons.id, afterId),
            eq(userCoupons.status, 'unused'),
            inArray(coupons.purpose, ['invitee', 'inviter']),
            gt(coupons.validTo, now),
          ),
        )
        .orderBy(asc(userCoupons.id)),
    },
    ({ coupons: rows }) => {
      const popups = new Map<number, InviteCouponPopup>();
      for (const { id, coupon } of rows) {
        const known = popups.get(coupon.id);
        if (known) {
          known.id = id;
          known.count += 1;
          continue;
        }
        const { amount, amountInUserCurrency } = couponAmounts(coupon, ctx.currency, ctx.locale, table);
        const rate = coupon.kind === 'rate' && coupon.foldTenths !== null ? coupon.foldTenths : null;
        popups.set(coupon.id, {
          id,
          type: coupon.purpose === 'inviter' ? 'inviter' : 'invitee',
          name: localizedName(coupon, ctx.locale),
          count: 1,
          percentOff: rate === null ? null : percentOff(rate),
          fold: rate === null ? null : foldText(rate),
          amount,
          mainAmount: amountInUserCurrency ?? amount,
          mainCurrencyVO: main ?? { code: ctx.currency, desc: ctx.currency, currencyType: 0 },
          validTo: coupon.validTo,
        });
      }
      return [...popups.values()];
    },
  );
}

export const inviteCouponPopups = (scope: UserScope, afterId: number) => readOne(scope.db, inviteCouponPopupsRead(scope, afterId));
