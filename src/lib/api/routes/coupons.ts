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
import { INVITE_COUPON_SEEN_COOKIE } from '../../config/request.ts';
import { COUPON_TABS } from '../../domain/coupons.ts';
import { seenInviteCouponId } from '../../domain/invitations.ts';
import { inviteCouponPopups, listCoupons } from '../../services/orders/coupons.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { signedIn } from '../session.ts';
import { input } from '../validate.ts';

const listQuery = z.object({ tab: z.enum(COUPON_TABS).default('usable') });

const doc = describe('Coupons');

export const couponRoutes = new Hono<ApiEnv>()
  .get('/v1/coupon/list', doc.user("The user's coupons of a tab, with every tab's count"), signedIn, input('query', listQuery), async (c) =>
    c.json(success(await listCoupons(c.var.scope, c.req.valid('query').tab))),
  )
  .get('/v1/popBox/inviteCoupon/list', doc.user('The invite coupons received since the pop-ups were last shown'), signedIn, async (c) => {
    const userId = c.var.user.userId;
    const seen = seenInviteCouponId(getCookie(c, INVITE_COUPON_SEEN_COOKIE), userId);
    return c.json(success(await inviteCouponPopups(c.var.scope, seen)));
  });
