import type { APIRoute } from 'astro';
import { sitemapPartAnswer } from '../../lib/edge/crawler-files.ts';

export const GET: APIRoute = (context) => sitemapPartAnswer(context);
