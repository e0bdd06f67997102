/**
 * What an uploaded poster or banner must be, judged from its bytes alone: the type is sniffed from the
 * file's magic bytes (a name's extension and a declared content type prove nothing), and the pixel size
 * is read from the format's header before anything decodes it, so a small file that declares a huge
 * canvas (a decompression bomb) is refused without allocating its pixels.
 */
import { DomainError } from './errors.ts';
import { masterWidth, type PosterKind, posterHeight } from './poster-images.ts';

export type UploadedImageType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/avif';

/** The largest upload: a phone's full-size photo fits, a camera's raw file does not. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The longest side and the total pixels we let the image pipeline decode (a 40 MP camera's photo fits). */
export const MAX_IMAGE_SIDE = 8192;
export const MAX_IMAGE_PIXELS = 40_000_000;

/** The refusal of an upload over MAX_IMAGE_BYTES, whether the API's body limit or the check sees it first. */
export function imageTooLarge(): DomainError {
  return new DomainError('image_too_large', { megabytes: MAX_IMAGE_BYTES / 1024 / 1024 }, 'file');
}

export interface ImageHeader {
  type: UploadedImageType;
  width: number;
  height: number;
}

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((char, i) => bytes[at + i] === char.charCodeAt(0));

/** The image type the bytes begin with, or null for anything else (text, SVG, GIF, HEIC...). */
export function sniffImageType(bytes: Uint8Array): UploadedImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(bytes, 0, '\x89PNG\r\n\x1a\n')) return 'image/png';
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return 'image/webp';
  // An ISO-BMFF file whose `ftyp` box names AVIF as its major or a compatible brand.
  if (ascii(bytes, 4, 'ftyp') && bytes.length >= 16) {
    const boxSize = Math.min(readU32(bytes, 0), bytes.length);
    for (let at = 8; at + 4 <= boxSize; at += 4) {
      if (at !== 12 && (ascii(bytes, at, 'avif') || ascii(bytes, at, 'avis'))) return 'image/avif';
    }
  }
  return null;
}

const readU16 = (bytes: Uint8Array, at: number) => (bytes[at] << 8) | bytes[at + 1];
const readU32 = (bytes: Uint8Array, at: number) => ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
const readU24le = (bytes: Uint8Array, at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
const readU14le = (bytes: Uint8Array, at: number) => (bytes[at] | (bytes[at + 1] << 8)) & 0x3fff;

/** The size a PNG's IHDR declares. */
function pngSize(bytes: Uint8Array) {
  if (bytes.length < 24 || !ascii(bytes, 12, 'IHDR')) return null;
  return { width: readU32(bytes, 16), height: readU32(bytes, 20) };
}

/** JPEG start-of-frame markers (baseline, progressive, lossless...): not DHT (C4), JPG (C8) or DAC (CC). */
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** The size a JPEG's start-of-frame segment declares, walking the segments before it. */
function jpegSize(bytes: Uint8Array) {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = readU16(bytes, at + 2);
    if (SOF_MARKERS.has(marker)) {
      if (at + 9 > bytes.length) return null;
      return { width: readU16(bytes, at + 7), height: readU16(bytes, at + 5) };
    }
    if (marker === 0xda || length < 2) return null;
    at += 2 + length;
  }
  return null;
}

/** The size of a WebP's canvas: VP8X (extended), VP8L (lossless) or VP8 (lossy) header. */
function webpSize(bytes: Uint8Array) {
  if (ascii(bytes, 12, 'VP8X') && bytes.length >= 30) return { width: readU24le(bytes, 24) + 1, height: readU24le(bytes, 27) + 1 };
  if (ascii(bytes, 12, 'VP8L') && bytes.length >= 25 && bytes[20] === 0x2f) {
    const bits = (bytes[21] | (bytes[22] << 8) | (bytes[23] << 16) | (bytes[24] << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(bytes, 12, 'VP8 ') && bytes.length >= 30 && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a) {
    return { width: readU14le(bytes, 26), height: readU14le(bytes, 28) };
  }
  return null;
}

/** The largest size an AVIF's image spatial extents (`ispe`) properties declare. */
function avifSize(bytes: Uint8Array) {
  let size: { width: number; height: number } | null = null;
  for (let at = 4; at + 16 <= bytes.length; at++) {
    if (!ascii(bytes, at, 'ispe')) continue;
    const width = readU32(bytes, at + 8);
    const height = readU32(bytes, at + 12);
    if (!size || width * height > size.width * size.height) size = { width, height };
  }
  return size;
}

const SIZE_READERS: Record<UploadedImageType, (bytes: Uint8Array) => { width: number; height: number } | null> = {
  'image/jpeg': jpegSize,
  'image/png': pngSize,
  'image/webp': webpSize,
  'image/avif': avifSize,
};

/** The type and pixel size an image's header declares, or null when the bytes are not a known image or its header is cut short. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const type = sniffImageType(bytes);
  if (!type) return null;
  const size = SIZE_READERS[type](bytes);
  return size && size.width > 0 && size.height > 0 ? { type, ...size } : null;
}

/** The smallest image a kind takes: its largest variant is never blown up from fewer pixels. */
export function minimumImageSize(kind: PosterKind): { width: number; height: number } {
  const width = masterWidth(kind);
  return { width, height: posterHeight(kind, width) };
}

/**
 * The header of an upload the rules accept, or a DomainError naming the first rule it breaks: its
 * byte count, its type, its declared pixels, the kind's minimum size. Nothing here decodes pixels.
 */
export function checkImageUpload(bytes: Uint8Array, kind: PosterKind): ImageHeader {
  if (bytes.length > MAX_IMAGE_BYTES) throw imageTooLarge();
  const header = readImageHeader(bytes);
  if (!header) throw new DomainError('image_type_unsupported', {}, 'file');
  const { width, height } = header;
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    throw new DomainError('image_too_many_pixels', { side: MAX_IMAGE_SIDE, megapixels: MAX_IMAGE_PIXELS / 1_000_000 }, 'file');
  }
  const minimum = minimumImageSize(kind);
  if (width < minimum.width || height < minimum.height) throw new DomainError('image_too_small', minimum, 'file');
  return header;
}

/** Whether a JPEG segment carries no metadata: JFIF's header (APP0) and the colour profile (APP2 ICC_PROFILE) stay. */
function keepsSegment(bytes: Uint8Array, at: number, marker: number): boolean {
  if (marker === 0xe0) return true;
  if (marker === 0xe2) return ascii(bytes, at + 4, 'ICC_PROFILE');
  return !(marker >= 0xe1 && marker <= 0xef) && marker !== 0xfe;
}

/**
 * A JPEG without its metadata segments (EXIF and XMP in APP1, IPTC in APP13, comments...): what an
 * encoder might have carried over from an upload. Walks the segments up to the scan, which it copies
 * as it is; bytes that are not a JPEG's come back unchanged.
 */
export function withoutJpegMetadata(bytes: Uint8Array): Uint8Array {
  if (sniffImageType(bytes) !== 'image/jpeg') return bytes;
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1];
    if (marker === 0xda) break;
    const end = at + 2 + readU16(bytes, at + 2);
    if (end > bytes.length) return bytes;
    if (keepsSegment(bytes, at, marker)) kept.push(bytes.subarray(at, end));
    at = end;
  }
  kept.push(bytes.subarray(at));
  const out = new Uint8Array(kept.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of kept) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
