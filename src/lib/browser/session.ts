/**
 * The signed-in user as the UI knows it: `userInfo` in local storage, mirrored in an atom so that
 * every island re-renders when it changes. The token itself is an HttpOnly cookie the UI never sees.
 */
import { persistentAtom } from '@nanostores/persistent';
import Cookies from 'js-cookie';
import { USER_ID_COOKIE } from '../config/request.ts';

export interface UserInfo {
  user: { userId: number; nickname: string };
}

/** The stored user as JSON under `userInfo`; none (the key removed) when signed out. */
export const $user = persistentAtom<UserInfo | undefined>('userInfo', undefined, {
  encode: JSON.stringify,
  decode: (stored) => {
    try {
      return JSON.parse(stored) as UserInfo;
    } catch {
      return undefined;
    }
  },
});

/** Records the user after a login. */
export function setUser(info: UserInfo): void {
  $user.set(info);
}

/**
 * The session cookies are the truth: a stored user without the `pnid` cookie (the session ended
 * elsewhere, or the server cleared it) is forgotten.
 */
export function dropStaleUser(): void {
  if ($user.get() && !Cookies.get(USER_ID_COOKIE)) $user.set(undefined);
}

/** Keeps the stored user in step with a nickname changed in account settings. */
export function renameUser(nickname: string): void {
  const current = $user.get();
  if (current) setUser({ user: { ...current.user, nickname } });
}

/** Forgets the user: stored info and every cookie scripts can reach (the server clears the token). */
export function clearSession(): void {
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name, { path: '/' });
  $user.set(undefined);
}
