/**
 * "Hide for today" (the home page's app banner and pop-up boxes, SPEC.md section 2): a cookie that
 * lasts until the end of the user's day. Its own module, so that the home page's first script loads
 * no more than a cookie library.
 */
import Cookies from 'js-cookie';
import { endOfLocalDay } from '../domain/preferences.ts';

/** Hides something (the app banner, the pop-up boxes) until the end of the user's day, by cookie. */
export function hideForToday(cookie: string): void {
  Cookies.set(cookie, '1', { path: '/', expires: endOfLocalDay(new Date()), sameSite: 'Lax' });
}
