/** The user rows behind accounts: found by email or phone, created with their new-user gift, and their stored password hash. */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { users } from '../../db/schema.ts';
import { newAccountNames } from '../../domain/invitations.ts';
import { hashPassword } from '../../domain/password.ts';
import type { Locale } from '../../i18n/locales.ts';
import { welcomeNewUser } from './invitations.ts';
import type { Account } from './codes.ts';

const CREATE_TRIES = 3;

export type UserRow = typeof users.$inferSelect;

export async function findUser(db: Db, account: Account): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(
      account.kind === 'email'
        ? eq(users.email, account.email)
        : and(eq(users.phoneCountryCode, account.phone.callingCode), eq(users.phone, account.phone.number)),
    )
    .limit(1);
  return row;
}

/**
 * Creates the account with its new-user gift (and the invitation, when `inviterId` is given), or
 * returns undefined when the email or phone was taken meanwhile.
 */
export async function createUser(
  db: Db,
  account: Account,
  password: string | null,
  now: number,
  inviterId: number | null,
  locale: Locale,
): Promise<UserRow | undefined> {
  const hashed = password === null ? null : await hashPassword(password);
  for (let tries = 0; tries < CREATE_TRIES; tries++) {
    const { nickname, inviteCode } = newAccountNames();
    const [created] = await db
      .insert(users)
      .values({
        email: account.kind === 'email' ? account.email : null,
        phoneCountryCode: account.kind === 'phone' ? account.phone.callingCode : null,
        phone: account.kind === 'phone' ? account.phone.number : null,
        languageCode: locale,
        nickname,
        passwordHash: hashed?.hash ?? null,
        passwordSalt: hashed?.salt ?? null,
        passwordIterations: hashed?.iterations ?? null,
        inviteCode,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (created) {
      await welcomeNewUser(db, created.id, inviterId, now);
      return created;
    }
    // Either the account appeared meanwhile, or the random invite code collided: then try again.
    if (await findUser(db, account)) return undefined;
  }
  throw new Error('Could not draw a free invite code');
}

export function storedHash(row: UserRow | undefined) {
  if (!row?.passwordHash || !row.passwordSalt || !row.passwordIterations) return null;
  return { hash: row.passwordHash, salt: row.passwordSalt, iterations: row.passwordIterations };
}
