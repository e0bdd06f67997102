/**
 * The graphic captcha image: characters drawn as distorted strokes (rotated, skewed, jittered
 * paths, never SVG text, so the answer cannot be read from the markup) over noise curves and dots.
 */
import { CAPTCHA_LENGTH } from '../config.ts';

type Point = readonly [number, number];
type Glyph = readonly (readonly Point[])[];

/**
 * A stroke font on a 6 x 10 grid. Letters and digits that read alike (0/O, 1/I/L, Q) are left
 * out, so every answer can be typed back without guessing.
 */
const GLYPHS: Record<string, Glyph> = {
  A: [[[0, 10], [3, 0], [6, 10]], [[1.2, 6], [4.8, 6]]],
  B: [[[0, 0], [0, 10], [4, 10], [6, 8.5], [6, 6.5], [4, 5], [0, 5]], [[0, 0], [4, 0], [5.5, 1.3], [5.5, 3.7], [4, 5]]],
  C: [[[6, 1.5], [4.5, 0], [1.5, 0], [0, 2], [0, 8], [1.5, 10], [4.5, 10], [6, 8.5]]],
  D: [[[0, 0], [0, 10], [3.5, 10], [6, 7.5], [6, 2.5], [3.5, 0], [0, 0]]],
  E: [[[6, 0], [0, 0], [0, 10], [6, 10]], [[0, 5], [4.5, 5]]],
  F: [[[6, 0], [0, 0], [0, 10]], [[0, 5], [4.5, 5]]],
  G: [[[6, 1.5], [4.5, 0], [1.5, 0], [0, 2], [0, 8], [1.5, 10], [4.5, 10], [6, 8.5], [6, 5.5], [3.5, 5.5]]],
  H: [[[0, 0], [0, 10]], [[6, 0], [6, 10]], [[0, 5], [6, 5]]],
  J: [[[6, 0], [6, 8], [4.5, 10], [1.5, 10], [0, 8]]],
  K: [[[0, 0], [0, 10]], [[6, 0], [0, 6]], [[2, 4.5], [6, 10]]],
  M: [[[0, 10], [0, 0], [3, 6], [6, 0], [6, 10]]],
  N: [[[0, 10], [0, 0], [6, 10], [6, 0]]],
  P: [[[0, 10], [0, 0], [4.5, 0], [6, 1.5], [6, 3.5], [4.5, 5], [0, 5]]],
  R: [[[0, 10], [0, 0], [4.5, 0], [6, 1.5], [6, 3.5], [4.5, 5], [0, 5]], [[3, 5], [6, 10]]],
  S: [[[6, 1.5], [4.5, 0], [1.5, 0], [0, 1.5], [0, 3.5], [1.5, 5], [4.5, 5], [6, 6.5], [6, 8.5], [4.5, 10], [1.5, 10], [0, 8.5]]],
  T: [[[0, 0], [6, 0]], [[3, 0], [3, 10]]],
  U: [[[0, 0], [0, 8], [1.5, 10], [4.5, 10], [6, 8], [6, 0]]],
  V: [[[0, 0], [3, 10], [6, 0]]],
  W: [[[0, 0], [1.5, 10], [3, 4], [4.5, 10], [6, 0]]],
  X: [[[0, 0], [6, 10]], [[6, 0], [0, 10]]],
  Y: [[[0, 0], [3, 5], [6, 0]], [[3, 5], [3, 10]]],
  Z: [[[0, 0], [6, 0], [0, 10], [6, 10]]],
  2: [[[0, 1.5], [1.5, 0], [4.5, 0], [6, 1.5], [6, 3.5], [0, 10], [6, 10]]],
  3: [[[0, 1], [1.5, 0], [4.5, 0], [6, 1.5], [6, 3.5], [4.5, 5], [2.5, 5]], [[4.5, 5], [6, 6.5], [6, 8.5], [4.5, 10], [1.5, 10], [0, 9]]],
  4: [[[4.5, 10], [4.5, 0], [0, 7], [6, 7]]],
  5: [[[6, 0], [0.5, 0], [0, 4.5], [4.5, 4.5], [6, 6], [6, 8.5], [4.5, 10], [1.5, 10], [0, 8.5]]],
  6: [[[5.5, 0.5], [4, 0], [1.5, 0], [0, 2], [0, 8.5], [1.5, 10], [4.5, 10], [6, 8.5], [6, 6.5], [4.5, 5], [1.5, 5], [0, 6.5]]],
  7: [[[0, 0], [6, 0], [2, 10]]],
  8: [[[1.5, 5], [0, 3.5], [0, 1.5], [1.5, 0], [4.5, 0], [6, 1.5], [6, 3.5], [4.5, 5], [1.5, 5], [0, 6.5], [0, 8.5], [1.5, 10], [4.5, 10], [6, 8.5], [6, 6.5], [4.5, 5]]],
  9: [[[6, 3.5], [4.5, 5], [1.5, 5], [0, 3.5], [0, 1.5], [1.5, 0], [4.5, 0], [6, 1.5], [6, 8], [4.5, 10], [1.5, 10], [0.5, 9.5]]],
};

/** The characters a captcha answer is made of. */
export const CAPTCHA_ALPHABET = Object.keys(GLYPHS).join('');
export const CAPTCHA_WIDTH = 120;
export const CAPTCHA_HEIGHT = 40;

const SCALE = 2.1;
const INK = ['#1f3a93', '#8e1b1b', '#1d5e2f', '#5b2a86', '#7a4a00', '#0e4f5c'];

/** The form an answer is compared in: trimmed, upper case (typing is case-insensitive). */
export function normalizeCaptchaAnswer(value: string): string {
  return value.trim().toUpperCase();
}

/** Whether a text could be an answer at all (length and alphabet), before asking the database. */
export function isCaptchaShaped(value: string): boolean {
  const answer = normalizeCaptchaAnswer(value);
  return answer.length === CAPTCHA_LENGTH && [...answer].every((char) => CAPTCHA_ALPHABET.includes(char));
}

const fixed = (n: number) => (Math.round(n * 10) / 10).toString();

/** The SVG image of an answer. `random` returns numbers in [0, 1): crypto-backed in use, seeded in tests. */
export function drawCaptcha(answer: string, random: () => number): string {
  const between = (low: number, high: number) => low + random() * (high - low);
  const pick = <T,>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const parts: string[] = [];

  for (let i = 0; i < 5; i++) {
    const y = () => fixed(between(4, CAPTCHA_HEIGHT - 4));
    parts.push(
      `<path d="M0 ${y()} C${fixed(between(20, 50))} ${y()} ${fixed(between(70, 100))} ${y()} ${CAPTCHA_WIDTH} ${y()}" stroke="${pick(INK)}" stroke-width="${fixed(between(0.8, 1.6))}" fill="none" opacity="0.7"/>`,
    );
  }

  const cell = (CAPTCHA_WIDTH - 16) / answer.length;
  [...answer].forEach((char, index) => {
    const glyph = GLYPHS[char];
    if (!glyph) throw new Error(`No captcha glyph for ${char}`);
    const angle = between(-0.4, 0.4);
    const skew = between(-0.3, 0.3);
    const scale = SCALE * between(0.85, 1.1);
    const originX = 8 + cell * index + cell / 2 + between(-3, 3);
    const originY = CAPTCHA_HEIGHT / 2 + between(-2, 2);
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    const place = ([gx, gy]: Point) => {
      // Centre the glyph, jitter each point, skew, rotate, then move it into its cell.
      const x = (gx - 3 + between(-0.35, 0.35)) * scale;
      const y = (gy - 5 + between(-0.35, 0.35)) * scale;
      const skewed = x + y * skew;
      return `${fixed(originX + skewed * cos - y * sin)} ${fixed(originY + skewed * sin + y * cos)}`;
    };
    const d = glyph.map((stroke) => `M${stroke.map(place).join(' L')}`).join(' ');
    parts.push(`<path d="${d}" stroke="${pick(INK)}" stroke-width="${fixed(between(2, 2.8))}" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`);
  });

  for (let i = 0; i < 30; i++) {
    parts.push(`<circle cx="${fixed(between(0, CAPTCHA_WIDTH))}" cy="${fixed(between(0, CAPTCHA_HEIGHT))}" r="${fixed(between(0.5, 1.4))}" fill="${pick(INK)}" opacity="0.6"/>`);
  }

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CAPTCHA_WIDTH}" height="${CAPTCHA_HEIGHT}" viewBox="0 0 ${CAPTCHA_WIDTH} ${CAPTCHA_HEIGHT}"><rect width="100%" height="100%" fill="#f4f1e8"/>${parts.join('')}</svg>`;
}
