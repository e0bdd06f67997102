/**
 * The voucher (public: the link's key is the capability; no session needed at the gate).
 *
 *   GET v1/vouchers?order=<orderNo>&key=<signature>
 *       { orderNo, orderStatus, activity, session, tier, deliveryType, trackingNo, pickup,
 *         tickets: [{ ticketNo, seat, status, entryCode }] }
 *
 * A malformed or wrong key and an unknown order are the same 404 voucher_not_found. The answer is
 * never stored by a cache on the way and never passed on as a referrer: its URL holds the key.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { voucherFor } from '../../services/vouchers.ts';
import type { ApiEnv } from '../context.ts';
import { ApiError, success } from '../errors.ts';
import { parseInput } from '../validate.ts';

const voucherQuery = z.object({ order: z.string().default(''), key: z.string().default('') });

export const voucherRoutes = new Hono<ApiEnv>().get('/v1/vouchers', async (c) => {
  c.header('cache-control', 'no-store');
  c.header('referrer-policy', 'no-referrer');
  const { order, key } = parseInput(voucherQuery, c.req.query());
  const voucher = await voucherFor(c.get('db'), c.get('ctx').locale, order, key);
  if (!voucher) throw new ApiError(404, 'voucher_not_found');
  return c.json(success(voucher));
});
