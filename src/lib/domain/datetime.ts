/** Dates as buyers read them: in the venue's time zone, in the page's locale. */
import { dateFormat } from './intl-cache.ts';

/** `2026/12/05` or `2026/12/05 - 2026/12/07` (same-day sessions collapse to one date). */
export function formatDateRange(startMs: number, endMs: number, locale: string, timeZone: string): string {
  const format = dateFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone });
  const start = format.format(startMs);
  const end = format.format(endMs);
  return start === end ? start : `${start} - ${end}`;
}
