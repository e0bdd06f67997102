/**
 * The signed-in user as the UI knows it: `userInfo` in local storage, mirrored in an atom so that
 * every island re-renders when it changes. The token itself is an HttpOnly cookie the UI never sees.
 */
import Cookies from 'js-cookie';
import { atom } from 'nanostores';
import { USER_ID_COOKIE } from '../config.ts';

export interface UserInfo {
  user: { userId: number; nickname: string };
}

const STORAGE_KEY = 'userInfo';

function readStoredUser(): UserInfo | null {
  if (typeof localStorage === 'undefined') return null;
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as UserInfo) : null;
  } catch {
    return null;
  }
}

export const $user = atom<UserInfo | null>(readStoredUser());

/** Records the user after a login. */
export function setUser(info: UserInfo): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(info));
  $user.set(info);
}

/**
 * The session cookies are the truth: a stored user without the `pnid` cookie (the session ended
 * elsewhere, or the server cleared it) is forgotten.
 */
export function dropStaleUser(): void {
  if ($user.get() && !Cookies.get(USER_ID_COOKIE)) {
    localStorage.removeItem(STORAGE_KEY);
    $user.set(null);
  }
}

/** Keeps the stored user in step with a nickname changed in account settings. */
export function renameUser(nickname: string): void {
  const current = $user.get();
  if (current) setUser({ user: { ...current.user, nickname } });
}

/** Forgets the user: stored info and every cookie scripts can reach (the server clears the token). */
export function clearSession(): void {
  if (typeof localStorage !== 'undefined') localStorage.removeItem(STORAGE_KEY);
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name, { path: '/' });
  $user.set(null);
}
