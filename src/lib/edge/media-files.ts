/**
 * Serving uploaded images (services/media/images.ts) from the MEDIA bucket: a file's URL names bytes
 * that never change (a new upload gets a new id), so it caches for a year, revalidates by its ETag, and
 * is answered with the content type it was stored with. A Worker's answers do not enter Cloudflare's
 * CDN cache by themselves, so each file is also kept in the data centre's cache after its first read
 * from R2. Any other path under /media/ is a 404.
 */
import { isMediaFilePath, mediaKey } from '../domain/poster-images.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Answers from the data centre's cache carry this header: `hit`, or `miss` when read from the bucket. */
export const MEDIA_CACHE_HEADER = 'x-media-cache';

/** The answer to a GET or HEAD of a /media/ path, from the bucket. */
export async function mediaFileResponse(bucket: R2Bucket, path: string, request: Request): Promise<Response> {
  if (!isMediaFilePath(path)) return new Response(null, { status: 404 });
  const object = await bucket.get(mediaKey(path), { onlyIf: request.headers });
  if (!object) return new Response(null, { status: 404 });
  const headers = new Headers({ 'cache-control': IMMUTABLE, etag: object.httpEtag });
  object.writeHttpMetadata(headers);
  // A met If-None-Match answers no body: the browser's copy is current.
  if (!('body' in object)) return new Response(null, { status: 304, headers });
  headers.set('content-length', String(object.size));
  return new Response(request.method === 'HEAD' ? null : object.body, { headers });
}

/** The data centre's cache: Workers' caches.default (the DOM's CacheStorage type lacks it). */
function edgeCache(): Cache {
  return (caches as unknown as { default: Cache }).default;
}

/**
 * The answer to a GET of a /media/ path from the data centre's cache, or from the bucket and then kept
 * in the cache (`keep` hands the runtime the write, to finish after the answer). A browser's current
 * copy (If-None-Match) gets a 304 either way.
 */
export async function cachedMediaFileResponse(
  bucket: R2Bucket,
  path: string,
  request: Request,
  keep: (work: Promise<unknown>) => void,
): Promise<Response> {
  if (request.method !== 'GET' || !isMediaFilePath(path)) return mediaFileResponse(bucket, path, request);
  // Keyed by path alone: neither the host asked nor a query makes another file.
  const key = new Request(new URL(path, 'https://media.invalid').href);
  let answer = await edgeCache().match(key);
  const source = answer ? 'hit' : 'miss';
  if (!answer) {
    answer = await mediaFileResponse(bucket, path, new Request(request.url));
    if (answer.status !== 200) return answer;
    keep(edgeCache().put(key, answer.clone()));
  }
  const headers = new Headers(answer.headers);
  headers.set(MEDIA_CACHE_HEADER, source);
  const etag = headers.get('etag');
  if (
    etag !== null &&
    request.headers
      .get('if-none-match')
      ?.split(/\s*,\s*/)
      .includes(etag)
  ) {
    await answer.body?.cancel();
    headers.delete('content-length');
    return new Response(null, { status: 304, headers });
  }
  return new Response(answer.body, { status: 200, headers });
}
