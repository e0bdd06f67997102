/**
 * The exchange rates in the console (permission 'rates': operators; services/rates/):
 *
 *   GET    v1/operator/rates                 every currency's rate, its source, age and pin
 *   PUT    v1/operator/rates/{quote}/pin     { rate } units of the quote one HKD buys ("0.1285"): set by hand and
 *                                            pinned, so the daily refresh leaves it (400 rate_invalid, 409 rate_base_fixed for HKD)
 *   DELETE v1/operator/rates/{quote}/pin     the refresh may write it again
 *   POST   v1/operator/rates/refresh         asks the provider now: { outcome: 'updated', updated } or
 *                                            { outcome: 'kept', reason } (the provider failed or answered nonsense; old rates stay)
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { pinRate, ratesTable, unpinRate } from '../../services/rates/rates.ts';
import { ratesProvider, refreshRates } from '../../services/rates/refresh.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { currencyCode } from '../params.ts';
import { signedIn } from '../session.ts';
import { staffOnly } from '../staff.ts';
import { input } from '../validate.ts';

const quoteParam = z.object({ quote: currencyCode });
const pinBody = z.object({ rate: z.string().max(32) });

const doc = describe('Operator');

export const rateRoutes = new Hono<ApiEnv>()
  .get(
    '/v1/operator/rates',
    doc.user('Every currency’s exchange rate with its source, age and pin (operators)'),
    signedIn,
    staffOnly('rates'),
    async (c) => c.json(success(await ratesTable(c.var.scope.db, c.var.scope.now))),
  )
  .put(
    '/v1/operator/rates/:quote/pin',
    doc.user('Sets a rate by hand and pins it against the daily refresh (operators)'),
    signedIn,
    staffOnly('rates'),
    input('param', quoteParam),
    input('json', pinBody),
    async (c) => c.json(success(await pinRate(c.var.scope, c.req.valid('param').quote, c.req.valid('json').rate))),
  )
  .delete(
    '/v1/operator/rates/:quote/pin',
    doc.user('Unpins a rate: the daily refresh may write it again (operators)'),
    signedIn,
    staffOnly('rates'),
    input('param', quoteParam),
    async (c) => c.json(success(await unpinRate(c.var.scope, c.req.valid('param').quote))),
  )
  .post(
    '/v1/operator/rates/refresh',
    doc.user('Refreshes the rates from the provider now; keeps the old ones when it fails (operators)'),
    signedIn,
    staffOnly('rates'),
    async (c) => {
      const { scope } = c.var;
      return c.json(success(await refreshRates(scope.db, ratesProvider(scope.env), scope.now, scope)));
    },
  );
