/** The account settings a user sees and the nickname they may change. */
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import type { UserScope } from '../platform/scope.ts';
import { storedHash } from './users.ts';

export interface Profile {
  userId: number;
  nickname: string;
  email: string | null;
  /** "+852 91234567", or null. */
  phone: string | null;
  hasPassword: boolean;
}

/** The account settings of a user. */
export async function profileOf(scope: UserScope): Promise<Profile> {
  const { db, userId } = scope;
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw new DomainError('unauthorized');
  return {
    userId: row.id,
    nickname: row.nickname,
    email: row.email,
    phone: row.phone && row.phoneCountryCode ? `${row.phoneCountryCode} ${row.phone}` : null,
    hasPassword: storedHash(row) !== null,
  };
}

/** Renames the user (the nickname is already trimmed and checked). */
export async function updateNickname(scope: UserScope, nickname: string): Promise<Profile> {
  await scope.db.update(users).set({ nickname }).where(eq(users.id, scope.userId));
  return profileOf(scope);
}
