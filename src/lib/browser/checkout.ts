/**
 * The ticket taker of the order being confirmed (on-site and self-pickup delivery): name and phone.
 * Kept in session storage so they survive a trip to the address or attendee picker without being
 * put in the URL; storage can be unavailable (private mode), the atom then holds them for the page.
 */
import { atom } from 'nanostores';

export interface Taker {
  name: string;
  /** "+852" */
  countryCode: string;
  phone: string;
}

export const TAKER_STORAGE_KEY = 'checkoutTaker';
export const DEFAULT_CALLING_CODE = '+852';

export const $taker = atom<Taker>({ name: '', countryCode: DEFAULT_CALLING_CODE, phone: '' });

function isTaker(value: unknown): value is Taker {
  const record = value as Record<string, unknown> | null;
  return !!record && ['name', 'countryCode', 'phone'].every((key) => typeof record[key] === 'string');
}

/** Takes the taker stored earlier in this tab's session, if any. */
export function loadTaker(): void {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(TAKER_STORAGE_KEY) ?? 'null');
    if (isTaker(stored)) $taker.set({ name: stored.name, countryCode: stored.countryCode, phone: stored.phone });
  } catch {
    // Nothing usable stored: keep the blank taker.
  }
}

/** Changes one field of the taker and remembers it for this tab's session. */
export function updateTaker(field: keyof Taker, value: string): void {
  const taker = { ...$taker.get(), [field]: value };
  $taker.set(taker);
  try {
    sessionStorage.setItem(TAKER_STORAGE_KEY, JSON.stringify(taker));
  } catch {
    // Storage refused: the atom still holds the taker for this page.
  }
}
