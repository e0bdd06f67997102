/**
 * Responsive poster and banner images: which widths and formats exist, and the URL of each. The
 * catalogue stores one raster master per image (`/posters/<kind>/<id>.jpg`); a page asks for it at the
 * width it needs in AVIF or WebP. Deployed, Cloudflare's image transformations resize and convert the
 * master on request (`/cdn-cgi/image/...`); a local build serves the same variants pre-generated at build
 * time (integrations/poster-images.ts), so both serve pixels of the same sizes and formats. An image
 * uploaded from the console (`/media/<kind>/<id>.jpg`) has its variants made once at upload and stored
 * beside its master (services/media/images.ts): both deliveries serve those.
 */
import { FormattedMemo } from './intl-cache.ts';

export type PosterKind = 'activity' | 'banner';

/** Where a page's image variants come from: Cloudflare's transformations (deployed) or files made at build time (local). */
export type ImageDelivery = 'cloudflare' | 'static';

/** The modern formats offered in <source> elements, best first; the master JPEG is the fallback. */
export type VariantFormat = 'avif' | 'webp';
export const VARIANT_FORMATS: readonly VariantFormat[] = ['avif', 'webp'];

/**
 * Pixel widths each kind comes in. Posters show 72 to 120 CSS px wide and banners up to 576, on screens
 * of 1 to 3 device pixels per CSS pixel; the widest is the master's.
 */
export const POSTER_WIDTHS: Record<PosterKind, readonly number[]> = {
  activity: [144, 240, 360],
  banner: [400, 640, 800, 1200],
};

/** Activity posters are 3:4 portrait; home-page banners are 16:7. */
const ASPECT: Record<PosterKind, readonly [width: number, height: number]> = {
  activity: [3, 4],
  banner: [16, 7],
};

/** A card's poster is 96 CSS px wide (ActivityCard.astro, FeedCard.tsx): the `sizes` of its candidates. */
export const CARD_POSTER_SIZES = '96px';

/**
 * When an image loads: 'lazy' as it comes near the viewport, 'eager' at once, 'priority' at once
 * ahead of everything else, for the page's largest image (its LCP).
 */
export type PosterLoad = 'priority' | 'eager' | 'lazy';

/** The <img> attributes of a load: the LCP image decodes with the page's paint and is fetched first; the others decode off the main thread. */
export function posterLoading(load: PosterLoad): { loading: 'lazy' | 'eager'; decoding?: 'async'; fetchpriority?: 'high' } {
  return load === 'priority' ? { loading: 'eager', fetchpriority: 'high' } : { loading: load, decoding: 'async' };
}

export const VARIANT_MIME_TYPES: Record<VariantFormat, string> = { avif: 'image/avif', webp: 'image/webp' };

/** Encoding qualities of the variants and of the master JPEG: the generated demo posters' and the uploaded images' alike. */
export const VARIANT_QUALITY: Record<VariantFormat, number> = { avif: 50, webp: 75 };
export const MASTER_JPEG_QUALITY = 80;

const POSTER_PATH = /^\/posters\/(activity|banner)\/(\d{1,9})\.jpg$/;
/** An uploaded image's id: random, so that its URL never names another image's bytes and caches forever. */
const MEDIA_PATH = /^\/media\/(activity|banner)\/([0-9a-f]{20})\.jpg$/;
/** Same-origin raster files Cloudflare can transform; SVG it only passes through. */
const RASTER_PATH = /^\/[^/].*\.(?:jpe?g|png|webp|avif)$/i;

/** The height of a kind's image at a pixel width. */
export function posterHeight(kind: PosterKind, width: number): number {
  const [aspectWidth, aspectHeight] = ASPECT[kind];
  return Math.round((width * aspectHeight) / aspectWidth);
}

/** The width of a kind's master image: its largest variant. */
export function masterWidth(kind: PosterKind): number {
  return Math.max(...POSTER_WIDTHS[kind]);
}

/** The path of a generated poster's master JPEG: what the catalogue stores. */
export function posterPath(kind: PosterKind, id: number): string {
  return `/posters/${kind}/${id}.jpg`;
}

/** The kind and id of a generated poster's master path, or null for any other image. */
export function parsePosterPath(src: string): { kind: PosterKind; id: number } | null {
  const match = POSTER_PATH.exec(src);
  return match ? { kind: match[1] as PosterKind, id: Number(match[2]) } : null;
}

/** The path of one pre-generated variant of a poster. */
export function posterVariantPath(kind: PosterKind, id: number, width: number, format: VariantFormat): string {
  return `/posters/${kind}/${id}-${width}.${format}`;
}

/** The path of an uploaded image's master JPEG: what the catalogue stores. */
export function mediaPath(kind: PosterKind, id: string): string {
  return `/media/${kind}/${id}.jpg`;
}

/** The kind and id of an uploaded image's master path, or null for any other image. */
export function parseMediaPath(src: string): { kind: PosterKind; id: string } | null {
  const match = MEDIA_PATH.exec(src);
  return match ? { kind: match[1] as PosterKind, id: match[2] } : null;
}

/** An uploaded image's master or one of its variants (the width is checked against the kind's by the bucket: no such object, 404). */
const MEDIA_FILE_PATH = /^\/media\/(?:activity|banner)\/[0-9a-f]{20}(?:\.jpg|-\d{2,4}\.(?:avif|webp))$/;

/** Whether a path can name a file of an uploaded image. */
export function isMediaFilePath(path: string): boolean {
  return MEDIA_FILE_PATH.test(path);
}

/** The MEDIA bucket's key of a file served at a /media/ path. */
export function mediaKey(path: string): string {
  return path.slice('/media/'.length);
}

/** The path of one variant of an uploaded image, stored beside its master. */
export function mediaVariantPath(kind: PosterKind, id: string, width: number, format: VariantFormat): string {
  return `/media/${kind}/${id}-${width}.${format}`;
}

/** How a deployment's APP_ENV delivers images: only a local build lacks Cloudflare's transformations. */
export function imageDelivery(appEnv: string): ImageDelivery {
  return appEnv === 'local' ? 'static' : 'cloudflare';
}

/**
 * The URL of an image at a pixel width in a format, or null when that variant cannot be had (an SVG,
 * another origin, or locally a width that was not generated).
 */
export function imageUrl(src: string, width: number, format: VariantFormat, delivery: ImageDelivery): string | null {
  // Made at upload: no transformation to pay for on request, and the same files in every delivery.
  const media = parseMediaPath(src);
  if (media) return POSTER_WIDTHS[media.kind].includes(width) ? mediaVariantPath(media.kind, media.id, width, format) : null;
  if (delivery === 'cloudflare') {
    // The adapter's Cloudflare image service builds the same URL, but only for imported or remote images,
    // not for paths read from the database. onerror=redirect serves the master if a transformation fails.
    return RASTER_PATH.test(src) ? `/cdn-cgi/image/width=${width},format=${format},onerror=redirect${src}` : null;
  }
  const poster = parsePosterPath(src);
  if (!poster || !POSTER_WIDTHS[poster.kind].includes(width)) return null;
  return posterVariantPath(poster.kind, poster.id, width, format);
}

/** A link preview's image of a poster, by path; its size and type when known. */
export interface ShareImage {
  path: string;
  width?: number;
  height?: number;
  type?: string;
}

/** The large link-preview card's size (Open Graph's and Twitter's 1.91:1), and the brand colour around the poster. */
const SHARE_CARD = { width: 1200, height: 630, background: '%23a3121e' };

/**
 * The image a link preview shows for a poster. Deployed, Cloudflare's transformations pad the master
 * onto a 1200×630 card in the brand colour, which chat apps show large (onerror=redirect: the master
 * if that fails); a local build, which has no transformations, shares the master as it is.
 */
export function shareImage(src: string, delivery: ImageDelivery): ShareImage {
  if (delivery === 'cloudflare' && RASTER_PATH.test(src)) {
    const { width, height, background } = SHARE_CARD;
    return {
      path: `/cdn-cgi/image/width=${width},height=${height},fit=pad,background=${background},format=jpeg,onerror=redirect${src}`,
      width,
      height,
      type: 'image/jpeg',
    };
  }
  const poster = parsePosterPath(src) ?? parseMediaPath(src);
  if (!poster) return { path: src };
  const width = masterWidth(poster.kind);
  return { path: src, width, height: posterHeight(poster.kind, width), type: 'image/jpeg' };
}

export interface ResponsiveImage {
  /** One <source> per modern format, best first: its MIME type and `srcset`. */
  sources: { type: string; srcset: string }[];
  /** The fallback <img> source: the master. */
  src: string;
}

/** The <picture> sources of a poster or banner, or null when it has no variants (it is shown as it is). */
export function responsiveImage(src: string, kind: PosterKind, delivery: ImageDelivery): Readonly<ResponsiveImage> | null {
  return responsiveImages.get(`${delivery}|${kind}|${src}`, () => variantsOf(src, kind, delivery));
}

/** Every render of a list names the same posters' variants. */
const responsiveImages = new FormattedMemo<Readonly<ResponsiveImage> | null>(10_000);

function variantsOf(src: string, kind: PosterKind, delivery: ImageDelivery): ResponsiveImage | null {
  const sources = [];
  for (const format of VARIANT_FORMATS) {
    const candidates = [];
    for (const width of POSTER_WIDTHS[kind]) {
      const url = imageUrl(src, width, format, delivery);
      if (url === null) return null;
      candidates.push(`${url} ${width}w`);
    }
    sources.push({ type: VARIANT_MIME_TYPES[format], srcset: candidates.join(', ') });
  }
  return { sources, src };
}
