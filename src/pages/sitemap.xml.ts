import type { APIRoute } from 'astro';
import { sitemapIndexAnswer } from '../lib/pages/crawler-files.ts';

export const GET: APIRoute = (context) => sitemapIndexAnswer(context);
