/**
 * Draws a share card (media/share-card.ts) as a JPEG, in the worker: Satori lays the card out and
 * turns its text into SVG paths with the font slices the text needs (media/font-slices.ts), resvg
 * draws the SVG, jpeg-js encodes the pixels. Satori's layout engine (Yoga) and resvg are WebAssembly
 * modules imported as such (Workers compile no WebAssembly from bytes at run time). Fonts and the
 * poster are static assets, read through the ASSETS binding; the isolate keeps what it read.
 */
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import resvgWasm from '@resvg/resvg-wasm/index_bg.wasm';
import { encode as encodeJpeg } from 'jpeg-js';
import satori, { type Font, init as initSatori } from 'satori/standalone';
import satoriWasm from 'satori/yoga.wasm';
import {
  familiesFor,
  FONT_SLICE_INDEX_PATH,
  type FontSlice,
  type FontSliceIndex,
  fontSlicePath,
  fontSlices,
  type ShareCardWeight,
  slicesFor,
} from '../../media/font-slices.ts';
import { type ShareCardContent, SHARE_CARD_SIZE, shareCardText, shareCardTree } from '../../media/share-card.ts';

/** Reads a static asset by path: the worker's ASSETS binding. */
export type AssetReader = (path: string) => Promise<Response>;

/** JPEG quality: text edges stay clean at 85, and a card with a photo poster weighs 130 to 150 KB (its PNG, about 400 KB). */
const JPEG_QUALITY = 85;
/** The poster formats a card can draw (resvg reads these; a catalogue poster is its master JPEG). */
const POSTER_TYPES = new Set(['image/jpeg', 'image/png']);

let ready: Promise<void> | null = null;

function initialised(): Promise<void> {
  ready ??= Promise.all([initSatori(satoriWasm), initWasm(resvgWasm)]).then(() => undefined);
  return ready;
}

let sliceIndex: Promise<FontSlice[]> | null = null;
const fontData = new Map<string, Promise<ArrayBuffer>>();

async function okBody(read: AssetReader, path: string): Promise<Response> {
  const response = await read(path);
  if (!response.ok) throw new Error(`share card asset ${path}: ${response.status}`);
  return response;
}

function slicesOf(read: AssetReader): Promise<FontSlice[]> {
  sliceIndex ??= okBody(read, FONT_SLICE_INDEX_PATH)
    .then((response) => response.json<FontSliceIndex>())
    .then(fontSlices)
    .catch((error: unknown) => {
      sliceIndex = null;
      throw error;
    });
  return sliceIndex;
}

function fontFile(read: AssetReader, path: string): Promise<ArrayBuffer> {
  let data = fontData.get(path);
  if (!data) {
    data = okBody(read, path).then((response) => response.arrayBuffer());
    data.catch(() => fontData.delete(path));
    fontData.set(path, data);
  }
  return data;
}

/** The name a slice goes by in the card's font list: one per slice, so Satori looks in each for a glyph. */
function fontName(slice: FontSlice): string {
  return `${slice.family}-${slice.name}`;
}

async function cardFonts(read: AssetReader, content: ShareCardContent): Promise<{ fonts: Font[]; family: string }> {
  const slices = await slicesOf(read);
  const families = familiesFor(content.locale);
  const text = shareCardText(content);
  const wanted: { slice: FontSlice; weight: ShareCardWeight }[] = [
    ...slicesFor(text.regular, slices, families).map((slice) => ({ slice, weight: 400 as const })),
    ...slicesFor(text.bold, slices, families).map((slice) => ({ slice, weight: 700 as const })),
  ];
  const fonts = await Promise.all(
    wanted.map(async ({ slice, weight }) => ({
      name: fontName(slice),
      weight,
      style: 'normal' as const,
      data: await fontFile(read, fontSlicePath(slice.family, slice.name, weight)),
    })),
  );
  // Satori takes each character from the first font in the list that has it: the slices are disjoint,
  // so the order only matters for the few characters both scripts' fonts hold, where the locale's comes first.
  const names = [...new Set(fonts.map((font) => font.name))];
  return { fonts, family: names.join(', ') };
}

/** The poster as a data URL, or null when it is not a same-origin image the card can draw. */
async function posterDataUrl(read: AssetReader, poster: string | null): Promise<string | null> {
  if (poster === null || !poster.startsWith('/') || poster.startsWith('//')) return null;
  const response = await read(poster);
  const type = response.headers.get('content-type')?.split(';')[0].trim() ?? '';
  if (!response.ok || !POSTER_TYPES.has(type)) {
    await response.body?.cancel();
    return null;
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${type};base64,${btoa(binary)}`;
}

/** The card as JPEG bytes. */
export async function renderShareCard(read: AssetReader, content: ShareCardContent): Promise<Uint8Array<ArrayBuffer>> {
  const [, { fonts, family }, poster] = await Promise.all([initialised(), cardFonts(read, content), posterDataUrl(read, content.poster)]);
  const tree = shareCardTree(content, family, poster);
  // Satori reads any element-shaped object; the tree is plain data rather than React elements.
  const svg = await satori(tree as unknown as Parameters<typeof satori>[0], { ...SHARE_CARD_SIZE, fonts });
  const resvg = new Resvg(svg);
  const image = resvg.render();
  try {
    return new Uint8Array(encodeJpeg({ data: image.pixels, width: image.width, height: image.height }, JPEG_QUALITY).data);
  } finally {
    image.free();
    resvg.free();
  }
}
