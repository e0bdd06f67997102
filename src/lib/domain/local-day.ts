/** The end of the local day of `now`: when a "hide for today" choice expires (cookies hideAppInfo, hidePopBox). */
export function endOfLocalDay(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate(), 23, 59, 59, 999);
}
