/**
 * The voucher (public: the link's key is the capability; no session needed at the gate).
 *
 *   GET v1/vouchers?order=<orderNo>&key=<signature>
 *       { orderNo, orderStatus, activity, session, tier, deliveryType, trackingNo, pickup,
 *         tickets: [{ ticketNo, seat, status, entrySecret }] }
 *       (entrySecret: what the voucher computes the rotating entry code from; docs/entry-codes.md)
 *
 * A malformed or wrong key and an unknown order are the same 404 voucher_not_found. The answer is
 * never stored by a cache on the way and never passed on as a referrer: its URL holds the key.
 */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import { DomainError } from '../../domain/errors.ts';
import { voucherFor } from '../../services/orders/vouchers.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { input } from '../validate.ts';

const voucherQuery = z.object({ order: z.string().default(''), key: z.string().default('') });

/** Every answer, a refusal included: its URL holds the key. */
const privateAnswer = createMiddleware<ApiEnv>(async (c, next) => {
  c.header('cache-control', 'no-store');
  c.header('referrer-policy', 'no-referrer');
  await next();
});

const doc = describe('Vouchers');

export const voucherRoutes = new Hono<ApiEnv>().get(
  '/v1/vouchers',
  doc.anyone("An order's voucher, by its signed link (the key is the capability)"),
  privateAnswer,
  input('query', voucherQuery),
  async (c) => {
    const { order, key } = c.req.valid('query');
    const voucher = await voucherFor(c.var.scope, order, key);
    if (!voucher) throw new DomainError('voucher_not_found');
    return c.json(success(voucher));
  },
);
