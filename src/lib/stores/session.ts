/**
 * The signed-in user as the UI knows it: `userInfo` in local storage, mirrored in an atom so that
 * every island re-renders when it changes. The token itself is an HttpOnly cookie the UI never sees.
 */
import Cookies from 'js-cookie';
import { atom } from 'nanostores';

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

/** Forgets the user: stored info and every cookie scripts can reach (the server clears the token). */
export function clearSession(): void {
  if (typeof localStorage !== 'undefined') localStorage.removeItem(STORAGE_KEY);
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name, { path: '/' });
  $user.set(null);
}
