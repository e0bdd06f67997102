import type { APIRoute } from 'astro';
import { shareCardAnswer } from '../../lib/edge/share-cards.ts';

/** A lottery's or an invitation's share card (lib/edge/share-cards.ts): `/share-cards/{locale}/{subject}-{version}.jpg`. */
export const GET: APIRoute = (context) => shareCardAnswer(context);
