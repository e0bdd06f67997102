/**
 * The worker the API tests run in: the Hono app (the tests call it in-process too) and the Durable
 * Object classes src/worker.ts exports. src/worker.ts itself needs Astro's build, which tests do not make.
 */
import { api } from '../../src/lib/api/app.ts';

export { WaitingRoom } from '../../src/lib/durable-objects/waiting-room.ts';

export default { fetch: (request, env, ctx) => api.fetch(request, env, ctx) } satisfies ExportedHandler<Cloudflare.Env>;
