import astro from '@astrojs/cloudflare/entrypoints/server';
import { api } from './lib/api/app.ts';
import { database } from './lib/data/client.ts';
import { COUNT_ROUND_TRIPS_HEADER, countingRoundTrips, ROUND_TRIPS_HEADER } from './lib/data/measured-d1.ts';
import { answerPage } from './lib/edge/page-request.ts';
import { consumeMessageBatch, type QueuedMessage } from './lib/services/messages/delivery.ts';
import { sweep } from './lib/services/platform/sweep.ts';
import { FX_RATES_CRON } from './lib/config/rates.ts';
import { ratesProvider, refreshRatesIfDue } from './lib/services/rates/refresh.ts';

/** The Durable Object classes of wrangler.toml, which the runtime finds among the entry's exports. */
export { SessionInventory, WaitingRoom } from './durable-objects.ts';

/** /api and everything under it: the Hono app, which makes its own cross-site check (Astro's answers pages only). */
const API_PATH = /^\/api(?:\/|$)/;

function answer(request: Request, env: Cloudflare.Env, ctx: ExecutionContext): Promise<Response> {
  const url = new URL(request.url);
  if (API_PATH.test(url.pathname)) return Promise.resolve(api.fetch(request, env, ctx));
  return answerPage(request, url, env, ctx, astro.fetch);
}

/** The answer read to its end (a page streams, and its components query as it does), with the D1 round trips it took. */
async function answerCountingRoundTrips(request: Request, env: Cloudflare.Env, ctx: ExecutionContext): Promise<Response> {
  const { result, roundTrips } = await countingRoundTrips(async () => {
    const response = await answer(request, env, ctx);
    return { response, body: await response.arrayBuffer() };
  });
  const counted = new Response(result.body, result.response);
  counted.headers.set(ROUND_TRIPS_HEADER, String(roundTrips));
  return counted;
}

export default {
  fetch(request, env, ctx) {
    if (LOCAL_BUILD && env.APP_ENV === 'local' && request.headers.has(COUNT_ROUND_TRIPS_HEADER))
      return answerCountingRoundTrips(request, env, ctx);
    return answer(request, env, ctx);
  },
  /** The MESSAGES queue of wrangler.toml: one delivery attempt per message, retried after the delay its verdict says. */
  async queue(batch: MessageBatch<QueuedMessage>, env: Cloudflare.Env) {
    await consumeMessageBatch(batch, database(env.DB, null, 'first-primary'), env);
  },
  /**
   * The cron triggers of wrangler.toml: hourly (FX_RATES_CRON), the exchange rates' refresh, which asks
   * the provider once they are a day old; every minute, expire unpaid orders and clean up.
   */
  async scheduled(controller: ScheduledController, env: Cloudflare.Env, ctx: ExecutionContext) {
    const db = database(env.DB, null, 'first-primary');
    if (controller.cron === FX_RATES_CRON) {
      ctx.waitUntil(refreshRatesIfDue(db, ratesProvider(env), controller.scheduledTime));
      return;
    }
    ctx.waitUntil(
      sweep(db, env, env.MESSAGES, controller.scheduledTime).then((result) => {
        if (result.expiredOrders > 0) console.log(JSON.stringify({ event: 'orders_expired', count: result.expiredOrders }));
      }),
    );
  },
} satisfies ExportedHandler<Cloudflare.Env, QueuedMessage>;
