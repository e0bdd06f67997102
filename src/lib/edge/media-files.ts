/**
 * Serving uploaded images (services/media/images.ts) from the MEDIA bucket: a file's URL names bytes
 * that never change (a new upload gets a new id), so it caches for a year, revalidates by its ETag, and
 * is answered with the content type it was stored with. Any other path under /media/ is a 404.
 */
import { isMediaFilePath, mediaKey } from '../domain/poster-images.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The answer to a GET or HEAD of a /media/ path. */
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
