import type { APIRoute } from 'astro';
import { robotsAnswer } from '../lib/pages/crawler-files.ts';

export const GET: APIRoute = (context) => robotsAnswer(context);
