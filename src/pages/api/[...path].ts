import type { APIRoute } from 'astro';
import { env } from 'cloudflare:workers';
import { api } from '../../lib/api/app.ts';

/** Everything under /api goes to the Hono app. */
export const ALL: APIRoute = ({ request }) => api.fetch(request, env);
