import type { APIRoute } from 'astro';
import { sitemapPartAnswer } from '../../lib/pages/crawler-files.ts';

export const GET: APIRoute = (context) => sitemapPartAnswer(context);
