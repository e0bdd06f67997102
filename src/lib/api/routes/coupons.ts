/**
 * The signed-in user's coupons and the home page's invite-coupon pop-ups.
 *
 *   GET v1/coupon/list?tab=usable|used|expired   a card per coupon and state, with every tab's count
 *   GET v1/popBox/inviteCoupon/list              the invitee / inviter coupons received since the
 *                                                pop-ups were last shown (cookie inviteCouponSeen),
 *                                                amounts in the user's currency (mainCurrencyVO)
 */
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import { INVITE_COUPON_SEEN_COOKIE } from '../../config.ts';
import { COUPON_TABS } from '../../domain/coupons.ts';
import { seenInviteCouponId } from '../../domain/invitations.ts';
import { requireUser } from '../../services/auth.ts';
import { inviteCouponPopups, listCoupons } from '../../services/coupons.ts';
import type { ApiEnv } from '../context.ts';
import { success } from '../errors.ts';
import { parseInput } from '../validate.ts';

const listQuery = z.object({ tab: z.enum(COUPON_TABS).default('usable') });

export const couponRoutes = new Hono<ApiEnv>()
  .get('/v1/coupon/list', async (c) => {
    const user = await requireUser(c);
    const { tab } = parseInput(listQuery, c.req.query());
    return c.json(success(await listCoupons(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId, tab, Date.now())));
  })
  .get('/v1/popBox/inviteCoupon/list', async (c) => {
    const user = await requireUser(c);
    const seen = seenInviteCouponId(getCookie(c, INVITE_COUPON_SEEN_COOKIE), user.userId);
    return c.json(success(await inviteCouponPopups(c.get('db'), c.get('ctx'), c.get('currencies'), user.userId, seen, Date.now())));
  });
