/**
 * The share card of a lottery or an invitation link: the 1200×630 image a chat app shows large when
 * the link is shared, saying what is offered (the show, when and where, the prize; or the coupons a
 * new friend gets) in the page's language. Pure: what the card says, its versioned URL, how its
 * title is sized, and the element tree the renderer (services/catalogue/share-card-image.ts) draws.
 */
import { isLocale, type Locale } from '../i18n/locales.ts';

export const SHARE_CARD_SIZE = { width: 1200, height: 630 } as const;
/** JPEG: chat apps show it everywhere (not SVG), and a poster's photo weighs a third of its PNG. */
export const SHARE_CARD_TYPE = 'image/jpeg';

/**
 * Part of every card's version: raise it when the drawing changes, so that cards already cached
 * under an old URL (ours and the chat apps') are replaced.
 */
const DRAWING_VERSION = 1;

/** What a card offers: a lottery's prizes, or the coupons of an invitation (in a currency: their amounts are shown in it). */
export type ShareCardSubject = { kind: 'lottery'; lotteryId: number } | { kind: 'invitation'; currency: string };

/** Everything a card shows; all text already in the card's language. */
export interface ShareCardContent {
  subject: ShareCardSubject;
  locale: Locale;
  /** A short label above the title: what kind of offer this is. */
  badge: string;
  title: string;
  /** The facts under the title, one line each: when and where, the tier, the prize, the draw. */
  lines: readonly string[];
  /** The show's poster, a same-origin path; null when the card has none. */
  poster: string | null;
  brand: string;
}

/** FNV-1a, 32 bits: a cheap, stable digest for cache keys (not a security boundary). */
function fnv1a(text: string, seed: number): number {
  let hash = seed;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The card's version: a digest of everything it shows, so that a change of offer changes its URL. */
export function shareCardVersion(content: ShareCardContent): string {
  const text = JSON.stringify([DRAWING_VERSION, content]);
  return [fnv1a(text, 0x811c9dc5), fnv1a(text, 0x050c5d1f)].map((part) => part.toString(16).padStart(8, '0')).join('');
}

const PATH = /^\/share-cards\/([A-Za-z-]{2,5})\/(?:lottery-(\d{1,9})|invitation-([A-Z]{3}))-([0-9a-f]{16})\.jpg$/;

/** The card's path: its language, its subject (and an invitation's currency) and its version. */
export function shareCardPath(content: ShareCardContent): string {
  const { subject, locale } = content;
  const name = subject.kind === 'lottery' ? `lottery-${subject.lotteryId}` : `invitation-${subject.currency}`;
  return `/share-cards/${locale}/${name}-${shareCardVersion(content)}.jpg`;
}

/** The language, subject and version a card path names, or null for any other path. */
export function parseShareCardPath(path: string): { locale: Locale; subject: ShareCardSubject; version: string } | null {
  const match = PATH.exec(path);
  if (!match || !isLocale(match[1])) return null;
  const subject: ShareCardSubject =
    match[2] === undefined ? { kind: 'invitation', currency: match[3] } : { kind: 'lottery', lotteryId: Number(match[2]) };
  return { locale: match[1], subject, version: match[4] };
}

// ---------------------------------------------------------------------------------------------
// Layout

const PADDING = 56;
const POSTER = { width: 330, height: 440, gap: 56 } as const;
const TITLE_SIZES = [64, 56, 48, 40] as const;
const TITLE_MAX_LINES = 3;
/** Each text's size, line height and space above, in pixels: what the title's room is worked out from. */
const BADGE = { fontSize: 24, lineHeight: 1.2, paddingY: 6 } as const;
const TITLE = { lineHeight: 1.2, marginTop: 20 } as const;
const FACTS = { fontSize: 28, lineHeight: 1.3, marginTop: 20, lineGap: 6 } as const;
/** An invitation's coupons stand out as tiles, one per coupon. */
const TILES = { fontSize: 30, lineHeight: 1.3, marginTop: 24, lineGap: 12, paddingY: 10 } as const;
const BRAND = { fontSize: 28, lineHeight: 1.2, marginTop: 28 } as const;
const COLOURS = { background: '#a3121e', text: '#ffffff', facts: '#ffe3e5', badge: '#ffffff', badgeText: '#a3121e' } as const;

/** The text column's width: beside the poster, or the card's width without one. */
export function textColumnWidth(hasPoster: boolean): number {
  const inner = SHARE_CARD_SIZE.width - 2 * PADDING;
  return hasPoster ? inner - POSTER.width - POSTER.gap : inner;
}

/** How a card's facts are drawn: lines of text (a lottery's), or a tile per coupon (an invitation's). */
export function factStyle(content: Pick<ShareCardContent, 'subject'>): 'lines' | 'tiles' {
  return content.subject.kind === 'invitation' ? 'tiles' : 'lines';
}

/** The height left for the title once the badge, `factCount` facts and the brand have theirs. */
export function titleHeight(factCount: number, style: 'lines' | 'tiles'): number {
  const badge = BADGE.fontSize * BADGE.lineHeight + 2 * BADGE.paddingY;
  const facts =
    style === 'lines'
      ? FACTS.marginTop + factCount * (FACTS.fontSize * FACTS.lineHeight + FACTS.lineGap)
      : TILES.marginTop + factCount * (TILES.fontSize * TILES.lineHeight + 2 * TILES.paddingY + TILES.lineGap);
  const brand = BRAND.marginTop + BRAND.fontSize * BRAND.lineHeight;
  return SHARE_CARD_SIZE.height - 2 * PADDING - badge - TITLE.marginTop - facts - brand;
}

/** How wide a character is, in ems: a CJK or full-width one is square, Latin about half as wide. */
function charWidthEm(char: string): number {
  return /[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3ffff}]/u.test(char)
    ? 1
    : 0.56;
}

/** The text's width in ems at one em per font size: what the title's size is chosen by. */
export function textWidthEm(text: string): number {
  let width = 0;
  for (const char of text) width += charWidthEm(char);
  return width;
}

/**
 * The title's font size and most lines: the largest size whose estimated lines (at most
 * TITLE_MAX_LINES) fit the column's width and the room left by the rest of the card, so a short
 * name stands out and a long one still shows whole; past the smallest size, the last line that
 * fits ends with an ellipsis.
 */
export function titleLayout(title: string, columnWidth: number, height: number): { fontSize: number; maxLines: number } {
  const width = textWidthEm(title);
  // A line wraps at a word, not at its last pixel: count on a line being a tenth short.
  const usable = columnWidth * 0.9;
  const linesThatFit = (size: number) => Math.min(TITLE_MAX_LINES, Math.floor(height / (size * TITLE.lineHeight)));
  const fontSize =
    TITLE_SIZES.find((size) => Math.max(1, Math.ceil((width * size) / usable)) <= linesThatFit(size)) ??
    TITLE_SIZES[TITLE_SIZES.length - 1];
  return { fontSize, maxLines: Math.max(1, linesThatFit(fontSize)) };
}

/** A node of the tree the renderer draws: the shape Satori reads (an element's type and props). */
export interface CardNode {
  type: 'div' | 'img';
  props: {
    style: Record<string, string | number>;
    children?: string | CardNode | CardNode[];
    src?: string;
    width?: number;
    height?: number;
  };
}

function div(style: CardNode['props']['style'], children: CardNode['props']['children']): CardNode {
  return { type: 'div', props: { style, children } };
}

/**
 * The card: the poster on the left when there is one; beside it a badge, the title, the facts and the
 * brand at the foot. `fontFamily` names the fonts loaded for its text; `posterSrc` is the poster as a
 * data URL, or null to draw the card without it.
 */
export function shareCardTree(content: ShareCardContent, fontFamily: string, posterSrc: string | null): CardNode {
  const style = factStyle(content);
  const title = titleLayout(content.title, textColumnWidth(posterSrc !== null), titleHeight(content.lines.length, style));
  const poster: CardNode[] =
    posterSrc === null
      ? []
      : [
          {
            type: 'img',
            props: {
              src: posterSrc,
              width: POSTER.width,
              height: POSTER.height,
              style: {
                width: POSTER.width,
                height: POSTER.height,
                flexShrink: 0,
                borderRadius: 16,
                objectFit: 'cover',
                marginRight: POSTER.gap,
              },
            },
          },
        ];
  // Nothing shrinks: the title's size and lines were chosen to leave every other line its room.
  const column = div(
    { display: 'flex', flexDirection: 'column', width: textColumnWidth(posterSrc !== null), justifyContent: 'center', color: COLOURS.text },
    [
      div({ display: 'flex', flexShrink: 0 }, [
        div(
          {
            display: 'flex',
            padding: `${BADGE.paddingY}px 18px`,
            borderRadius: 24,
            background: COLOURS.badge,
            color: COLOURS.badgeText,
            fontSize: BADGE.fontSize,
            lineHeight: BADGE.lineHeight,
            fontWeight: 700,
          },
          content.badge,
        ),
      ]),
      div(
        {
          display: 'block',
          flexShrink: 0,
          marginTop: TITLE.marginTop,
          fontSize: title.fontSize,
          fontWeight: 700,
          lineHeight: TITLE.lineHeight,
          lineClamp: title.maxLines,
        },
        content.title,
      ),
      style === 'lines'
        ? div(
            { display: 'flex', flexDirection: 'column', flexShrink: 0, marginTop: FACTS.marginTop - FACTS.lineGap, color: COLOURS.facts },
            content.lines.map((line) =>
              div(
                { display: 'block', marginTop: FACTS.lineGap, fontSize: FACTS.fontSize, lineHeight: FACTS.lineHeight, lineClamp: 1 },
                line,
              ),
            ),
          )
        : div(
            {
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'flex-start',
              flexShrink: 0,
              marginTop: TILES.marginTop - TILES.lineGap,
            },
            content.lines.map((line) =>
              div(
                {
                  display: 'block',
                  marginTop: TILES.lineGap,
                  padding: `${TILES.paddingY}px 24px`,
                  borderRadius: 12,
                  borderLeft: `8px solid ${COLOURS.facts}`,
                  background: COLOURS.badge,
                  color: COLOURS.badgeText,
                  fontSize: TILES.fontSize,
                  lineHeight: TILES.lineHeight,
                  fontWeight: 700,
                  lineClamp: 1,
                },
                line,
              ),
            ),
          ),
      div(
        {
          display: 'flex',
          flexShrink: 0,
          marginTop: BRAND.marginTop,
          fontSize: BRAND.fontSize,
          lineHeight: BRAND.lineHeight,
          fontWeight: 700,
        },
        content.brand,
      ),
    ],
  );
  return div(
    {
      display: 'flex',
      alignItems: 'center',
      width: SHARE_CARD_SIZE.width,
      height: SHARE_CARD_SIZE.height,
      padding: PADDING,
      background: COLOURS.background,
      fontFamily,
    },
    [...poster, column],
  );
}

/** The ellipsis that ends a line cut short: the fonts must hold it too. */
const ELLIPSIS = '\u2026';

/** Every text the card draws at each weight: what its fonts must hold. */
export function shareCardText(content: ShareCardContent): { regular: string; bold: string } {
  const facts = content.lines.join('') + ELLIPSIS;
  const headings = content.badge + content.title + content.brand + ELLIPSIS;
  return factStyle(content) === 'lines' ? { regular: facts, bold: headings } : { regular: '', bold: headings + facts };
}
