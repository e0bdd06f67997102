import type { APIRoute } from 'astro';
import { shareCardAnswer } from '../../lib/pages/share-cards.ts';

/** A lottery's or an invitation's share card (lib/pages/share-cards.ts): `/share-cards/{locale}/{subject}-{version}.jpg`. */
export const GET: APIRoute = (context) => shareCardAnswer(context);
