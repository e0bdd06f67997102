/**
 * An attacker's template-fitting solver, run against the captcha. It knows what the source tells
 * anyone: the stroke font, the alphabet, the answer length, the glyph size and the distortion ranges.
 * It binarises the image by darkness, then slides templates of every character, rendered from the
 * font over a range of rotations, shears and sizes, across the image, scoring each by a chamfer-style
 * match (template strokes landing on or near ink count for it; strokes missing their ink, and ink
 * where the template has none, count against it). It keeps the best match per column, picks the four
 * non-overlapping columns with the highest total, left to right, and re-reads each on a finer grid.
 *
 * It must read plain renderings (so a failure to read real ones is the captcha's doing, not a
 * broken solver) and must not read the captchas actually served. */
import { describe, expect, it } from 'vitest';
import {
  CAPTCHA_ALPHABET,
  CAPTCHA_DISTORTION,
  CAPTCHA_FONT_UNIT,
  CAPTCHA_GLYPHS,
  CAPTCHA_HEIGHT,
  CAPTCHA_WIDTH,
  drawCaptcha,
  NO_DISTORTION,
  type Distortion,
} from '../../src/lib/media/captcha.ts';
import { CAPTCHA_LENGTH } from '../../src/lib/config/accounts.ts';
import type { GrayImage } from '../../src/lib/media/png.ts';

/** A seeded generator, so every run draws and attacks the same images. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

// The solver works at half resolution: strokes stay about 3 px wide and the search is 4 times smaller.
const WIDTH = CAPTCHA_WIDTH / 2;
const HEIGHT = CAPTCHA_HEIGHT / 2;
/** A blank margin around the maps, so template points near an edge need no bounds checks. */
const PAD = 24;
const STRIDE = WIDTH + 2 * PAD;
const at = (x: number, y: number) => (y + PAD) * STRIDE + x + PAD;
/** Gray levels darker than this count as ink. */
const INK_THRESHOLD = 150;
/** Template pixels this close, px, to the glyph's centre line are where ink should be (strokes are about 3 px wide). */
const STROKE_REACH = 1.5;
/** Template pixels farther than this from the centre line are where ink should not be; between the two, either. */
const BLANK_REACH = 3;
/** How far, px, ink may be from where a template wants it and still count for a part (chamfer tolerance). */
const TOLERANCE = 2;
/** Closest two character centres may be, px: narrower than any glyph with its neighbour crowded in. */
const MIN_CENTRE_GAP = 11;

/** Ink (1) or not (0) per half-resolution pixel: a 2 x 2 block whose mean is dark. */
function binarise({ width, pixels }: GrayImage): Uint8Array {
  const ink = new Uint8Array(STRIDE * (HEIGHT + 2 * PAD));
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = 2 * y * width + 2 * x;
      const mean = (pixels[i] + pixels[i + 1] + pixels[i + width] + pixels[i + width + 1]) / 4;
      ink[at(x, y)] = mean < INK_THRESHOLD ? 1 : 0;
    }
  }
  return ink;
}

/** Per pixel, 1 on ink, falling linearly to 0 at TOLERANCE px away (a 3-4 chamfer distance transform). */
function proximity(ink: Uint8Array): Float32Array {
  const rows = HEIGHT + 2 * PAD;
  const distance = new Float32Array(ink.length).map((_, i) => (ink[i] ? 0 : 1e6));
  const relax = (i: number, j: number, step: number) => {
    if (distance[j] + step < distance[i]) distance[i] = distance[j] + step;
  };
  for (let y = 1; y < rows; y++) {
    for (let x = 1; x < STRIDE - 1; x++) {
      const i = y * STRIDE + x;
      relax(i, i - 1, 3);
      relax(i, i - STRIDE - 1, 4);
      relax(i, i - STRIDE, 3);
      relax(i, i - STRIDE + 1, 4);
    }
  }
  for (let y = rows - 2; y >= 0; y--) {
    for (let x = STRIDE - 2; x >= 1; x--) {
      const i = y * STRIDE + x;
      relax(i, i + 1, 3);
      relax(i, i + STRIDE + 1, 4);
      relax(i, i + STRIDE, 3);
      relax(i, i + STRIDE - 1, 4);
    }
  }
  return distance.map((d) => Math.max(0, 1 - d / 3 / TOLERANCE));
}

interface Template {
  char: string;
  /** Whether the coarse scan uses it (the unsheared poses). */
  coarse: boolean;
  /** Offsets, in the padded maps, of the pixels its strokes cover. */
  strokes: Int32Array;
  /** Offsets of the pixels of its cell its strokes stay clear of. */
  blanks: Int32Array;
}

/**
 * A glyph placed as the captcha places it (centred on its 6 x 10 cell, sheared, rotated), sampled on
 * every other pixel of the cell. Every glyph fills the same cell, so one that is part of another (7
 * of Z) meets the other's extra ink on its blanks.
 */
function template(char: string, size: number, angle: number, skew: number, coarse: boolean): Template {
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const place = ([gx, gy]: readonly [number, number]): [number, number] => {
    const [x, y] = [(gx - 3) * size, (gy - 5) * size];
    const sheared = x + y * skew;
    return [sheared * cos - y * sin, sheared * sin + y * cos];
  };
  const line: [number, number][] = [];
  for (const stroke of CAPTCHA_GLYPHS[char]) {
    const placed = stroke.map(place);
    for (let i = 1; i < placed.length; i++) {
      const [[ax, ay], [bx, by]] = [placed[i - 1], placed[i]];
      const steps = Math.ceil(2 * Math.hypot(bx - ax, by - ay));
      for (let k = 0; k <= steps; k++) line.push([ax + ((bx - ax) * k) / steps, ay + ((by - ay) * k) / steps]);
    }
  }
  // Back from pixel to font coordinates, to tell whether a pixel is in the cell. The margin is wider
  // above and below, where no neighbour is, so a smaller glyph cannot hide another's bottom bar.
  const inCell = (x: number, y: number) => {
    const [ux, uy] = [x * cos + y * sin, -x * sin + y * cos];
    const [gx, gy] = [(ux - uy * skew) / size + 3, uy / size + 5];
    return gx >= -0.5 && gx <= 6.5 && gy >= -2 && gy <= 12;
  };
  const [strokes, blanks]: number[][] = [[], []];
  const reach = 9 * size;
  for (let y = -Math.ceil(reach / 2) * 2; y <= reach; y += 2) {
    for (let x = -Math.ceil(reach / 2) * 2; x <= reach; x += 2) {
      if (!inCell(x, y)) continue;
      const distance = Math.min(...line.map(([lx, ly]) => Math.hypot(lx - x, ly - y)));
      if (distance <= STROKE_REACH) strokes.push(at(x, y) - at(0, 0));
      else if (distance > BLANK_REACH) blanks.push(at(x, y) - at(0, 0));
    }
  }
  return { char, coarse, strokes: Int32Array.from(strokes), blanks: Int32Array.from(blanks) };
}

/**
 * Every character in poses covering what the source says the drawing uses: rotations of -0.4 to
 * 0.4 rad, shears of -0.2 to 0.2 and the size spread, at half resolution.
 */
function templates(): Template[] {
  const range = (limit: number, count: number) => Array.from({ length: count }, (_, i) => -limit + (2 * limit * i) / (count - 1));
  const out: Template[] = [];
  for (const char of CAPTCHA_ALPHABET) {
    for (const angle of range(0.4, 9)) {
      for (const skew of range(0.2, 3)) {
        for (const scale of range(CAPTCHA_DISTORTION.scale, 3))
          out.push(template(char, (CAPTCHA_FONT_UNIT * (1 + scale)) / 2, angle, skew, skew === 0));
      }
    }
  }
  return out;
}

interface Match {
  x: number;
  y: number;
  char: string;
  score: number;
}

/**
 * The best template at any of the given centres, by normalised agreement: stroke pixels on (or
 * near) ink count for, stroke pixels off ink and blank pixels on ink count against, over the square
 * root of the template's size. So a glyph that is part of the drawn one (7 of Z) loses to it, a
 * bigger one (N over V) pays for the strokes it finds missing, and neither wins by size alone.
 */
function bestMatch(all: Template[], near: Float32Array, ink: Uint8Array, centres: [number, number][]): Match {
  let best: Match = { x: 0, y: 0, char: '?', score: -Infinity };
  for (const [x, y] of centres) {
    const centre = at(x, y);
    for (const { char, strokes, blanks } of all) {
      let found = 0;
      for (let i = 0; i < strokes.length; i++) found += near[centre + strokes[i]];
      const norm = Math.sqrt(strokes.length);
      // Blank pixels can only lower the score: skip them when the strokes alone cannot win.
      if ((2 * found - strokes.length) / norm <= best.score) continue;
      let unexplained = 0;
      for (let i = 0; i < blanks.length; i++) unexplained += ink[centre + blanks[i]];
      const score = (2 * found - strokes.length - unexplained) / norm;
      if (score > best.score) best = { x, y, char, score };
    }
  }
  return best;
}

/**
 * Reads an image: a coarse scan (every column, every other row, fewer poses) keeps the best match per
 * column; the four columns at least MIN_CENTRE_GAP apart with the highest total are chosen; each is
 * then re-read in every pose at every pixel around it.
 */
function solve(image: GrayImage, all: Template[]): string {
  const coarse = all.filter((candidate) => candidate.coarse);
  const ink = binarise(image);
  const near = proximity(ink);
  const columns: Match[] = [];
  for (let x = 0; x < WIDTH; x++) {
    const rows: [number, number][] = [];
    for (let y = HEIGHT / 2 - 6; y <= HEIGHT / 2 + 6; y += 2) rows.push([x, y]);
    columns.push(bestMatch(coarse, near, ink, rows));
  }

  // total[k][i]: best sum of k + 1 matches, the last in column i; from[k][i]: the column before it.
  const total = [columns.map((match) => match.score)];
  const from: number[][] = [columns.map(() => -1)];
  for (let k = 1; k < CAPTCHA_LENGTH; k++) {
    total.push([]);
    from.push([]);
    columns.forEach((match) => {
      let [bestSum, bestFrom] = [-Infinity, -1];
      columns.forEach((previous, j) => {
        if (match.x - previous.x >= MIN_CENTRE_GAP && total[k - 1][j] > bestSum) [bestSum, bestFrom] = [total[k - 1][j], j];
      });
      total[k].push(match.score + bestSum);
      from[k].push(bestFrom);
    });
  }
  let last = total[CAPTCHA_LENGTH - 1].indexOf(Math.max(...total[CAPTCHA_LENGTH - 1]));
  const chosen: Match[] = [];
  for (let k = CAPTCHA_LENGTH - 1; k >= 0; k--) {
    chosen.unshift(columns[last]);
    last = from[k][last];
  }

  return chosen
    .map(({ x, y }) => {
      const around: [number, number][] = [];
      for (let dy = -2; dy <= 2; dy++) for (let dx = -1; dx <= 1; dx++) around.push([x + dx, y + dy]);
      return bestMatch(all, near, ink, around).char;
    })
    .join('');
}

const TEMPLATES = templates();

function randomAnswer(random: () => number): string {
  return Array.from({ length: CAPTCHA_LENGTH }, () => CAPTCHA_ALPHABET[Math.floor(random() * CAPTCHA_ALPHABET.length)]).join('');
}

/** Reads `count` seeded captchas drawn with a distortion; the share of answers and of characters read right. */
function attack(count: number, seed: number, distortion: Distortion) {
  const random = seeded(seed);
  let [answers, chars] = [0, 0];
  for (let i = 0; i < count; i++) {
    const answer = randomAnswer(random);
    const read = solve(drawCaptcha(answer, random, distortion), TEMPLATES);
    if (read === answer) answers++;
    chars += [...answer].filter((char, index) => read[index] === char).length;
  }
  return { answers: answers / count, chars: chars / (count * CAPTCHA_LENGTH) };
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

describe('a template-fitting attacker', () => {
  it('reads undistorted renderings, so the solver is a real one', () => {
    const { answers, chars } = attack(20, 11, NO_DISTORTION);
    console.info(`template solver on undistorted images: ${percent(answers)} of answers, ${percent(chars)} of characters`);
    expect(answers).toBeGreaterThanOrEqual(0.8);
  }, 60_000);

  it('reads fewer than 5% of the captchas served', () => {
    const { answers, chars } = attack(100, 12, CAPTCHA_DISTORTION);
    console.info(`template solver on served captchas: ${percent(answers)} of answers, ${percent(chars)} of characters`);
    expect(answers).toBeLessThan(0.05);
  }, 60_000);
});
