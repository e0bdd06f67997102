/** The user rows behind accounts: found by email or phone, created with their new-user gift, and their stored password hash. */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { users } from '../../db/schema.ts';
import { hashPassword, randomString } from '../../domain/password.ts';
import type { Locale } from '../../i18n/locales.ts';
import { welcomeNewUser } from './invitations.ts';
import type { Account } from './codes.ts';

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const INVITE_CODE_LENGTH = 8;
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
    const [created] = await db
      .insert(users)
      .values({
        email: account.kind === 'email' ? account.email : null,
        phoneCountryCode: account.kind === 'phone' ? account.phone.callingCode : null,
        phone: account.kind === 'phone' ? account.phone.number : null,
        languageCode: locale,
        // A neutral nickname: neither the email nor the phone shows wherever nicknames are shown.
        nickname: `User-${randomString(6, INVITE_ALPHABET)}`,
        passwordHash: hashed?.hash ?? null,
        passwordSalt: hashed?.salt ?? null,
        passwordIterations: hashed?.iterations ?? null,
        inviteCode: randomString(INVITE_CODE_LENGTH, INVITE_ALPHABET),
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
