/**
 * "Hide for today" (the home page's app banner and pop-up boxes, SPEC.md section 2): a cookie that
 * lasts until the end of the user's day. It imports nothing shared, so the home page's script carries
 * it inline and sets the cookie the moment a box is closed: a tap followed at once by a reload or a
 * link must not bring the box back.
 */
import { endOfLocalDay } from '../domain/local-day.ts';

/** Hides something (the app banner, the pop-up boxes) until the end of the user's day, by cookie. */
export function hideForToday(cookie: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: js-cookie sits in a chunk the islands share; importing it would cost the home page a request before its banner paints.
  document.cookie = `${cookie}=1; Path=/; Expires=${endOfLocalDay(new Date()).toUTCString()}; SameSite=Lax`;
}
