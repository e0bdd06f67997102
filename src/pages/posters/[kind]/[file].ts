import type { APIRoute } from 'astro';
import { posterSvg } from '../../../lib/domain/poster.ts';

const FILE_PATTERN = /^(\d{1,9})\.svg$/;
const KINDS = new Set(['activity', 'banner']);

/** Posters are generated, not stored: the same id always draws the same image, so it caches forever. */
export const GET: APIRoute = ({ params }) => {
  const match = FILE_PATTERN.exec(params.file ?? '');
  const kind = params.kind ?? '';
  if (!match || !KINDS.has(kind)) return new Response(null, { status: 404 });
  return new Response(posterSvg(kind as 'activity' | 'banner', Number(match[1])), {
    headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' },
  });
};
