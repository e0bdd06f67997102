/** A session's start as buyers pick it: date, weekday and 24-hour time in the venue's time zone. */
import { dateFormat } from './intl-cache.ts';

/** `Sat, 12/05/2026, 19:30` in English, `2026/12/05周六 19:30` in Simplified Chinese. */
export function formatSessionTime(startsAt: number, locale: string, timeZone: string): string {
  return dateFormat(locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(startsAt);
}
