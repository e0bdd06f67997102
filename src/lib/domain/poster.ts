/**
 * Poster artwork drawn from an id alone, so the catalogue needs no stored images: a two-hue gradient
 * with circles, an arc and diagonal stripes. No text, fonts or external references; the <img> that
 * shows it carries the alt text. The build prints it as the demo's raster posters
 * (integrations/poster-images.ts); the route /posters/<kind>/<id>.svg serves it for catalogues without
 * them, such as the search bench's generated ones.
 */
import type { PosterKind } from './poster-images.ts';
import { mulberry32 } from './random.ts';

/** Activity posters are 3:4 portrait; home-page banners are 16:7. */
export const POSTER_SVG_SIZES: Record<PosterKind, readonly [width: number, height: number]> = {
  activity: [300, 400],
  banner: [800, 350],
};

/** Degrees between the hues of consecutive ids; the golden angle keeps neighbours far apart. */
const GOLDEN_ANGLE = 137.508;

/** One decimal is plenty at these sizes and keeps the markup small. */
function num(value: number): number {
  return Math.round(value * 10) / 10;
}

function hsl(hue: number, saturation: number, lightness: number): string {
  return `hsl(${Math.round(hue) % 360},${saturation}%,${lightness}%)`;
}

/** A deterministic SVG poster for an activity or a banner. */
export function posterSvg(kind: PosterKind, id: number): string {
  const [width, height] = POSTER_SVG_SIZES[kind];
  const rand = mulberry32(Math.imul(id + (kind === 'banner' ? 0x51ed270b : 0), 0x9e3779b1));
  const between = (min: number, max: number) => min + rand() * (max - min);
  const unit = Math.min(width, height);

  const baseHue = (((id * GOLDEN_ANGLE) % 360) + 360) % 360;
  const accentHue = baseHue + between(60, 200);
  const gradientId = `bg-${kind}-${id}`;
  const shadeId = `shade-${kind}-${id}`;

  const circles = Array.from({ length: 3 }, (_, i) => {
    const fill = i === 0 ? hsl(accentHue, 85, 62) : '#fff';
    const opacity = i === 0 ? 0.75 : between(0.08, 0.22);
    return `<circle cx="${num(between(0, width))}" cy="${num(between(0, height))}" r="${num(unit * between(0.12, 0.42))}" fill="${fill}" fill-opacity="${opacity.toFixed(2)}"/>`;
  });

  const arcRadius = unit * between(0.3, 0.5);
  const arcX = between(width * 0.2, width * 0.8);
  const arcY = between(height * 0.2, height * 0.8);
  const arc =
    `<path d="M${num(arcX - arcRadius)} ${num(arcY)}A${num(arcRadius)} ${num(arcRadius)} 0 0 1 ${num(arcX + arcRadius)} ${num(arcY)}" ` +
    `fill="none" stroke="${hsl(accentHue + 30, 90, 80)}" stroke-width="${num(unit * 0.03)}" stroke-linecap="round" ` +
    `transform="rotate(${num(between(-60, 60))} ${num(arcX)} ${num(arcY)})"/>`;

  const stripeGap = unit * between(0.06, 0.1);
  const stripeX = between(0, width);
  const stripes = Array.from(
    { length: 5 },
    (_, i) => `<rect x="${num(stripeX + i * stripeGap)}" y="${-height}" width="${num(stripeGap / 3)}" height="${height * 3}"/>`,
  ).join('');

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">` +
    `<defs><linearGradient id="${gradientId}" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="${hsl(baseHue, 70, 45)}"/><stop offset="1" stop-color="${hsl(accentHue, 65, 28)}"/></linearGradient>` +
    `<linearGradient id="${shadeId}" x1="0" y1="0" x2="0" y2="1"><stop offset=".55" stop-color="#000" stop-opacity="0"/>` +
    `<stop offset="1" stop-color="#000" stop-opacity=".45"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#${gradientId})"/>` +
    circles.join('') +
    `<g fill="#fff" fill-opacity=".16" transform="rotate(${num(between(-40, -20))} ${num(stripeX)} ${height / 2})">${stripes}</g>` +
    arc +
    `<rect width="${width}" height="${height}" fill="url(#${shadeId})"/>` +
    `</svg>`
  );
}
