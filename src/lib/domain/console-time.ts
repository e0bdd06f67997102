/**
 * Moments as the staff console shows and takes them: in UTC (the console's one clock, said on every
 * label: staff in different cities read the same time), and a rate's age in words of the page's
 * language ("3 hours ago", "3 小時前").
 */
import { dateFormat } from './intl-cache.ts';

/** `29 Nov 2026, 16:30 UTC` in the locale's own way. */
export function consoleMoment(ms: number, locale: string): string {
  return `${dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(ms)} UTC`;
}

/** A moment as a `datetime-local` input's value, in UTC: `2026-11-29T16:30`. */
export function utcInputValue(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16);
}

/** A `datetime-local` input's value read in UTC; null for anything else. */
export function utcInputMoment(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  const ms = Date.parse(`${value}:00Z`);
  return Number.isNaN(ms) ? null : ms;
}

const AGE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** How long ago `ms` was, in the largest whole unit (days, hours, minutes; "now" under a minute). */
export function ageText(ms: number, now: number, locale: string): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const elapsed = Math.max(0, now - ms);
  for (const [unit, size] of AGE_UNITS) {
    if (elapsed >= size) return format.format(-Math.floor(elapsed / size), unit);
  }
  return format.format(0, 'minute');
}
