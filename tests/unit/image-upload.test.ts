import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/lib/domain/errors.ts';
import {
  checkImageUpload,
  MAX_IMAGE_BYTES,
  minimumImageSize,
  readImageHeader,
  sniffImageType,
  withoutJpegMetadata,
} from '../../src/lib/domain/image-upload.ts';

/** A real image of a format, made by sharp (the header the rules read is the encoder's, not ours). */
async function encoded(format: 'jpeg' | 'png' | 'webp' | 'avif', width: number, height: number, options: object = {}): Promise<Uint8Array> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 40 } } });
  return new Uint8Array(await image.toFormat(format, options).toBuffer());
}

/** A PNG's signature and IHDR declaring a size, with no pixels after it: a decompression bomb's header. */
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 2, 0, 0, 0], 24);
  return bytes;
}

function refusal(run: () => unknown): { code: string; params: Record<string, unknown>; field?: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, params: error.params, field: error.field };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('sniffing an upload', () => {
  it('reads each format and its pixel size from what its encoder wrote', async () => {
    expect(readImageHeader(await encoded('jpeg', 400, 500))).toEqual({ type: 'image/jpeg', width: 400, height: 500 });
    expect(readImageHeader(await encoded('jpeg', 401, 503, { progressive: true }))).toEqual({
      type: 'image/jpeg',
      width: 401,
      height: 503,
    });
    expect(readImageHeader(await encoded('png', 640, 280))).toEqual({ type: 'image/png', width: 640, height: 280 });
    expect(readImageHeader(await encoded('webp', 361, 481))).toEqual({ type: 'image/webp', width: 361, height: 481 });
    expect(readImageHeader(await encoded('webp', 362, 482, { lossless: true }))).toEqual({ type: 'image/webp', width: 362, height: 482 });
    expect(readImageHeader(await encoded('avif', 400, 520, { effort: 0 }))).toEqual({ type: 'image/avif', width: 400, height: 520 });
  });

  it('reads a JPEG whose metadata segments come before its frame', async () => {
    const withExif = await sharp(await encoded('jpeg', 420, 560))
      .withExif({ IFD0: { Make: 'Camera', Model: 'Phone' }, IFD3: { GPSLatitude: '22/1 16/1 0/1', GPSLatitudeRef: 'N' } })
      .jpeg()
      .toBuffer();
    expect(readImageHeader(new Uint8Array(withExif))).toEqual({ type: 'image/jpeg', width: 420, height: 560 });
  });

  it('knows a PNG by its bytes, whatever the file was called or declared as', async () => {
    const png = await encoded('png', 400, 600);
    const upload = new File([png as Uint8Array<ArrayBuffer>], 'poster.jpg', { type: 'image/jpeg' });
    expect(sniffImageType(new Uint8Array(await upload.arrayBuffer()))).toBe('image/png');
  });

  it('takes text, SVG, GIF and HEIC for no image it accepts', () => {
    const text = new TextEncoder();
    for (const bytes of [
      text.encode('Hello, this is a poster.jpg'),
      text.encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
      text.encode('GIF89a\x01\x00\x01\x00'),
      new Uint8Array([0, 0, 0, 24, ...text.encode('ftypheic'), 0, 0, 0, 0, ...text.encode('mif1heic')]),
      new Uint8Array([0xff, 0xd8]),
      new Uint8Array(),
    ]) {
      expect(sniffImageType(bytes)).toBeNull();
      expect(readImageHeader(bytes)).toBeNull();
    }
  });

  it('takes a JPEG cut before its frame header for no image', async () => {
    const jpeg = await encoded('jpeg', 400, 500);
    const start = jpeg.findIndex((byte, i) => byte === 0xff && jpeg[i + 1] === 0xc0);
    expect(readImageHeader(jpeg.slice(0, start))).toBeNull();
  });
});

describe('the rules of an upload', () => {
  it('accepts an image at or above its kind’s largest variant', async () => {
    expect(checkImageUpload(await encoded('jpeg', 2000, 2667), 'activity')).toEqual({ type: 'image/jpeg', width: 2000, height: 2667 });
    const { width, height } = minimumImageSize('banner');
    expect(checkImageUpload(await encoded('png', width, height), 'banner')).toMatchObject({ width, height });
  });

  it('refuses a text file named like a JPEG', () => {
    expect(refusal(() => checkImageUpload(new TextEncoder().encode('not a picture'), 'activity'))).toMatchObject({
      code: 'image_type_unsupported',
      field: 'file',
    });
  });

  it('refuses a header declaring 30000 × 30000 pixels from its header alone', () => {
    // 33 bytes: nothing to decode, and nothing needs to be.
    expect(refusal(() => checkImageUpload(pngHeader(30_000, 30_000), 'activity')).code).toBe('image_too_many_pixels');
    expect(refusal(() => checkImageUpload(pngHeader(9000, 1000), 'banner')).code).toBe('image_too_many_pixels');
    expect(refusal(() => checkImageUpload(pngHeader(7000, 7000), 'banner')).code).toBe('image_too_many_pixels');
    expect(checkImageUpload(pngHeader(8000, 5000), 'banner')).toEqual({ type: 'image/png', width: 8000, height: 5000 });
  });

  it('refuses more bytes than the limit before reading them', () => {
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(pngHeader(2000, 2000));
    expect(refusal(() => checkImageUpload(big, 'activity'))).toMatchObject({ code: 'image_too_large', params: { megabytes: 10 } });
    expect(checkImageUpload(big.subarray(0, MAX_IMAGE_BYTES), 'activity').type).toBe('image/png');
  });

  it('refuses an image smaller than its kind’s largest variant, saying the size it needs', () => {
    expect(minimumImageSize('activity')).toEqual({ width: 360, height: 480 });
    expect(refusal(() => checkImageUpload(pngHeader(359, 480), 'activity'))).toMatchObject({
      code: 'image_too_small',
      params: { width: 360, height: 480 },
    });
    expect(refusal(() => checkImageUpload(pngHeader(1000, 500), 'banner'))).toMatchObject({
      code: 'image_too_small',
      params: { width: 1200, height: 525 },
    });
  });
});

describe('a JPEG without its metadata', () => {
  const latin1 = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);

  it('loses EXIF (camera, GPS), keeps its colour profile and its pixels', async () => {
    const tagged = new Uint8Array(
      await sharp(await encoded('jpeg', 420, 560))
        .withExif({ IFD0: { Make: 'PhoneMaker', Model: 'Phone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '22/1 16/1 0/1' } })
        .withIccProfile('p3')
        .jpeg()
        .toBuffer(),
    );
    expect(latin1(tagged)).toContain('PhoneMaker');
    const stripped = withoutJpegMetadata(tagged);
    expect(latin1(stripped)).not.toContain('Exif');
    expect(latin1(stripped)).not.toContain('PhoneMaker');
    expect(latin1(stripped)).toContain('ICC_PROFILE');
    const metadata = await sharp(stripped).metadata();
    expect(metadata).toMatchObject({ width: 420, height: 560, format: 'jpeg' });
    expect(metadata.exif).toBeUndefined();
    const pixels = (bytes: Uint8Array) => sharp(bytes).raw().toBuffer();
    expect(Buffer.compare(await pixels(stripped), await pixels(tagged))).toBe(0);
  });

  it('leaves a JPEG without metadata, and anything that is not a JPEG, as it is', async () => {
    const plain = await encoded('jpeg', 400, 500);
    expect(withoutJpegMetadata(plain)).toEqual(plain);
    const png = await encoded('png', 400, 500);
    expect(withoutJpegMetadata(png)).toBe(png);
  });
});
