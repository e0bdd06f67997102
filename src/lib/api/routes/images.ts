/**
 * Posters and banners uploaded by the catalogue's staff (operators and editors; services/media/images.ts).
 *
 *   POST v1/operator/images   multipart/form-data: `file` (the image) and `kind` ('activity' | 'banner');
 *                             answers { path, width, height }: `path` is what an activity's poster or a
 *                             banner's image stores. The type is read from the bytes, never from the
 *                             file's name or declared type; refusals: image_type_unsupported,
 *                             image_too_large (413), image_too_many_pixels, image_too_small, image_unreadable
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { DomainError } from '../../domain/errors.ts';
import { storeImage } from '../../services/media/images.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { signedIn } from '../session.ts';
import { staffOnly } from '../staff.ts';
import { parseInput } from '../validate.ts';

const kindField = z.object({ kind: z.enum(['activity', 'banner']) });

const doc = describe('Operator');

/** The multipart form of an upload; a body that is not one is invalid_input on `body`. */
async function uploadForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new DomainError('invalid_input', { field: 'body' }, 'body');
  }
}

export const imageRoutes = new Hono<ApiEnv>().post(
  '/v1/operator/images',
  doc.user('Uploads a poster or banner: checked, stored with its responsive variants (catalogue staff)'),
  signedIn,
  staffOnly('catalogue'),
  async (c) => {
    const form = await uploadForm(c.req.raw);
    const { kind } = parseInput(kindField, { kind: form.get('kind') });
    const file = form.get('file');
    if (!(file instanceof File)) throw new DomainError('invalid_input', { field: 'file' }, 'file');
    const bytes = new Uint8Array(await file.arrayBuffer());
    const image = await storeImage(c.var.scope, { images: c.env.IMAGES, bucket: c.env.MEDIA }, kind, bytes);
    return c.json(success({ path: image.path, width: image.width, height: image.height }));
  },
);
