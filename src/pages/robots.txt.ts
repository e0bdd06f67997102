import type { APIRoute } from 'astro';
import { robotsAnswer } from '../lib/edge/crawler-files.ts';

export const GET: APIRoute = (context) => robotsAnswer(context);
