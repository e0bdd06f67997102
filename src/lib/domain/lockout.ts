/** How long password sign-in stays locked after wrong passwords in a row (policy: config/accounts.ts). */
import { PASSWORD_LOCKOUT } from '../config/accounts.ts';

export type LockoutPolicy = typeof PASSWORD_LOCKOUT;

/** The lock (ms) a run of `failures` wrong passwords earns: none for the first few, then doubling to the cap. */
export function lockoutAfter(failures: number, policy: LockoutPolicy = PASSWORD_LOCKOUT): number {
  if (failures < policy.free) return 0;
  return Math.min(policy.firstLockMs * 2 ** (failures - policy.free), policy.maxLockMs);
}

/** The failures counted so far, or 0 when the last one is old enough to forget. */
export function failuresSoFar(
  row: { failures: number; updatedAt: number } | undefined,
  now: number,
  policy: LockoutPolicy = PASSWORD_LOCKOUT,
): number {
  return row && now - row.updatedAt < policy.forgetAfterMs ? row.failures : 0;
}

/** Whole minutes until a lock ends, at least 1: what the message tells the person. */
export function minutesUntil(lockedUntil: number, now: number): number {
  return Math.max(1, Math.ceil((lockedUntil - now) / 60_000));
}
