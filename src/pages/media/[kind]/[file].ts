import { env, waitUntil } from 'cloudflare:workers';
import type { APIRoute } from 'astro';
import { cachedMediaFileResponse } from '../../../lib/edge/media-files.ts';

/** An uploaded image's master or variant, from the data centre's cache or the MEDIA bucket (lib/edge/media-files.ts). */
export const GET: APIRoute = ({ request, url }) => cachedMediaFileResponse(env.MEDIA, url.pathname, request, waitUntil);
