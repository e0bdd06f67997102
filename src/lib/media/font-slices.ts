/**
 * Which pieces of a CJK font a share card needs. A whole Noto Sans CJK font weighs megabytes, too much
 * for the worker's bundle, so the build serves each font as the slices the font packages ship (about a
 * hundred per font and weight, each covering a unicode-range of CSS @font-face); a card loads only the
 * slices that hold its characters. Pure: the slice index is passed in.
 */
import type { Locale } from '../i18n/locales.ts';

/** The two scripts' fonts: Noto Sans TC (traditional) and SC (simplified). */
export type FontFamily = 'tc' | 'sc';

/** The weights the build serves: regular text and bold titles. */
export const SHARE_CARD_WEIGHTS = [400, 700] as const;
export type ShareCardWeight = (typeof SHARE_CARD_WEIGHTS)[number];

/** One slice of one family: its name in the package (`12`, `latin`) and the code points it holds, as inclusive ranges. */
export interface FontSlice {
  family: FontFamily;
  name: string;
  ranges: readonly (readonly [number, number])[];
}

/** The build's index of slices: each family's slices with their CSS unicode-range text. */
export type FontSliceIndex = Record<FontFamily, readonly (readonly [name: string, unicodeRange: string])[]>;

/** Where the build puts the slices and their index, under the static assets. */
export const FONT_SLICE_DIR = '/share-card-fonts';
export const FONT_SLICE_INDEX_PATH = `${FONT_SLICE_DIR}/index.json`;

/** The static path of one slice at one weight. */
export function fontSlicePath(family: FontFamily, name: string, weight: ShareCardWeight): string {
  return `${FONT_SLICE_DIR}/${family}-${name}-${weight}.woff`;
}

/** A CSS unicode-range (`U+0000-00FF,U+0131`) as inclusive code point ranges; wildcards (`U+4??`), which the packages do not use, are skipped. */
export function parseUnicodeRange(text: string): [number, number][] {
  return text
    .split(',')
    .map((part) => part.trim().replace(/^U\+/i, ''))
    .filter((part) => /^[0-9a-f]{1,6}(?:-[0-9a-f]{1,6})?$/i.test(part))
    .map((part) => {
      const [start, end = start] = part.split('-');
      return [Number.parseInt(start, 16), Number.parseInt(end, 16)];
    });
}

export function fontSlices(index: FontSliceIndex): FontSlice[] {
  return (Object.keys(index) as FontFamily[]).flatMap((family) =>
    index[family].map(([name, range]) => ({ family, name, ranges: parseUnicodeRange(range) })),
  );
}

/** Simplified Chinese pages draw with SC first; the others with TC, whose Latin serves English. */
export function familiesFor(locale: Locale): readonly FontFamily[] {
  return locale === 'zh-CN' ? ['sc', 'tc'] : ['tc', 'sc'];
}

function holds(slice: FontSlice, codePoint: number): boolean {
  return slice.ranges.some(([start, end]) => codePoint >= start && codePoint <= end);
}

/**
 * The slices that hold the characters of `text`, each character from the first family that has it
 * (in the order of `families`); whitespace needs none, and a character no slice holds is left out.
 * A character in the ranges of two slices of a family (punctuation such as `…`) takes both: a range
 * says where a character may be, and only one of them may draw it.
 */
export function slicesFor(text: string, slices: readonly FontSlice[], families: readonly FontFamily[]): FontSlice[] {
  const chosen = new Set<FontSlice>();
  for (const char of new Set(text.replace(/\s/gu, ''))) {
    const codePoint = char.codePointAt(0)!;
    for (const family of families) {
      const holding = slices.filter((candidate) => candidate.family === family && holds(candidate, codePoint));
      for (const slice of holding) chosen.add(slice);
      if (holding.length > 0) break;
    }
  }
  return [...chosen];
}
