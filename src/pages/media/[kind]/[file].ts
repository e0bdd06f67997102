import { env } from 'cloudflare:workers';
import type { APIRoute } from 'astro';
import { mediaFileResponse } from '../../../lib/edge/media-files.ts';

/** An uploaded image's master or variant, from the MEDIA bucket (lib/edge/media-files.ts). */
export const GET: APIRoute = ({ request, url }) => mediaFileResponse(env.MEDIA, url.pathname, request);
