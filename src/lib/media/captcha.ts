/**
 * The graphic captcha image: one grayscale raster of the answer, drawn from a stroke font with each
 * character rotated, scaled, skewed, jittered and its strokes bowed, crowded against its neighbours at
 * random spacing, the whole text bent by a smooth warp and crossed by strokes of the same width and
 * ink, over speckles and a textured ground. Only pixels leave the server: no per-character shapes,
 * paths or text. A person reads through these distortions; fitting the font's templates does not
 * (tests/unit/captcha-solver.test.ts tries).
 */
import { CAPTCHA_LENGTH } from '../config/accounts.ts';
import type { GrayImage } from './png.ts';

type Point = readonly [number, number];
type Glyph = readonly (readonly Point[])[];

/** The open arc of C, which G continues into its bar. */
const C_ARC: readonly Point[] = [
  [6, 1.5],
  [4.5, 0],
  [1.5, 0],
  [0, 2],
  [0, 8],
  [1.5, 10],
  [4.5, 10],
  [6, 8.5],
];
/** The stem and bowl of P, which R adds its leg to. */
const P_STEM_AND_BOWL: readonly Point[] = [
  [0, 10],
  [0, 0],
  [4.5, 0],
  [6, 1.5],
  [6, 3.5],
  [4.5, 5],
  [0, 5],
];

/** The upper loop of 8 from its waist round to the right, which 9 draws too. */
const UPPER_LOOP: readonly Point[] = [
  [1.5, 5],
  [0, 3.5],
  [0, 1.5],
  [1.5, 0],
  [4.5, 0],
  [6, 1.5],
];
/** The lower loop of 8 from the left round to its waist, which closes 6 too. */
const LOWER_LOOP: readonly Point[] = [
  [0, 8.5],
  [1.5, 10],
  [4.5, 10],
  [6, 8.5],
  [6, 6.5],
  [4.5, 5],
];

/**
 * A stroke font on a 6 x 10 grid. Letters and digits that read alike (0/O, 1/I/L, Q) are left
 * out, so every answer can be typed back without guessing.
 */
export const CAPTCHA_GLYPHS: Readonly<Record<string, Glyph>> = {
  A: [
    [
      [0, 10],
      [3, 0],
      [6, 10],
    ],
    [
      [1.2, 6],
      [4.8, 6],
    ],
  ],
  B: [
    [
      [0, 0],
      [0, 10],
      [4, 10],
      [6, 8.5],
      [6, 6.5],
      [4, 5],
      [0, 5],
    ],
    [
      [0, 0],
      [4, 0],
      [5.5, 1.3],
      [5.5, 3.7],
      [4, 5],
    ],
  ],
  C: [C_ARC],
  D: [
    [
      [0, 0],
      [0, 10],
      [3.5, 10],
      [6, 7.5],
      [6, 2.5],
      [3.5, 0],
      [0, 0],
    ],
  ],
  E: [
    [
      [6, 0],
      [0, 0],
      [0, 10],
      [6, 10],
    ],
    [
      [0, 5],
      [4.5, 5],
    ],
  ],
  F: [
    [
      [6, 0],
      [0, 0],
      [0, 10],
    ],
    [
      [0, 5],
      [4.5, 5],
    ],
  ],
  G: [[...C_ARC, [6, 5.5], [3.5, 5.5]]],
  H: [
    [
      [0, 0],
      [0, 10],
    ],
    [
      [6, 0],
      [6, 10],
    ],
    [
      [0, 5],
      [6, 5],
    ],
  ],
  J: [
    [
      [6, 0],
      [6, 8],
      [4.5, 10],
      [1.5, 10],
      [0, 8],
    ],
  ],
  K: [
    [
      [0, 0],
      [0, 10],
    ],
    [
      [6, 0],
      [0, 6],
    ],
    [
      [2, 4.5],
      [6, 10],
    ],
  ],
  M: [
    [
      [0, 10],
      [0, 0],
      [3, 6],
      [6, 0],
      [6, 10],
    ],
  ],
  N: [
    [
      [0, 10],
      [0, 0],
      [6, 10],
      [6, 0],
    ],
  ],
  P: [P_STEM_AND_BOWL],
  R: [
    P_STEM_AND_BOWL,
    [
      [3, 5],
      [6, 10],
    ],
  ],
  S: [
    [
      [6, 1.5],
      [4.5, 0],
      [1.5, 0],
      [0, 1.5],
      [0, 3.5],
      [1.5, 5],
      [4.5, 5],
      [6, 6.5],
      [6, 8.5],
      [4.5, 10],
      [1.5, 10],
      [0, 8.5],
    ],
  ],
  T: [
    [
      [0, 0],
      [6, 0],
    ],
    [
      [3, 0],
      [3, 10],
    ],
  ],
  U: [
    [
      [0, 0],
      [0, 8],
      [1.5, 10],
      [4.5, 10],
      [6, 8],
      [6, 0],
    ],
  ],
  V: [
    [
      [0, 0],
      [3, 10],
      [6, 0],
    ],
  ],
  W: [
    [
      [0, 0],
      [1.5, 10],
      [3, 4],
      [4.5, 10],
      [6, 0],
    ],
  ],
  X: [
    [
      [0, 0],
      [6, 10],
    ],
    [
      [6, 0],
      [0, 10],
    ],
  ],
  Y: [
    [
      [0, 0],
      [3, 5],
      [6, 0],
    ],
    [
      [3, 5],
      [3, 10],
    ],
  ],
  Z: [
    [
      [0, 0],
      [6, 0],
      [0, 10],
      [6, 10],
    ],
  ],
  2: [
    [
      [0, 1.5],
      [1.5, 0],
      [4.5, 0],
      [6, 1.5],
      [6, 3.5],
      [0, 10],
      [6, 10],
    ],
  ],
  3: [
    [
      [0, 1],
      [1.5, 0],
      [4.5, 0],
      [6, 1.5],
      [6, 3.5],
      [4.5, 5],
      [2.5, 5],
    ],
    [
      [4.5, 5],
      [6, 6.5],
      [6, 8.5],
      [4.5, 10],
      [1.5, 10],
      [0, 9],
    ],
  ],
  4: [
    [
      [4.5, 10],
      [4.5, 0],
      [0, 7],
      [6, 7],
    ],
  ],
  5: [
    [
      [6, 0],
      [0.5, 0],
      [0, 4.5],
      [4.5, 4.5],
      [6, 6],
      [6, 8.5],
      [4.5, 10],
      [1.5, 10],
      [0, 8.5],
    ],
  ],
  6: [[[5.5, 0.5], [4, 0], [1.5, 0], [0, 2], ...LOWER_LOOP, [1.5, 5], [0, 6.5]]],
  7: [
    [
      [0, 0],
      [6, 0],
      [2, 10],
    ],
  ],
  8: [[...UPPER_LOOP, [6, 3.5], [4.5, 5], [1.5, 5], [0, 6.5], ...LOWER_LOOP]],
  9: [[[6, 3.5], [4.5, 5], ...UPPER_LOOP, [6, 8], [4.5, 10], [1.5, 10], [0.5, 9.5]]],
};

/** The characters a captcha answer is made of. */
export const CAPTCHA_ALPHABET = Object.keys(CAPTCHA_GLYPHS).join('');
/** Pixels: twice the 120 x 40 CSS px the image is shown at, so it stays sharp on dense screens. */
export const CAPTCHA_WIDTH = 240;
export const CAPTCHA_HEIGHT = 80;
/** Pixels per font unit at a character's base size (a character is about 50 px high). */
export const CAPTCHA_FONT_UNIT = 5;

/** How much each kind of distortion varies the drawing. */
export interface Distortion {
  /** Largest rotation of a character, radians either way. */
  rotation: number;
  /** Largest horizontal shear of a character, either way. */
  skew: number;
  /** Largest relative change of a character's size, either way. */
  scale: number;
  /** Largest move of each font point, in font units, either way. */
  jitter: number;
  /** Largest sideways bow of each straight piece of a character's strokes, as a share of its length. */
  bend: number;
  /** Largest vertical offset of a character, px either way. */
  drift: number;
  /** Largest amount, px, by which the LETTER_GAP between neighbouring characters closes: past it, they overlap. */
  crowding: number;
  /** Amplitude, px, of the long waves bending the whole line of text. */
  warp: number;
  /** Amplitude, px, of the shorter waves bending strokes within each character. */
  wobble: number;
  /** Curves, as wide and dark as the characters' strokes, drawn across the text. */
  crossingStrokes: number;
  /** Dark dots scattered over the image. */
  speckles: number;
  /** Depth, in gray levels, of the background's light blotches. */
  texture: number;
}

/**
 * What every served captcha gets. Tuned against the template solver in tests/unit/captcha-solver.test.ts:
 * the crossing strokes, the warp and the bows are what defeat a template fit, so they carry the load;
 * rotation and shear, which a template search simply tries, stay small to spare the reader.
 */
export const CAPTCHA_DISTORTION: Distortion = {
  rotation: 0.2,
  skew: 0.15,
  scale: 0.12,
  jitter: 0.25,
  bend: 0.12,
  drift: 4,
  crowding: 7,
  warp: 5,
  wobble: 2.5,
  crossingStrokes: 2,
  speckles: 70,
  texture: 14,
};

/** Plain upright characters side by side on blank paper: for tests that need a readable baseline. */
export const NO_DISTORTION: Distortion = {
  rotation: 0,
  skew: 0,
  scale: 0,
  jitter: 0,
  bend: 0,
  drift: 0,
  crowding: 0,
  warp: 0,
  wobble: 0,
  crossingStrokes: 0,
  speckles: 0,
  texture: 0,
};

/** Gap, px, between neighbouring characters' ink before crowding closes it. */
const LETTER_GAP = 6;
/** Longest straight piece a stroke is cut into, px, so bows and the warp bend it smoothly. */
const PIECE = 3;
/** Wavelengths, px, of the warp's long waves (the line of text) and short ones (within a character). */
const WARP_WAVELENGTH = [100, 200] as const;
const WOBBLE_WAVELENGTH = [40, 70] as const;
/** Gray level of the paper before its texture. */
const BACKGROUND = 240;

/** The form an answer is compared in: trimmed, upper case (typing is case-insensitive). */
export function normalizeCaptchaAnswer(value: string): string {
  return value.trim().toUpperCase();
}

/** Whether a text could be an answer at all (length and alphabet), before asking the database. */
export function isCaptchaShaped(value: string): boolean {
  const answer = normalizeCaptchaAnswer(value);
  return answer.length === CAPTCHA_LENGTH && [...answer].every((char) => CAPTCHA_ALPHABET.includes(char));
}

type Vec = [number, number];

interface Stroke {
  points: Vec[];
  /** Half the line width, px. */
  radius: number;
  /** How dark the line is: 0 none, 1 black. */
  ink: number;
}

/**
 * The image of an answer, 240 x 80 grayscale. `random` returns numbers in [0, 1): crypto-backed in
 * use, seeded in tests.
 */
export function drawCaptcha(answer: string, random: () => number, distortion: Distortion = CAPTCHA_DISTORTION): GrayImage {
  const between = (low: number, high: number) => low + random() * (high - low);
  const spread = (amount: number) => between(-amount, amount);
  const strokeRadius = () => between(2.5, 3.2);
  const inkShade = () => between(0.62, 0.88);

  const glyphs = [...answer].map((char) => {
    const glyph = CAPTCHA_GLYPHS[char];
    if (!glyph) throw new Error(`No captcha glyph for ${char}`);
    return { glyph, size: CAPTCHA_FONT_UNIT * (1 + spread(distortion.scale)), radius: strokeRadius() };
  });

  // Centres follow the characters' random widths and gaps, so columns of equal width do not cut them apart.
  const centres: number[] = [];
  let right = 0;
  for (const { size, radius } of glyphs) {
    const half = 3 * size + radius;
    const left = centres.length === 0 ? 0 : right + LETTER_GAP - between(0, distortion.crowding);
    centres.push(left + half);
    right = left + 2 * half;
  }
  const shift = (CAPTCHA_WIDTH - right) / 2 + spread(Math.max(0, (CAPTCHA_WIDTH - right) / 2 - 12));

  const strokes: Stroke[] = glyphs.flatMap(({ glyph, size, radius }, index) => {
    const angle = spread(distortion.rotation);
    const skew = spread(distortion.skew);
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    const [originX, originY] = [shift + centres[index], CAPTCHA_HEIGHT / 2 + spread(distortion.drift)];
    const ink = inkShade();
    const place = ([gx, gy]: Point): Vec => {
      // Centre the glyph on its origin, jitter the point, shear, then rotate.
      const x = (gx - 3 + spread(distortion.jitter)) * size;
      const y = (gy - 5 + spread(distortion.jitter)) * size;
      const sheared = x + y * skew;
      return [originX + sheared * cos - y * sin, originY + sheared * sin + y * cos];
    };
    return glyph.map((line) => ({ points: subdivide(line.map(place), (length) => spread(distortion.bend) * length), radius, ink }));
  });

  // Curves alternate falling and rising, so they cross each other rather than band together.
  const firstFalls = random() < 0.5;
  for (let i = 0; i < distortion.crossingStrokes; i++) {
    strokes.push({ points: subdivide(crossingCurve(between, firstFalls === (i % 2 === 0))), radius: strokeRadius(), ink: inkShade() });
  }

  const warp = smoothWarp(between, distortion.warp, distortion.wobble);
  const darkness = new Float32Array(CAPTCHA_WIDTH * CAPTCHA_HEIGHT);
  for (const stroke of strokes) paint(darkness, { ...stroke, points: stroke.points.map(warp) });
  for (let i = 0; i < distortion.speckles; i++) {
    paint(darkness, {
      points: [[between(0, CAPTCHA_WIDTH), between(0, CAPTCHA_HEIGHT)]],
      radius: between(0.6, 1.5),
      ink: between(0.3, 0.7),
    });
  }

  const ground = backgroundTexture(between, distortion.texture);
  const pixels = new Uint8Array(CAPTCHA_WIDTH * CAPTCHA_HEIGHT);
  for (let i = 0; i < pixels.length; i++)
    pixels[i] = Math.round(ground(i % CAPTCHA_WIDTH, Math.floor(i / CAPTCHA_WIDTH)) * (1 - darkness[i]));
  return { width: CAPTCHA_WIDTH, height: CAPTCHA_HEIGHT, pixels };
}

/**
 * A gentle cubic curve from edge to edge, from the top of the text band to the bottom (falling) or
 * back, so it crosses every character at a slant rather than running along one like a bar. Running
 * off both sides, it has no ends that could pass for a character's.
 */
function crossingCurve(between: (low: number, high: number) => number, falling: boolean): Vec[] {
  const [high, low] = [between(-4, 14), CAPTCHA_HEIGHT - between(-4, 14)];
  const [from, to] = falling ? [high, low] : [low, high];
  const along = (share: number): Vec => [-10 + share * (CAPTCHA_WIDTH + 20), from + share * (to - from) + between(-10, 10)];
  const controls: Vec[] = [[-10, from], along(1 / 3), along(2 / 3), [CAPTCHA_WIDTH + 10, to]];
  const steps = 40;
  return Array.from({ length: steps + 1 }, (_, step) => {
    const t = step / steps;
    const weights = [(1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t ** 2 * (1 - t), t ** 3];
    return [0, 1].map((axis) => weights.reduce((sum, weight, i) => sum + weight * controls[i][axis], 0)) as Vec;
  });
}

/**
 * Cuts a polyline into pieces no longer than PIECE, so the warp bends it smoothly, bowing each of its
 * straight parts sideways into an arc by `bow(length)` px at the middle.
 */
function subdivide(points: Vec[], bow: (length: number) => number = () => 0): Vec[] {
  const out: Vec[] = [points[0]];
  for (let i = 1; i < points.length; i++) {
    const [[ax, ay], [bx, by]] = [points[i - 1], points[i]];
    const length = Math.hypot(bx - ax, by - ay);
    const offset = bow(length);
    const [nx, ny] = length === 0 ? [0, 0] : [-(by - ay) / length, (bx - ax) / length];
    const pieces = Math.max(1, Math.ceil(length / PIECE));
    for (let k = 1; k <= pieces; k++) {
      const t = k / pieces;
      const lift = 4 * t * (1 - t) * offset;
      out.push([ax + (bx - ax) * t + nx * lift, ay + (by - ay) * t + ny * lift]);
    }
  }
  return out;
}

/**
 * A smooth displacement of the whole picture, a sum of sine waves: long ones (`warp` px) bend the
 * line of text; shorter ones (`wobble` px, about a character long) bend strokes within a character,
 * which no rotation, shear or scaling of a template undoes.
 */
function smoothWarp(between: (low: number, high: number) => number, warp: number, wobble: number): (point: Vec) => Vec {
  const wave = (amplitude: number, [shortest, longest]: readonly [number, number]) => {
    const [strength, angle, length, phase] = [
      amplitude * between(0.6, 1),
      between(0, 2 * Math.PI),
      between(shortest, longest),
      between(0, 2 * Math.PI),
    ];
    const [fx, fy] = [(Math.cos(angle) * 2 * Math.PI) / length, (Math.sin(angle) * 2 * Math.PI) / length];
    return (x: number, y: number) => strength * Math.sin(fx * x + fy * y + phase);
  };
  const across = [wave(warp, WARP_WAVELENGTH), wave(wobble, WOBBLE_WAVELENGTH)];
  const along = [wave(warp, WARP_WAVELENGTH), wave(wobble, WOBBLE_WAVELENGTH)];
  const sum = (waves: ((x: number, y: number) => number)[], x: number, y: number) => waves.reduce((total, wave) => total + wave(x, y), 0);
  return ([x, y]) => [x + sum(across, x, y), y + sum(along, x, y)];
}

/** Paints an anti-aliased round-capped line (or a dot, for one point), keeping the darker ink where lines cross. */
function paint(darkness: Float32Array, { points, radius, ink }: Stroke): void {
  const pairs = points.length === 1 ? [[points[0], points[0]]] : points.slice(1).map((point, i) => [points[i], point]);
  for (const [[ax, ay], [bx, by]] of pairs) {
    const [dx, dy] = [bx - ax, by - ay];
    const lengthSquared = dx * dx + dy * dy;
    const reach = radius + 1;
    const [x0, x1] = [Math.max(0, Math.floor(Math.min(ax, bx) - reach)), Math.min(CAPTCHA_WIDTH - 1, Math.ceil(Math.max(ax, bx) + reach))];
    const [y0, y1] = [Math.max(0, Math.floor(Math.min(ay, by) - reach)), Math.min(CAPTCHA_HEIGHT - 1, Math.ceil(Math.max(ay, by) + reach))];
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const [px, py] = [x + 0.5 - ax, y + 0.5 - ay];
        const t = lengthSquared === 0 ? 0 : Math.min(1, Math.max(0, (px * dx + py * dy) / lengthSquared));
        const distance = Math.sqrt((px - t * dx) ** 2 + (py - t * dy) ** 2);
        // The pixel's share of the line: 1 inside, 0 outside, a ramp over the one pixel across its edge.
        const value = Math.min(1, Math.max(0, radius + 0.5 - distance)) * ink;
        const i = y * CAPTCHA_WIDTH + x;
        if (value > darkness[i]) darkness[i] = value;
      }
    }
  }
}

/** The paper: light gray with soft blotches `depth` levels deep. */
function backgroundTexture(between: (low: number, high: number) => number, depth: number): (x: number, y: number) => number {
  const [fx, fy, gx, gy] = [between(0.03, 0.08), between(0.05, 0.12), between(0.08, 0.15), between(0.02, 0.06)];
  const [p, q] = [between(0, 2 * Math.PI), between(0, 2 * Math.PI)];
  return (x, y) => BACKGROUND - (depth * (2 + Math.sin(fx * x + p) * Math.sin(fy * y) + Math.sin(gx * x + gy * y + q))) / 4;
}
