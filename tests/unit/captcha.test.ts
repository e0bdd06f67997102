import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  CAPTCHA_ALPHABET,
  CAPTCHA_HEIGHT,
  CAPTCHA_WIDTH,
  drawCaptcha,
  isCaptchaShaped,
  normalizeCaptchaAnswer,
  NO_DISTORTION,
} from '../../src/lib/media/captcha.ts';
import { crc32, encodePng, type GrayImage } from '../../src/lib/media/png.ts';

/** A seeded generator, so a drawing can be compared with another. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

/** zlib deflate as the service does it: the platform's CompressionStream. */
async function deflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const share = (image: GrayImage, test: (level: number) => boolean) => image.pixels.filter(test).length / image.pixels.length;

/** Reads back what encodePng wrote: its chunks (checking each CRC) and its pixels. */
function decodePng(file: Uint8Array) {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const chunks: { type: string; data: Uint8Array }[] = [];
  for (let offset = 8; offset < file.length; ) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...file.subarray(offset + 4, offset + 8));
    expect(view.getUint32(offset + 8 + length)).toBe(crc32(file.subarray(offset + 4, offset + 8 + length)));
    chunks.push({ type, data: file.subarray(offset + 8, offset + 8 + length) });
    offset += 12 + length;
  }
  const header = new DataView(chunks[0].data.buffer, chunks[0].data.byteOffset);
  const [width, height] = [header.getUint32(0), header.getUint32(4)];
  const rows = inflateSync(chunks.find((chunk) => chunk.type === 'IDAT')!.data);
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    expect(rows[y * (width + 1)]).toBe(0); // no filter
    pixels.set(rows.subarray(y * (width + 1) + 1, (y + 1) * (width + 1)), y * width);
  }
  return {
    signature: [...file.subarray(0, 8)],
    types: chunks.map((chunk) => chunk.type),
    header: [...chunks[0].data.subarray(8)],
    width,
    height,
    pixels,
  };
}

describe('captcha drawing', () => {
  it('draws a 240 x 80 grayscale raster: light paper, dark strokes', () => {
    const image = drawCaptcha('AB3D', seeded(1));
    expect([image.width, image.height, image.pixels.length]).toEqual([CAPTCHA_WIDTH, CAPTCHA_HEIGHT, 240 * 80]);
    expect(share(image, (level) => level > 200)).toBeGreaterThan(0.6);
    expect(share(image, (level) => level < 110)).toBeGreaterThan(0.08);
  });

  it('distorts differently each time', () => {
    expect(drawCaptcha('AB3D', seeded(1)).pixels).not.toEqual(drawCaptcha('AB3D', seeded(2)).pixels);
    expect(drawCaptcha('AB3D', seeded(1)).pixels).toEqual(drawCaptcha('AB3D', seeded(1)).pixels);
  });

  it('crosses the text with strokes and speckles the paper, which the undistorted rendering has not', () => {
    const served = drawCaptcha('AB3D', seeded(4));
    const plain = drawCaptcha('AB3D', seeded(4), NO_DISTORTION);
    expect(share(served, (level) => level < 110)).toBeGreaterThan(1.5 * share(plain, (level) => level < 110));
    // Crossing strokes run from edge to edge; the plain characters leave both edges blank.
    const column = (image: GrayImage, x: number) => Array.from({ length: CAPTCHA_HEIGHT }, (_, y) => image.pixels[y * CAPTCHA_WIDTH + x]);
    for (const x of [2, CAPTCHA_WIDTH - 3]) {
      expect(Math.min(...column(served, x))).toBeLessThan(110);
      expect(Math.min(...column(plain, x))).toBeGreaterThan(200);
    }
  });

  it('has a glyph for every character of its alphabet, leaving out look-alikes', () => {
    for (const char of CAPTCHA_ALPHABET) expect(() => drawCaptcha(char.repeat(4), seeded(3))).not.toThrow();
    expect(() => drawCaptcha('AB0D', seeded(3))).toThrow(/No captcha glyph for 0/);
    for (const char of '01OIL') expect(CAPTCHA_ALPHABET).not.toContain(char);
  });

  it('reads answers case-insensitively and knows their shape', () => {
    expect(normalizeCaptchaAnswer(' ab3d ')).toBe('AB3D');
    expect(isCaptchaShaped('ab3d')).toBe(true);
    expect(isCaptchaShaped('AB3')).toBe(false);
    expect(isCaptchaShaped('AB0D')).toBe(false);
  });
});

describe('PNG encoding', () => {
  it('computes the chunk CRC-32', () => {
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
  });

  it('writes a grayscale PNG that decodes back to the same pixels', async () => {
    const image = drawCaptcha('K7WS', seeded(5));
    const png = decodePng(await encodePng(image, deflate));
    expect(png.signature).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    expect(png.types).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([png.width, png.height]).toEqual([240, 80]);
    expect(png.header).toEqual([8, 0, 0, 0, 0]); // 8 bits, grayscale, deflate, standard filters, no interlace
    expect(png.pixels).toEqual(image.pixels);
  });

  it('keeps a captcha small', async () => {
    for (let seed = 1; seed <= 5; seed++)
      expect((await encodePng(drawCaptcha('M8BW', seeded(seed)), deflate)).length).toBeLessThan(8 * 1024);
  });

  it('refuses pixels that do not fill the image', async () => {
    await expect(encodePng({ width: 2, height: 2, pixels: new Uint8Array(3) }, deflate)).rejects.toThrow(/Expected 4 pixels/);
  });
});
