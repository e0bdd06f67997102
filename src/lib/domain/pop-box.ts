/**
 * A pop-up box's content is a JSON string (SPEC.md section 3). Ours holds a title and a body per
 * catalogue script and a site-relative link: `{ "title": { "en": .., "zh-Hant": .., "zh-Hans": .. },
 * "body": { .. }, "link": "/couponList" }`. Money in a text is written as a placeholder in minor
 * units of the box's currency — `{amount:10000}` for an amount off, `{minimum:50000}` for a minimum
 * spend — so each reader sees it in their own currency.
 */
import { catalogueOf, type Locale } from '../i18n/locales.ts';

export interface PopBoxMessage {
  title: string;
  body: string;
  /** A path on this site, or null when the box links nowhere. */
  link: string | null;
}

/** Writes minor units of the box's currency for the reader: an amount off, or a minimum spend. */
export type BoxMoney = (minorUnits: number, kind: 'amount' | 'minimum') => string;

const MONEY_PLACEHOLDER = /\{(amount|minimum):(\d{1,15})\}/g;

function textIn(value: unknown, locale: Locale, money: BoxMoney): string | null {
  if (!value || typeof value !== 'object') return null;
  const texts = value as Record<string, unknown>;
  const text = texts[catalogueOf(locale)] ?? texts.en;
  if (typeof text !== 'string' || !text.trim()) return null;
  return text.trim().replace(MONEY_PLACEHOLDER, (_, kind: 'amount' | 'minimum', units: string) => money(Number(units), kind));
}

/** Only same-site paths: never another origin, a protocol-relative URL or a script URL. */
function sitePath(value: unknown): string | null {
  return typeof value === 'string' && /^\/(?![/\\])[^\s]*$/.test(value) ? value : null;
}

/** The box's message in a locale (English when the locale's text is missing), or null when unusable. */
export function popBoxMessage(content: string, locale: Locale, money: BoxMoney): PopBoxMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const record = parsed as Record<string, unknown>;
  const title = textIn(record.title, locale, money);
  const body = textIn(record.body, locale, money);
  if (!title || !body) return null;
  return { title, body, link: sitePath(record.link) };
}
