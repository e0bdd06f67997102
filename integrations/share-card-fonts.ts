/**
 * The fonts of the share cards (src/lib/media/share-card.ts), put into public/share-card-fonts (not in
 * git) before every build: Noto Sans TC and SC (SIL Open Font License, copied beside them) as the
 * WOFF slices their @fontsource packages ship, at the weights the cards use, and an index of the
 * characters each slice holds. A card's renderer reads the index and loads only the slices its text
 * needs, from the static assets: a whole CJK font would not fit in the worker's bundle.
 *
 * Skipped while the packages' versions are those the files were copied from.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import { FONT_SLICE_DIR, type FontFamily, fontSlicePath, SHARE_CARD_WEIGHTS } from '../src/lib/media/font-slices.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUTPUT = path.join(ROOT, 'public', FONT_SLICE_DIR);
const STAMP = path.join(ROOT, '.astro', 'share-card-fonts.json');
const PACKAGES: Record<FontFamily, string> = { tc: '@fontsource/noto-sans-tc', sc: '@fontsource/noto-sans-sc' };

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

function versions() {
  return Object.fromEntries(
    Object.entries(PACKAGES).map(([family, name]) => [
      family,
      JSON.parse(readFileSync(path.join(packageDir(name), 'package.json'), 'utf8')).version,
    ]),
  );
}

/** A slice's name in the package's unicode.json: `[12]` for a numbered one, `latin` for a named one. */
function sliceName(key: string): string {
  return key.replace(/^\[(\d+)\]$/, '$1');
}

export function copyShareCardFonts(log = console.log) {
  const stamp = JSON.stringify({ versions: versions(), weights: SHARE_CARD_WEIGHTS });
  if (existsSync(STAMP) && existsSync(OUTPUT) && readFileSync(STAMP, 'utf8') === stamp) return;
  rmSync(OUTPUT, { recursive: true, force: true });
  mkdirSync(OUTPUT, { recursive: true });
  const index: Partial<Record<FontFamily, [string, string][]>> = {};
  let files = 0;
  for (const [family, name] of Object.entries(PACKAGES) as [FontFamily, string][]) {
    const dir = packageDir(name);
    const id = name.split('/')[1];
    const ranges = JSON.parse(readFileSync(path.join(dir, 'unicode.json'), 'utf8'));
    const slices = Object.entries(ranges as Record<string, string>).map(([key, range]): [string, string] => [sliceName(key), range]);
    index[family] = slices;
    for (const [slice] of slices) {
      for (const weight of SHARE_CARD_WEIGHTS) {
        copyFileSync(
          path.join(dir, 'files', `${id}-${slice}-${weight}-normal.woff`),
          path.join(ROOT, 'public', fontSlicePath(family, slice, weight)),
        );
        files += 1;
      }
    }
    copyFileSync(path.join(dir, 'LICENSE'), path.join(OUTPUT, `LICENSE-${family}.txt`));
  }
  writeFileSync(path.join(OUTPUT, 'index.json'), JSON.stringify(index));
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, stamp);
  log(`share card fonts: ${files} slices copied to public${FONT_SLICE_DIR}`);
}

/** The Astro integration: copies the fonts before a build or the dev server. */
export function shareCardFonts(): AstroIntegration {
  return {
    name: 'share-card-fonts',
    hooks: {
      'astro:config:setup': ({ command, logger }) => {
        if (command === 'build' || command === 'dev') copyShareCardFonts((message) => logger.info(message));
      },
    },
  };
}
