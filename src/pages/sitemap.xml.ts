import type { APIRoute } from 'astro';
import { sitemapIndexAnswer } from '../lib/edge/crawler-files.ts';

export const GET: APIRoute = (context) => sitemapIndexAnswer(context);
