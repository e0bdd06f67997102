/** How the info pages write the spec's legal facts, and how their catalogue texts become blocks. */
import { LIABILITY_CAP_HKD_MINOR, TERMS_LAST_UPDATED } from '../config/company.ts';
import { formatMoney } from './money.ts';

/** The liability cap as the terms state it, with its cents: HK$500.00. */
export function liabilityCap(locale: string): string {
  return formatMoney({ amount: LIABILITY_CAP_HKD_MINOR, currency: 'HKD' }, locale, 2, { keepZeroDecimals: true });
}

/** The date the terms and the privacy policy last changed, written out in the locale: July 16, 2024. */
export function termsLastUpdated(locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${TERMS_LAST_UPDATED}T00:00:00Z`));
}

export type Block = { kind: 'paragraph'; text: string } | { kind: 'list'; items: string[] };

/**
 * Splits a catalogue text into blocks: paragraphs are separated by a blank line, and a paragraph
 * whose every line starts with "- " is a bulleted list. The text stays text (never parsed as HTML).
 */
export function blocksOf(text: string): Block[] {
  return text
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part): Block => {
      const lines = part.split('\n').map((line) => line.trim());
      return lines.every((line) => line.startsWith('- '))
        ? { kind: 'list', items: lines.map((line) => line.slice(2).trim()) }
        : { kind: 'paragraph', text: lines.join(' ') };
    });
}
