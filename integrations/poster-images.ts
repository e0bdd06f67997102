/**
 * The demo catalogue's raster posters and banners, made at build time into public/posters (not in git):
 * each poster of the seed drawn by src/lib/domain/poster.ts, printed with a photo's texture (soft
 * blotches and film grain, seeded by the id, so it weighs what a photo weighs), as a master JPEG and in
 * AVIF and WebP at every width of src/lib/domain/poster-images.ts. Deployed, Cloudflare makes the
 * variants from the master; a local build serves these files.
 *
 * An Astro integration runs it before every build (and the dev server), so each script that builds gets
 * the images. The output is keyed by a hash of everything it is made from: an unchanged input is skipped.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import { buildSeed } from '../src/lib/db/seed.ts';
import { POSTER_SVG_SIZES, posterSvg } from '../src/lib/domain/poster.ts';
import {
  MASTER_JPEG_QUALITY,
  masterWidth,
  parsePosterPath,
  POSTER_WIDTHS,
  posterHeight,
  posterPath,
  type PosterKind,
  posterVariantPath,
  VARIANT_FORMATS,
  VARIANT_QUALITY,
  type VariantFormat,
} from '../src/lib/domain/poster-images.ts';
import { mulberry32 } from '../src/lib/domain/random.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Astro loads astro.config.ts and its integrations with a Vite module runner it closes before the hooks run: sharp is required natively. */
const require = createRequire(import.meta.url);
type Sharp = typeof import('sharp')['default'];
const PUBLIC = path.join(ROOT, 'public');
const OUTPUT = path.join(PUBLIC, 'posters');
/** The hash of the inputs the files in OUTPUT were made from; outside public/, so it is not deployed. */
const STAMP = path.join(ROOT, '.astro', 'poster-images.sha256');
/** The code that draws the pixels; the files each poster becomes are hashed as a list (posterFiles). */
const SOURCES = ['integrations/poster-images.ts', 'src/lib/domain/poster.ts', 'src/lib/domain/random.ts'];

// Measured on the demo's posters: AVIF effort 0 comes within 3 % of effort 2's bytes in half the time,
// WebP effort 2 within 4 % of the default's; the master JPEG without mozjpeg's slower options takes a quarter of the time.
const ENCODINGS: Record<VariantFormat, { quality: number; effort: number }> = {
  avif: { quality: VARIANT_QUALITY.avif, effort: 0 },
  webp: { quality: VARIANT_QUALITY.webp, effort: 2 },
};
const MASTER_JPEG = { quality: MASTER_JPEG_QUALITY };
/** Blotches: a random grid of this many pixels a cell, scaled up smoothly, in soft light over the artwork. */
const BLOTCH_CELL = 24;
const BLOTCH_SCALE = 100;
/** Grain: per-pixel noise (near normal: the sum of three uniform draws), overlaid. */
const GRAIN_DRAWS = 3;
const GRAIN_SCALE = 40;

/** Every poster and banner the demo seed refers to, by kind and id. The seed's ids do not depend on the day. */
/** A poster or banner of the seed. */
interface Poster {
  kind: PosterKind;
  id: number;
}

function seedPosters(): Poster[] {
  const seed = buildSeed(Date.UTC(2026, 0, 1));
  const posters = [...seed.activities, ...seed.banners].map((row) => parsePosterPath(String(row.poster)));
  return posters.filter((poster): poster is Poster => poster !== null);
}

/** The files one poster becomes: its master JPEG and each variant, by URL path, with their pixel sizes. */
function posterFiles({ kind, id }: Poster) {
  const width = masterWidth(kind);
  return {
    master: { path: posterPath(kind, id), width, height: posterHeight(kind, width) },
    variants: POSTER_WIDTHS[kind].flatMap((variantWidth) =>
      VARIANT_FORMATS.map((format) => ({
        path: posterVariantPath(kind, id, variantWidth, format),
        width: variantWidth,
        height: posterHeight(kind, variantWidth),
        format,
      })),
    ),
  };
}

function inputsHash(posters: Poster[], sharpVersion: string): string {
  const hash = createHash('sha256');
  for (const file of SOURCES) hash.update(readFileSync(path.join(ROOT, file)));
  hash.update(JSON.stringify({ posters: posters.map((poster) => [poster, posterFiles(poster)]), sharpVersion }));
  return hash.digest('hex');
}

/** `length` gray pixels around mid-gray: each the sum of `draws` uniform draws, centred and times `scale`. */
function noise(rand: () => number, length: number, draws: number, scale: number): Buffer {
  const pixels = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    let sum = 0;
    for (let draw = 0; draw < draws; draw++) sum += rand();
    pixels[i] = 128 + (sum - draws / 2) * scale;
  }
  return pixels;
}

/** Writes one poster's master JPEG and its variants. */
async function renderPoster(sharp: Sharp, poster: Poster): Promise<void> {
  const { kind, id } = poster;
  const { master: masterFile, variants } = posterFiles(poster);
  const { width, height } = masterFile;
  const rand = mulberry32(Math.imul(id + (kind === 'banner' ? 0x2545f491 : 0), 0x85ebca6b));
  const cells = { width: Math.ceil(width / BLOTCH_CELL), height: Math.ceil(height / BLOTCH_CELL), channels: 1 as const };
  const blotches = await sharp(noise(rand, cells.width * cells.height, 1, BLOTCH_SCALE), { raw: cells })
    .resize(width, height, { kernel: 'cubic' })
    .toColourspace('srgb')
    .raw()
    .toBuffer();
  const grain = noise(rand, width * height, GRAIN_DRAWS, GRAIN_SCALE);
  const density = (72 * width) / POSTER_SVG_SIZES[kind][0];
  const master = await sharp(Buffer.from(posterSvg(kind, id)), { density })
    .resize(width, height)
    .composite([
      { input: blotches, raw: { width, height, channels: 3 }, blend: 'soft-light' },
      { input: grain, raw: { width, height, channels: 1 }, blend: 'overlay' },
    ])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = sharp(master.data, { raw: master.info });
  await Promise.all([
    pixels.clone().jpeg(MASTER_JPEG).toFile(path.join(PUBLIC, masterFile.path)),
    ...variants.map((variant) =>
      pixels
        .clone()
        .resize(variant.width, variant.height)
        .toFormat(variant.format, ENCODINGS[variant.format])
        .toFile(path.join(PUBLIC, variant.path)),
    ),
  ]);
}

/**
 * Makes the demo posters unless the files of the same inputs are there; logs what it did and how long
 * it took. One poster at a time per CPU, each on one libvips thread, keeps every CPU on whole posters.
 */
export async function generatePosterImages(log = console.log) {
  const started = performance.now();
  const sharp = require('sharp') as Sharp;
  const posters = seedPosters();
  const hash = inputsHash(posters, sharp.versions.sharp);
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash && existsSync(OUTPUT)) {
    log(`Poster images are up to date (${posters.length} posters in public/posters).`);
    return;
  }
  rmSync(OUTPUT, { recursive: true, force: true });
  for (const kind of Object.keys(POSTER_WIDTHS)) mkdirSync(path.join(OUTPUT, kind), { recursive: true });
  rmSync(STAMP, { force: true });
  sharp.concurrency(1);
  let next = 0;
  const worker = async () => {
    while (next < posters.length) await renderPoster(sharp, posters[next++]);
  };
  await Promise.all(Array.from({ length: availableParallelism() }, worker));
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, hash);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const files = posters.reduce((sum, poster) => sum + 1 + posterFiles(poster).variants.length, 0);
  log(`Made ${files} files of ${posters.length} posters in ${seconds} s (public/posters).`);
}

/** The Astro integration that makes the poster images before a build or the dev server starts. */
export function posterImages(): AstroIntegration {
  return {
    name: 'poster-images',
    hooks: {
      'astro:config:setup': async ({ command, logger }) => {
        if (command === 'build' || command === 'dev') await generatePosterImages((message) => logger.info(message));
      },
    },
  };
}
