import { describe, expect, it } from 'vitest';
import { familiesFor, fontSlicePath, fontSlices, parseUnicodeRange, slicesFor } from '../../src/lib/media/font-slices.ts';

const slices = fontSlices({
  tc: [
    ['latin', 'U+0000-00FF,U+2000-206F'],
    ['12', 'U+4E00-4E2F,U+2026'],
    ['40', 'U+9AD4,U+9928'],
  ],
  sc: [
    ['latin', 'U+0000-00FF'],
    ['7', 'U+4F53,U+9986'],
  ],
});

const names = (chosen: ReturnType<typeof slicesFor>) => chosen.map((slice) => `${slice.family}-${slice.name}`).sort();

describe('parseUnicodeRange', () => {
  it('reads single code points and ranges, skipping what it cannot read', () => {
    expect(parseUnicodeRange('U+0000-00FF, U+0131,U+1f921-1f930,U+4??')).toEqual([
      [0, 0xff],
      [0x131, 0x131],
      [0x1f921, 0x1f930],
    ]);
  });
});

describe('slicesFor', () => {
  it('takes only the slices that hold the text, none for whitespace', () => {
    expect(names(slicesFor('Hi 一', slices, ['tc', 'sc']))).toEqual(['tc-12', 'tc-latin']);
    expect(slicesFor(' \n', slices, ['tc', 'sc'])).toEqual([]);
  });

  it("takes a character from the locale's family first, and from the other when that lacks it", () => {
    // 體館 are traditional, 体馆 simplified.
    expect(names(slicesFor('體館', slices, familiesFor('zh-HK')))).toEqual(['tc-40']);
    expect(names(slicesFor('体馆', slices, familiesFor('zh-HK')))).toEqual(['sc-7']);
    expect(names(slicesFor('A', slices, familiesFor('zh-CN')))).toEqual(['sc-latin']);
  });

  it('takes every slice of the family whose range holds a character, as only one may draw it', () => {
    expect(names(slicesFor('\u2026', slices, ['tc', 'sc']))).toEqual(['tc-12', 'tc-latin']);
  });

  it('leaves out a character no slice holds', () => {
    expect(slicesFor('\u{1F600}', slices, ['tc', 'sc'])).toEqual([]);
  });
});

describe('familiesFor', () => {
  it('draws simplified Chinese with SC first and the other locales with TC first', () => {
    expect(familiesFor('zh-CN')).toEqual(['sc', 'tc']);
    for (const locale of ['en', 'zh-HK', 'zh-TW'] as const) expect(familiesFor(locale)).toEqual(['tc', 'sc']);
  });
});

describe('fontSlicePath', () => {
  it('names one file per family, slice and weight', () => {
    expect(fontSlicePath('tc', '12', 700)).toBe('/share-card-fonts/tc-12-700.woff');
  });
});
