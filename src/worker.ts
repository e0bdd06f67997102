import astro from '@astrojs/cloudflare/entrypoints/server';
import { database } from './lib/db/client.ts';
import { sweep } from './lib/services/sweep.ts';

export default {
  fetch: astro.fetch,
  /** The cron trigger of wrangler.toml: expire unpaid orders and clean up, every minute. */
  async scheduled(controller: ScheduledController, env: Cloudflare.Env, ctx: ExecutionContext) {
    ctx.waitUntil(
      sweep(database(env.DB), controller.scheduledTime).then((result) => {
        if (result.expiredOrders > 0) console.log(JSON.stringify({ event: 'orders_expired', count: result.expiredOrders }));
      }),
    );
  },
} satisfies ExportedHandler<Cloudflare.Env>;
