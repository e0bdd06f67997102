import { describe, it, expect } from 'vitest';
import { posterSvg } from '../../src/lib/domain/poster.ts';

/** Every opened element is closed in order: the markup parses as XML. */
function isBalanced(svg: string): boolean {
  const open: string[] = [];
  for (const [, closing, name, selfClosing] of svg.matchAll(/<(\/?)([a-zA-Z]+)[^<>]*?(\/?)>/g)) {
    if (closing) {
      if (open.pop() !== name) return false;
    } else if (!selfClosing) {
      open.push(name);
    }
  }
  return open.length === 0;
}

describe('posterSvg', () => {
  it('draws the same poster for the same id', () => {
    expect(posterSvg('activity', 1042)).toBe(posterSvg('activity', 1042));
    expect(posterSvg('banner', 1042)).toBe(posterSvg('banner', 1042));
  });

  it('draws different posters for different ids and kinds', () => {
    const activities = new Set(Array.from({ length: 200 }, (_, i) => posterSvg('activity', 1000 + i)));
    expect(activities.size).toBe(200);
    expect(posterSvg('banner', 1000)).not.toBe(posterSvg('activity', 1000));
  });

  it('is well-formed, self-contained SVG of the right shape', () => {
    for (const [kind, viewBox] of [
      ['activity', '0 0 300 400'],
      ['banner', '0 0 800 350'],
    ] as const) {
      for (const id of [1, 1000, 1373, 999_999_999]) {
        const svg = posterSvg(kind, id);
        expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
        expect(svg).toContain(`viewBox="${viewBox}"`);
        expect(svg.endsWith('</svg>')).toBe(true);
        expect(isBalanced(svg)).toBe(true);
        expect(svg).not.toMatch(/<text|<image|href=|NaN|undefined/);
        expect(svg.length).toBeLessThan(2048);
      }
    }
  });
});
