import { describe, expect, it } from 'vitest';
import { CAPTCHA_ALPHABET, drawCaptcha, isCaptchaShaped, normalizeCaptchaAnswer } from '../../src/lib/domain/captcha.ts';

/** A seeded generator, so a drawing can be compared with another. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

describe('captcha drawing', () => {
  it('draws strokes, never text, in a 120 x 40 SVG', () => {
    const svg = drawCaptcha('AB3D', seeded(1));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="120" height="40"/);
    expect(svg).not.toMatch(/<text|AB3D/);
    // 5 noise curves and one path per character.
    expect(svg.match(/<path /g)).toHaveLength(9);
  });

  it('distorts differently each time', () => {
    expect(drawCaptcha('AB3D', seeded(1))).not.toBe(drawCaptcha('AB3D', seeded(2)));
    expect(drawCaptcha('AB3D', seeded(1))).toBe(drawCaptcha('AB3D', seeded(1)));
  });

  it('has a glyph for every character of its alphabet, leaving out look-alikes', () => {
    for (const char of CAPTCHA_ALPHABET) expect(() => drawCaptcha(char.repeat(4), seeded(3))).not.toThrow();
    for (const char of '01OIL') expect(CAPTCHA_ALPHABET).not.toContain(char);
  });

  it('reads answers case-insensitively and knows their shape', () => {
    expect(normalizeCaptchaAnswer(' ab3d ')).toBe('AB3D');
    expect(isCaptchaShaped('ab3d')).toBe(true);
    expect(isCaptchaShaped('AB3')).toBe(false);
    expect(isCaptchaShaped('AB0D')).toBe(false);
  });
});
