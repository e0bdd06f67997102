/** Resetting a forgotten password by email code, and changing the signed-in user's password; both end other sessions. */
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { authSessions, users } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { hashPassword, sha256Hex, verifyPassword } from '../../domain/password.ts';
import type { SessionUser } from './sessions.ts';
import { type Account, accountCode, checkCode, targetOf, type AuthDeps } from './codes.ts';
import { accountKey, type CaptchaAttempt, guarded } from './captcha-gate.ts';
import { findUser, storedHash } from './users.ts';
import { batch } from '../../data/batch.ts';

/** Sends a password-reset code to an email (one without an account gets a notice instead). */
export async function sendResetCode(deps: AuthDeps, email: string): Promise<void> {
  const account: Account = { kind: 'email', email };
  const exists = !!(await findUser(deps.db, account));
  await accountCode(deps, account, 'reset_password', exists, deps.t('auth.mail.noAccountBody'));
}

/** Checks a reset code before the new password is asked for; the code stays usable. */
export async function verifyResetCode(deps: AuthDeps, email: string, code: string, captcha: CaptchaAttempt): Promise<void> {
  const account: Account = { kind: 'email', email };
  await guarded(deps, accountKey(account), captcha, () => checkCode(deps, targetOf(account), 'reset_password', code, false));
}

/** The update that stores a new password's hash for a user, to run in a batch with the sessions it ends. */
function passwordUpdate(db: Db, userId: number, hashed: Awaited<ReturnType<typeof hashPassword>>) {
  return db
    .update(users)
    .set({ passwordHash: hashed.hash, passwordSalt: hashed.salt, passwordIterations: hashed.iterations })
    .where(eq(users.id, userId));
}

/** Sets a new password with a reset code, and ends every session of the account. */
export async function resetPassword(deps: AuthDeps, email: string, code: string, password: string, captcha: CaptchaAttempt): Promise<void> {
  const account: Account = { kind: 'email', email };
  await guarded(deps, accountKey(account), captcha, async () => {
    await checkCode(deps, targetOf(account), 'reset_password', code, true);
    const user = await findUser(deps.db, account);
    if (!user) throw new DomainError('code_wrong', {}, 'code');
    const hashed = await hashPassword(password);
    await batch(deps.db, {
      password: passwordUpdate(deps.db, user.id, hashed),
      signedOut: deps.db.delete(authSessions).where(eq(authSessions.userId, user.id)),
    });
  });
}

/**
 * Changes the signed-in user's password: the old one is required when there is one (accounts made
 * by phone code start without). Every other session of the account ends; this one stays.
 */
export async function changePassword(
  deps: AuthDeps,
  user: SessionUser,
  currentToken: string,
  oldPassword: string | undefined,
  newPassword: string,
  captcha: CaptchaAttempt,
): Promise<void> {
  const [row] = await deps.db.select().from(users).where(eq(users.id, user.userId)).limit(1);
  if (!row) throw new DomainError('unauthorized');
  const stored = storedHash(row);
  if (stored && !oldPassword) throw new DomainError('password_required', {}, 'oldPassword');
  await guarded(deps, `user:${row.id}`, captcha, async () => {
    if (stored && !(await verifyPassword(oldPassword ?? '', stored))) throw new DomainError('old_password_wrong', {}, 'oldPassword');
    const hashed = await hashPassword(newPassword);
    await batch(deps.db, {
      password: passwordUpdate(deps.db, row.id, hashed),
      signedOut: deps.db
        .delete(authSessions)
        .where(and(eq(authSessions.userId, row.id), ne(authSessions.tokenHash, await sha256Hex(currentToken)))),
    });
  });
}
