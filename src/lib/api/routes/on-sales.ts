/**
 * The console's on-sale screens (permission 'on_sale': operators); the changes themselves are the
 * operator routes (operator.ts: cancel, postpone, high demand) and the admission rate here.
 *
 *   GET v1/operator/on-sales?when=now|soon|all&highDemand=1&q=   sessions on sale now or soon, high demand first, with line sizes
 *   GET v1/operator/sessions/{id}/on-sale                        one session's sale times, switches and admission rate
 *   GET v1/operator/sessions/{id}/live                           its tickets sold / held / left and its rooms' lines (polled by the console)
 *   GET v1/operator/sessions/{id}/refund-preview                 what each paid order's buyer (masked) paid and gets back, totals per currency
 *   PUT v1/operator/sessions/{id}/admission-rate                 { perMinute } (null: the default) buyers its waiting room lets through a minute
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { refundPreview } from '../../services/catalogue/refund-preview.ts';
import { setAdmissionRate } from '../../services/on-sale/admission-rate.ts';
import { ON_SALE_WHEN, onSaleLiveState, onSaleSession, onSaleSessions } from '../../services/on-sale/on-sale-console.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { idParam } from '../params.ts';
import { signedIn } from '../session.ts';
import { staffOnly } from '../staff.ts';
import { input } from '../validate.ts';

const listQuery = z.object({
  when: z.enum(ON_SALE_WHEN).default('all'),
  highDemand: z.enum(['0', '1']).default('0'),
  q: z.string().max(100).default(''),
});
/** The range is the service's rule (400 admission_rate_invalid), so the page's form and this answer alike. */
const rateBody = z.object({ perMinute: z.number().nullable() });

const doc = describe('Operator');

export const onSaleRoutes = new Hono<ApiEnv>()
  .get(
    '/v1/operator/on-sales',
    doc.user('Sessions on sale now or soon, with their high demand and waiting lines (operators)'),
    signedIn,
    staffOnly('on_sale'),
    input('query', listQuery),
    async (c) => {
      const { when, highDemand, q } = c.req.valid('query');
      return c.json(success(await onSaleSessions(c.var.scope, { when, highDemandOnly: highDemand === '1', query: q })));
    },
  )
  .get(
    '/v1/operator/sessions/:id/on-sale',
    doc.user('One session’s on-sale: sale times, high demand per session and tier, admission rate (operators)'),
    signedIn,
    staffOnly('on_sale'),
    input('param', idParam),
    async (c) => c.json(success(await onSaleSession(c.var.scope, c.req.valid('param').id))),
  )
  .get(
    '/v1/operator/sessions/:id/live',
    doc.user('A session’s live on-sale: tickets sold, held and left, buyers in line and let through (operators)'),
    signedIn,
    staffOnly('on_sale'),
    input('param', idParam),
    async (c) => c.json(success(await onSaleLiveState(c.var.scope, c.req.valid('param').id))),
  )
  .get(
    '/v1/operator/sessions/:id/refund-preview',
    doc.user('What a cancellation or postponement refunds: each paid order and the totals per currency (operators)'),
    signedIn,
    staffOnly('on_sale'),
    input('param', idParam),
    async (c) => c.json(success(await refundPreview(c.var.scope, c.req.valid('param').id))),
  )
  .put(
    '/v1/operator/sessions/:id/admission-rate',
    doc.user('Sets how many buyers a minute the session’s waiting room lets through; null for the default (operators)'),
    signedIn,
    staffOnly('on_sale'),
    input('param', idParam),
    input('json', rateBody),
    async (c) => c.json(success(await setAdmissionRate(c.var.scope, c.req.valid('param').id, c.req.valid('json').perMinute))),
  );
