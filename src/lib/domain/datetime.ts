/** Dates as buyers read them: in the venue's time zone, in the page's locale. */
import { dateFormat, FormattedMemo } from './intl-cache.ts';

/** `2026/12/05` or `2026/12/05 - 2026/12/07` (same-day sessions collapse to one date). */
export function formatDateRange(startMs: number, endMs: number, locale: string, timeZone: string): string {
  return dateRanges.get(`${locale}|${timeZone}|${startMs}|${endMs}`, () => {
    const format = dateFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone });
    const start = format.format(startMs);
    const end = format.format(endMs);
    return start === end ? start : `${start} - ${end}`;
  });
}

/** Each card formats its activity's dates, the same ones on every render of a list. */
const dateRanges = new FormattedMemo<string>(10_000);
