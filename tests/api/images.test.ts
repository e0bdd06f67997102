/**
 * Posters and banners uploaded by the catalogue's staff: judged by their bytes (never by the file's
 * name or declared type), refused over the byte and pixel limits before any decoding, re-encoded
 * without their metadata into the master JPEG and the AVIF and WebP variants each width needs, put in
 * the MEDIA bucket (Images emulated locally by sharp, as wrangler does) and served with long-lived
 * cache headers; the image's row and its audit row land together.
 */
import { env } from 'cloudflare:workers';
import { encode as encodeJpeg } from 'jpeg-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/lib/api/app.ts';
import { readImageHeader } from '../../src/lib/domain/image-upload.ts';
import { database } from '../../src/lib/data/client.ts';
import { cachedMediaFileResponse, MEDIA_CACHE_HEADER, mediaFileResponse } from '../../src/lib/edge/media-files.ts';
import { latestImages } from '../../src/lib/services/media/images.ts';
import { encodePng } from '../../src/lib/media/png.ts';
import { type Answer, signedInClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';

interface Uploaded {
  path: string;
  width: number;
  height: number;
}

let editor: TestClient;
let operator: TestClient;
let customerService: TestClient;
let buyer: TestClient;

const userId = (client: TestClient) => Number(client.cookies.get('pnid'));

async function grant(client: TestClient, role: string): Promise<void> {
  await env.DB.prepare('INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, ?, 0)').bind(userId(client), role).run();
}

beforeAll(async () => {
  await seed();
  [editor, operator, customerService, buyer] = await Promise.all([
    signedInClient('img-editor'),
    signedInClient('img-operator'),
    signedInClient('img-service'),
    signedInClient('img-buyer'),
  ]);
  await Promise.all([grant(editor, 'editor'), grant(operator, 'operator'), grant(customerService, 'customer_service')]);
});

/** Posts a multipart upload as the client's browser would (its session cookies, same origin). */
async function upload(client: TestClient, kind: string, file: Blob | string | null, name = 'poster.jpg', type = 'image/jpeg') {
  const form = new FormData();
  form.set('kind', kind);
  if (file !== null) form.set('file', typeof file === 'string' ? file : new File([file], name, { type }));
  const cookie = [...client.cookies].map(([key, value]) => `${key}=${value}`).join('; ');
  const response = await api.fetch(
    new Request('http://localhost/api/v1/operator/images', {
      method: 'POST',
      headers: { cookie, origin: 'http://localhost', 'cf-connecting-ip': client.ip },
      body: form,
    }),
    env,
  );
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text } as Answer<Uploaded>;
}

/** A photo-like JPEG: a colour gradient with a pattern, so each encoding has real pixels to carry. */
function jpegOf(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      data.set([(x * 255) / width, (y * 255) / height, ((x ^ y) & 63) * 4, 255], at);
    }
  }
  return new Uint8Array(encodeJpeg({ data, width, height }, 85).data);
}

const GPS_NOTE = 'GPS 22.2819N 114.1582E taken at home';

/** The JPEG with an EXIF segment right after its start: a TIFF IFD holding one ImageDescription, our GPS note. */
function withExif(jpeg: Uint8Array): Uint8Array {
  const note = new TextEncoder().encode(`${GPS_NOTE}\0`);
  const tiff = new Uint8Array(26 + note.length);
  const view = new DataView(tiff.buffer);
  tiff.set([0x4d, 0x4d, 0x00, 0x2a]);
  view.setUint32(4, 8);
  view.setUint16(8, 1);
  view.setUint16(10, 0x010e);
  view.setUint16(12, 2);
  view.setUint32(14, note.length);
  view.setUint32(18, 26);
  view.setUint32(22, 0);
  tiff.set(note, 26);
  const payload = new Uint8Array([...new TextEncoder().encode('Exif\0\0'), ...tiff]);
  const segment = new Uint8Array(4 + payload.length);
  segment.set([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  segment.set(payload, 4);
  return new Uint8Array([...jpeg.subarray(0, 2), ...segment, ...jpeg.subarray(2)]);
}

async function pngOf(width: number, height: number): Promise<Uint8Array> {
  const pixels = new Uint8Array(width * height).map((_, i) => (i % width) % 256);
  return encodePng({ width, height, pixels }, async (bytes) => {
    const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  });
}

/** A PNG's signature and IHDR declaring a size, and no pixels: a decompression bomb's header. */
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  bytes.set([8, 2, 0, 0, 0], 24);
  return bytes;
}

const blob = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);

async function storedKeys(prefix: string): Promise<string[]> {
  return (await env.MEDIA.list({ prefix })).objects.map((object) => object.key).sort();
}

const get = (path: string, headers: Record<string, string> = {}) =>
  mediaFileResponse(env.MEDIA, path, new Request(`http://localhost${path}`, { headers }));

const idOf = (path: string) => path.split('/').at(-1)!.replace('.jpg', '');

describe('an accepted upload', () => {
  let poster: Uploaded;

  beforeAll(async () => {
    const answer = await upload(editor, 'activity', blob(withExif(jpegOf(900, 1350))), 'photo.png', 'image/png');
    expect(answer.status, answer.text).toBe(200);
    poster = answer.body.data;
  });

  it('answers the master’s path and size, at the kind’s largest width and aspect', () => {
    expect(poster.path).toMatch(/^\/media\/activity\/[0-9a-f]{20}\.jpg$/);
    expect({ width: poster.width, height: poster.height }).toEqual({ width: 360, height: 480 });
  });

  it('stores the master and an AVIF and a WebP at each width, each of its type and size', async () => {
    const id = idOf(poster.path);
    type Stored = [key: string, type: string, width: number, height: number];
    const expected: Stored[] = [
      [`activity/${id}.jpg`, 'image/jpeg', 360, 480],
      ...[144, 240, 360].flatMap((width): Stored[] => [
        [`activity/${id}-${width}.avif`, 'image/avif', width, (width * 4) / 3],
        [`activity/${id}-${width}.webp`, 'image/webp', width, (width * 4) / 3],
      ]),
    ];
    expect(await storedKeys(`activity/${id}`)).toEqual(expected.map(([key]) => key).sort());
    for (const [key, type, width, height] of expected) {
      const object = await env.MEDIA.get(key);
      expect(object?.httpMetadata?.contentType, key).toBe(type);
      expect(readImageHeader(new Uint8Array(await object!.arrayBuffer())), key).toEqual({ type, width, height });
    }
  });

  it('keeps none of the upload’s metadata', async () => {
    const master = new Uint8Array(await (await env.MEDIA.get(`activity/${idOf(poster.path)}.jpg`))!.arrayBuffer());
    const text = new TextDecoder('latin1').decode(master);
    expect(text).not.toContain('Exif');
    expect(text).not.toContain('GPS');
    // The upload did carry them: the check above could fail.
    expect(new TextDecoder('latin1').decode(withExif(jpegOf(8, 8)))).toContain(GPS_NOTE);
  });

  it('is served with its type, its ETag and a year of immutable caching; a current copy gets a 304', async () => {
    const master = await get(poster.path);
    expect(master.status).toBe(200);
    expect(master.headers.get('content-type')).toBe('image/jpeg');
    expect(master.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = master.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(readImageHeader(new Uint8Array(await master.arrayBuffer()))?.width).toBe(360);

    const variant = await get(poster.path.replace('.jpg', '-240.avif'));
    expect(variant.status).toBe(200);
    expect(variant.headers.get('content-type')).toBe('image/avif');
    expect(variant.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(readImageHeader(new Uint8Array(await variant.arrayBuffer()))).toEqual({ type: 'image/avif', width: 240, height: 320 });

    const again = await get(poster.path, { 'if-none-match': etag! });
    expect(again.status).toBe(304);
  });

  it('is kept in the data centre’s cache after its first read from the bucket', async () => {
    const path = poster.path.replace('.jpg', '-360.webp');
    const writes: Promise<unknown>[] = [];
    const keep = (work: Promise<unknown>) => writes.push(work);
    const request = (headers: Record<string, string> = {}) => new Request(`http://localhost${path}`, { headers });
    const first = await cachedMediaFileResponse(env.MEDIA, path, request(), keep);
    expect(first.status).toBe(200);
    expect(first.headers.get(MEDIA_CACHE_HEADER)).toBe('miss');
    const bytes = new Uint8Array(await first.arrayBuffer());
    await Promise.all(writes);
    expect(writes).toHaveLength(1);

    const second = await cachedMediaFileResponse(env.MEDIA, path, request(), keep);
    expect(second.headers.get(MEDIA_CACHE_HEADER)).toBe('hit');
    expect(second.headers.get('content-type')).toBe('image/webp');
    expect(second.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(bytes);
    const current = await cachedMediaFileResponse(env.MEDIA, path, request({ 'if-none-match': second.headers.get('etag')! }), keep);
    expect(current.status).toBe(304);
    expect(writes).toHaveLength(1);

    const missing = await cachedMediaFileResponse(env.MEDIA, poster.path.replace('.jpg', '-200.webp'), request(), keep);
    expect(missing.status).toBe(404);
    expect(writes).toHaveLength(1);
  });

  it('is a 404 at a path it was not stored at', async () => {
    const id = idOf(poster.path);
    for (const path of [
      `/media/activity/${id}-200.avif`,
      `/media/banner/${id}.jpg`,
      `/media/activity/${id}.png`,
      '/media/activity/x.jpg',
    ]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it('writes the image’s row and the editor’s audit row', async () => {
    const id = idOf(poster.path);
    const row = await env.DB.prepare('SELECT * FROM images WHERE id = ?').bind(id).first();
    expect(row).toMatchObject({ kind: 'activity', key: `activity/${id}.jpg`, width: 360, height: 480, content_type: 'image/jpeg' });
    expect(row?.uploaded_by).toBe(userId(editor));
    expect(row?.bytes).toBeGreaterThan(0);
    const audit = await env.DB.prepare("SELECT * FROM audit_log WHERE subject_type = 'image' AND subject_id = ?").bind(id).first<{
      actor_id: number;
      action: string;
      before_json: string | null;
      after_json: string;
    }>();
    expect(audit).toMatchObject({ actor_id: userId(editor), action: 'image.upload', before_json: null });
    expect(JSON.parse(audit!.after_json)).toMatchObject({
      key: `activity/${id}.jpg`,
      upload: { type: 'image/jpeg', width: 900, height: 1350 },
    });
  });
});

describe('a banner', () => {
  it('takes a PNG named and declared as a JPEG for the PNG it is, and makes the banner widths', async () => {
    const answer = await upload(operator, 'banner', blob(await pngOf(1600, 700)), 'banner.jpg', 'image/jpeg');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toMatchObject({ width: 1200, height: 525 });
    const id = idOf(answer.body.data.path);
    expect(await storedKeys(`banner/${id}`)).toHaveLength(1 + 4 * 2);
    const widest = await env.MEDIA.get(`banner/${id}-1200.webp`);
    expect(readImageHeader(new Uint8Array(await widest!.arrayBuffer()))).toEqual({ type: 'image/webp', width: 1200, height: 525 });
    const audit = await env.DB.prepare('SELECT after_json FROM audit_log WHERE subject_id = ?').bind(id).first<{ after_json: string }>();
    expect(JSON.parse(audit!.after_json).upload.type).toBe('image/png');
  });
});

describe('the console’s list', () => {
  it('shows the latest uploads first, with their path and uploader', async () => {
    const listed = await latestImages(database(env.DB), 50);
    expect(listed.length).toBeGreaterThanOrEqual(2);
    const [newest, before] = listed;
    expect(newest).toMatchObject({ kind: 'banner', width: 1200, height: 525, path: `/media/banner/${newest.id}.jpg` });
    expect(newest.createdAt).toBeGreaterThanOrEqual(before.createdAt);
    const nickname = await env.DB.prepare('SELECT nickname FROM users WHERE id = ?').bind(userId(operator)).first<{ nickname: string }>();
    expect(newest.uploaderName).toBe(nickname?.nickname);
    expect(before).toMatchObject({ kind: 'activity', width: 360, height: 480 });
    expect(await latestImages(database(env.DB), 1)).toEqual([newest]);
  });
});

describe('refusals', () => {
  async function refused(answer: Answer<Uploaded>, status: number, errorCode: string) {
    expect(answer.status, answer.text).toBe(status);
    expect(answer.body).toMatchObject({ errorCode, data: null });
    expect(answer.body.message).not.toBe(`error.${errorCode}`);
  }

  it('refuses a text file named and declared as a JPEG, in the uploader’s words', async () => {
    const before = (await env.MEDIA.list()).objects.length;
    await refused(
      await upload(editor, 'activity', new Blob(['these are not pixels']), 'poster.jpg', 'image/jpeg'),
      400,
      'image_type_unsupported',
    );
    expect((await env.MEDIA.list()).objects.length).toBe(before);
  });

  it('refuses an image over 10 MB', async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(pngHeader(2000, 2000));
    await refused(await upload(editor, 'activity', blob(big)), 413, 'image_too_large');
    const huge = new Uint8Array(11 * 1024 * 1024);
    huge.set(pngHeader(2000, 2000));
    await refused(await upload(editor, 'activity', blob(huge)), 413, 'image_too_large');
  });

  it('refuses a header declaring 30000 × 30000 pixels without decoding it', async () => {
    await refused(await upload(editor, 'activity', blob(pngHeader(30_000, 30_000))), 400, 'image_too_many_pixels');
  });

  it('refuses an image smaller than the kind’s largest variant', async () => {
    await refused(await upload(editor, 'banner', blob(jpegOf(800, 350))), 400, 'image_too_small');
  });

  it('refuses bytes whose header looks right but which do not decode', async () => {
    const rows = await env.DB.prepare('SELECT COUNT(*) AS n FROM images').first<{ n: number }>();
    await refused(await upload(editor, 'activity', blob(pngHeader(800, 1000))), 400, 'image_unreadable');
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM images').first<{ n: number }>()).toEqual(rows);
  });

  it('refuses a form without a file or with an unknown kind', async () => {
    await refused(await upload(editor, 'activity', null), 400, 'invalid_input');
    await refused(await upload(editor, 'activity', 'text'), 400, 'invalid_input');
    await refused(await upload(editor, 'flyer', blob(jpegOf(400, 600))), 400, 'invalid_input');
  });

  it('refuses buyers and customer service; nothing is stored for them', async () => {
    const before = await storedKeys('');
    await refused(await upload(buyer, 'activity', blob(jpegOf(400, 600))), 403, 'not_staff');
    await refused(await upload(customerService, 'activity', blob(jpegOf(400, 600))), 403, 'staff_role_forbidden');
    expect(await storedKeys('')).toEqual(before);
  });

  it('refuses a caller who is not signed in', async () => {
    await refused(await upload(new TestClient(), 'activity', blob(jpegOf(400, 600))), 401, 'unauthorized');
  });
});
