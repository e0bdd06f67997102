/**
 * Uploaded posters and banners (docs/decisions/images.md). An upload is checked by its bytes
 * (domain/image-upload.ts: type, byte and pixel limits, before anything decodes it), then Cloudflare
 * Images decodes it once per file it becomes: the master JPEG at the kind's largest width and an AVIF
 * and a WebP at every width of POSTER_WIDTHS, each cropped to the kind's aspect. Re-encoding drops the
 * upload's metadata (EXIF, GPS, camera), and the master's metadata segments are cut out besides,
 * whatever the encoder carried over (Cloudflare keeps a JPEG's copyright by default): only pixels are
 * published. The files go to the MEDIA bucket, then the image's row and its audit row are written in
 * one batch: a failed batch leaves unreferenced objects, never a row without its files.
 */
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { batch } from '../../data/batch.ts';
import { images, users } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { checkImageUpload, type ImageHeader, withoutJpegMetadata } from '../../domain/image-upload.ts';
import {
  MASTER_JPEG_QUALITY,
  masterWidth,
  mediaKey,
  mediaPath,
  mediaVariantPath,
  POSTER_WIDTHS,
  posterHeight,
  type PosterKind,
  VARIANT_FORMATS,
  VARIANT_MIME_TYPES,
  VARIANT_QUALITY,
} from '../../domain/poster-images.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';

/** Where an upload's files are made and kept: the worker's Images and MEDIA bindings. */
export interface MediaPorts {
  images: ImagesBinding;
  bucket: R2Bucket;
}

/** One file an image is stored as: its path under /media/, pixel size and encoding. */
export interface ImageFile {
  path: string;
  width: number;
  height: number;
  contentType: string;
  quality: number;
}

/** One file's bytes, ready for the bucket. */
export interface EncodedFile {
  file: ImageFile;
  bytes: Uint8Array;
}

export interface StoredImage {
  id: string;
  kind: PosterKind;
  /** What the catalogue stores (activities.poster, a banner's image): the master JPEG's path. */
  path: string;
  width: number;
  height: number;
}

/** A new image's id: 80 random bits in hex. */
export function newImageId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(10)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The files an image of a kind is stored as: the master JPEG first, then each variant. */
export function imageFiles(kind: PosterKind, id: string): ImageFile[] {
  const width = masterWidth(kind);
  const master = {
    path: mediaPath(kind, id),
    width,
    height: posterHeight(kind, width),
    contentType: 'image/jpeg',
    quality: MASTER_JPEG_QUALITY,
  };
  const variants = POSTER_WIDTHS[kind].flatMap((variantWidth) =>
    VARIANT_FORMATS.map((format) => ({
      path: mediaVariantPath(kind, id, variantWidth, format),
      width: variantWidth,
      height: posterHeight(kind, variantWidth),
      contentType: VARIANT_MIME_TYPES[format],
      quality: VARIANT_QUALITY[format],
    })),
  );
  return [master, ...variants];
}

/** Images answers an input it cannot decode with an ImagesError, which carries a numeric code. */
function isImagesError(error: unknown): boolean {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'number';
}

/** One file made from the upload by Cloudflare Images; bytes it cannot decode are the uploader's problem (image_unreadable). */
async function encodeFile(ports: MediaPorts, upload: Uint8Array, file: ImageFile): Promise<EncodedFile> {
  try {
    const result = await ports.images
      .input(new Blob([upload as Uint8Array<ArrayBuffer>]).stream())
      .transform({ width: file.width, height: file.height, fit: 'cover' })
      .output({ format: file.contentType as ImageOutputOptions['format'], quality: file.quality });
    const bytes = new Uint8Array(await result.response().arrayBuffer());
    // Images works best-effort and may answer another format than asked: the file is served as what it is.
    const made = { ...file, contentType: result.contentType() };
    return { file: made, bytes: made.contentType === 'image/jpeg' ? withoutJpegMetadata(bytes) : bytes };
  } catch (error) {
    if (isImagesError(error)) throw new DomainError('image_unreadable', {}, 'file');
    throw error;
  }
}

/** Makes every file of an image from the upload's bytes, all at once. */
export function encodeImageFiles(ports: MediaPorts, upload: Uint8Array, files: readonly ImageFile[]): Promise<EncodedFile[]> {
  return Promise.all(files.map((file) => encodeFile(ports, upload, file)));
}

/** Puts an image's files in the bucket, each with its content type (what the /media/ route serves it as). */
export async function putImageFiles(bucket: R2Bucket, encoded: readonly EncodedFile[]): Promise<void> {
  await Promise.all(
    encoded.map(({ file, bytes }) => bucket.put(mediaKey(file.path), bytes, { httpMetadata: { contentType: file.contentType } })),
  );
}

/**
 * Stores an upload as an image of its kind: checked, its files made and put in the bucket, its row
 * and audit row written together. Answers the master's path and size.
 */
export async function storeImage(scope: StaffScope, ports: MediaPorts, kind: PosterKind, upload: Uint8Array): Promise<StoredImage> {
  const header: ImageHeader = checkImageUpload(upload, kind);
  const id = newImageId();
  const files = imageFiles(kind, id);
  const encoded = await encodeImageFiles(ports, upload, files);
  await putImageFiles(ports.bucket, encoded);
  const [master] = encoded;
  const row = {
    id,
    kind,
    key: mediaKey(master.file.path),
    width: master.file.width,
    height: master.file.height,
    contentType: master.file.contentType,
    bytes: master.bytes.length,
    uploadedBy: scope.userId,
    createdAt: scope.now,
  };
  await batch(scope.db, {
    image: scope.db.insert(images).values(row),
    audit: auditEntry(scope, {
      action: 'image.upload',
      subjectType: 'image',
      subjectId: id,
      before: null,
      after: { ...row, upload: { type: header.type, width: header.width, height: header.height, bytes: upload.length } },
    }),
  });
  return { id, kind, path: master.file.path, width: master.file.width, height: master.file.height };
}

/** An uploaded image as the console lists it. */
export interface ImageListItem {
  id: string;
  kind: PosterKind;
  path: string;
  width: number;
  height: number;
  bytes: number;
  uploaderName: string | null;
  createdAt: number;
}

/** The latest uploads, newest first. */
export async function latestImages(db: Db, limit: number): Promise<ImageListItem[]> {
  const rows = await db
    .select({
      id: images.id,
      kind: images.kind,
      width: images.width,
      height: images.height,
      bytes: images.bytes,
      uploaderName: users.nickname,
      createdAt: images.createdAt,
    })
    .from(images)
    .leftJoin(users, eq(users.id, images.uploadedBy))
    .orderBy(desc(images.createdAt), desc(images.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, path: mediaPath(row.kind, row.id) }));
}
