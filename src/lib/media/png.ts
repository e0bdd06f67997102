/**
 * A minimal PNG encoder for 8-bit grayscale images: IHDR, one IDAT of unfiltered rows, IEND. Pure:
 * the zlib deflate (RFC 1950) is passed in, so it runs the same in Workers (CompressionStream) and in tests.
 */

export interface GrayImage {
  width: number;
  height: number;
  /** One byte per pixel (0 black, 255 white), rows top to bottom. */
  pixels: Uint8Array;
}

/** Compresses bytes into a zlib stream. */
export type Deflate = (bytes: Uint8Array<ArrayBuffer>) => Promise<Uint8Array<ArrayBuffer>>;

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
const GRAYSCALE = 0;
/** Rows go unfiltered: on captchas that deflates smaller than the "Sub" filter (about 5.6 KB against 6 KB). */
const FILTER_NONE = 0;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 (ISO 3309) a PNG chunk ends with. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A chunk: length, type, data, then the CRC of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** The PNG file of a grayscale image. */
export async function encodePng(image: GrayImage, deflate: Deflate): Promise<Uint8Array<ArrayBuffer>> {
  const { width, height, pixels } = image;
  if (pixels.length !== width * height) throw new Error(`Expected ${width * height} pixels, got ${pixels.length}`);

  const header = new Uint8Array(13);
  const headerView = new DataView(header.buffer);
  headerView.setUint32(0, width);
  headerView.setUint32(4, height);
  header[8] = 8; // bits per sample; compression, filter and interlace methods stay 0.
  header[9] = GRAYSCALE;

  // Each row is its filter type byte, then its pixels.
  const rows = new Uint8Array(height * (width + 1));
  for (let y = 0; y < height; y++) {
    rows[y * (width + 1)] = FILTER_NONE;
    rows.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }

  const chunks = [Uint8Array.from(SIGNATURE), chunk('IHDR', header), chunk('IDAT', await deflate(rows)), chunk('IEND', new Uint8Array(0))];
  const file = new Uint8Array(chunks.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of chunks) {
    file.set(part, offset);
    offset += part.length;
  }
  return file;
}
