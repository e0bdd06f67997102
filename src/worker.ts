import astro from '@astrojs/cloudflare/entrypoints/server';
import { api } from './lib/api/app.ts';
import { database } from './lib/db/client.ts';
import { sharedPage } from './lib/pages/shared-page-cache.ts';
import { sweep } from './lib/services/sweep.ts';

/** /api and everything under it: the Hono app, which makes its own cross-site check (Astro's answers pages only). */
const API_PATH = /^\/api(?:\/|$)/;

export default {
  fetch(request, env, ctx) {
    if (API_PATH.test(new URL(request.url).pathname)) return api.fetch(request, env, ctx);
    return sharedPage(request, env, ctx, (page) => astro.fetch(page, env, ctx));
  },
  /** The cron trigger of wrangler.toml: expire unpaid orders and clean up, every minute. */
  async scheduled(controller: ScheduledController, env: Cloudflare.Env, ctx: ExecutionContext) {
    ctx.waitUntil(
      sweep(database(env.DB), env, controller.scheduledTime).then((result) => {
        if (result.expiredOrders > 0) console.log(JSON.stringify({ event: 'orders_expired', count: result.expiredOrders }));
      }),
    );
  },
} satisfies ExportedHandler<Cloudflare.Env>;
