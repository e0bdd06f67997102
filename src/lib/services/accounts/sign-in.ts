/**
 * Signing in by code (email or phone) or by password, and the calling codes the phone field offers;
 * the session a sign-in starts is sessions.ts's. A wrong password and an unknown account fail alike
 * and take the same time, and the lockout counts them alike.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { countries, loginFailures } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { failuresSoFar, lockoutAfter, minutesUntil } from '../../domain/lockout.ts';
import { DECOY_PASSWORD_HASH, verifyPassword } from '../../domain/password.ts';
import { inviterByCode } from './invitations.ts';
import type { PresentedChallenge } from '../../domain/turnstile.ts';
import { createSession, type SignedIn } from './sessions.ts';
import { type Account, accountCode, challengeCodeRequest, checkCode, targetOf, type AuthDeps } from './codes.ts';
import { accountKey, type CaptchaAttempt, guarded } from './captcha-gate.ts';
import { createUser, findUser, storedHash } from './users.ts';

/** Whether a country calling code is one we serve (the login page's list). */
export async function isKnownCallingCode(db: Db, callingCode: string): Promise<boolean> {
  const [row] = await db.select({ id: countries.id }).from(countries).where(eq(countries.callingCode, callingCode)).limit(1);
  return !!row;
}

export interface CallingCode {
  countryCode: string;
  callingCode: string;
  name: string;
}

/** The calling codes the phone field offers, in the countries' order. */
export async function callingCodes(
  db: Db,
  nameOf: (row: { nameEn: string; nameZhHant: string; nameZhHans: string }) => string,
): Promise<CallingCode[]> {
  const rows = await db.select().from(countries).orderBy(asc(countries.id));
  return rows.map((row) => ({ countryCode: row.code, callingCode: row.callingCode, name: nameOf(row) }));
}

async function assertKnownPhone(deps: AuthDeps, account: Account): Promise<void> {
  if (account.kind === 'phone' && !(await isKnownCallingCode(deps.db, account.phone.callingCode))) {
    throw new DomainError('country_code_invalid', {}, 'countryCode');
  }
}

/** Sends a sign-in code. A phone always gets one (signing in creates its account); an email only if it has an account. */
export async function sendLoginCode(deps: AuthDeps, account: Account, challenge: PresentedChallenge): Promise<void> {
  await assertKnownPhone(deps, account);
  const known = !!(await findUser(deps.db, account));
  await challengeCodeRequest(deps, account, known, challenge);
  const disclose = account.kind === 'phone' || known;
  await accountCode(deps, account, 'login', disclose, deps.t('auth.mail.noAccountBody'));
}

/**
 * Signs in with a code. A phone without an account gets one now (invited by the owner of
 * `inviteCode`, when given); an email must have registered.
 */
export async function loginWithCode(
  deps: AuthDeps,
  account: Account,
  code: string,
  captcha: CaptchaAttempt,
  inviteCode?: string,
): Promise<SignedIn> {
  await assertKnownPhone(deps, account);
  const inviter = inviteCode ? await inviterByCode(deps.db, inviteCode) : null;
  return guarded(deps, accountKey(account), captcha, async () => {
    await checkCode(deps, targetOf(account), 'login', code, true);
    let user = await findUser(deps.db, account);
    if (!user && account.kind === 'phone')
      user = (await createUser(deps.db, account, null, deps.now, inviter?.id ?? null, deps.locale)) ?? (await findUser(deps.db, account));
    // An email without an account was sent a notice, not a code: a right guess is still no sign-in.
    if (!user) throw new DomainError('code_wrong', {}, 'code');
    return createSession(deps.db, user, deps.now);
  });
}

// ---------------------------------------------------------------- password lockout

/** A 429 saying when to try again while password sign-in of the account is locked. */
async function refuseWhileLocked(deps: AuthDeps, key: string): Promise<void> {
  const [row] = await deps.db
    .select({ lockedUntil: loginFailures.lockedUntil })
    .from(loginFailures)
    .where(eq(loginFailures.accountKey, key));
  if (row?.lockedUntil && row.lockedUntil > deps.now)
    throw new DomainError('login_locked', { count: minutesUntil(row.lockedUntil, deps.now) });
}

/** Counts a wrong password for the account and locks password sign-in as the policy says. */
async function recordWrongPassword(deps: AuthDeps, key: string): Promise<void> {
  const [row] = await deps.db.select().from(loginFailures).where(eq(loginFailures.accountKey, key));
  const failures = failuresSoFar(row, deps.now) + 1;
  const lockMs = lockoutAfter(failures);
  const values = { failures, lockedUntil: lockMs > 0 ? deps.now + lockMs : null, updatedAt: deps.now };
  await deps.db
    .insert(loginFailures)
    .values({ accountKey: key, ...values })
    .onConflictDoUpdate({ target: loginFailures.accountKey, set: values });
}

/**
 * Signs in with a password. Unknown accounts, accounts without a password and wrong passwords fail
 * alike, and count alike toward the account's lockout, which no captcha lifts; a locked account is
 * refused before its password is even checked, so guessing on during the lock learns nothing.
 */
export async function loginWithPassword(deps: AuthDeps, account: Account, password: string, captcha: CaptchaAttempt): Promise<SignedIn> {
  const key = accountKey(account);
  await refuseWhileLocked(deps, key);
  return guarded(deps, key, captcha, async () => {
    const user = await findUser(deps.db, account);
    const stored = storedHash(user);
    const matches = await verifyPassword(password, stored ?? DECOY_PASSWORD_HASH);
    if (!user || !stored || !matches) {
      await recordWrongPassword(deps, key);
      throw new DomainError('credentials_wrong');
    }
    await deps.db.delete(loginFailures).where(eq(loginFailures.accountKey, key));
    return createSession(deps.db, user, deps.now);
  });
}
