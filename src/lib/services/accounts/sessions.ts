/**
 * Sign-in sessions: a random token in an HttpOnly cookie whose SHA-256 is stored with its expiry,
 * started by a sign-in (sign-in.ts, registration.ts), confirmed by every signed-in request, ended by signing out.
 */
import { and, eq, gt, lt } from 'drizzle-orm';
import { SESSION_TTL_DAYS } from '../../config/accounts.ts';
import type { Db } from '../../data/client.ts';
import { read, readOne, type Read } from '../../data/read-together.ts';
import { authSessions, users } from '../../db/schema.ts';
import { randomToken, sha256Hex } from '../../domain/password.ts';
import type { SessionCookies } from '../../domain/visitor.ts';
import { batch } from '../../data/batch.ts';

const SESSION_TTL_MS = SESSION_TTL_DAYS * 24 * 3600 * 1000;

/** The signed-in user as the UI stores it (`userInfo.user`). */
export interface SessionUser {
  userId: number;
  nickname: string;
}

export interface SignedIn {
  user: SessionUser;
  token: string;
  expiresAt: number;
}

/** Starts a session: a random token whose SHA-256 is stored with its expiry. Expired sessions of the user go. */
export async function createSession(db: Db, user: { id: number; nickname: string }, now: number): Promise<SignedIn> {
  const token = randomToken();
  const expiresAt = now + SESSION_TTL_MS;
  await batch(db, {
    expired: db.delete(authSessions).where(and(eq(authSessions.userId, user.id), lt(authSessions.expiresAt, now))),
    created: db.insert(authSessions).values({ userId: user.id, tokenHash: await sha256Hex(token), expiresAt, createdAt: now }),
  });
  return { user: { userId: user.id, nickname: user.nickname }, token, expiresAt };
}

/** The live session of a token's hash, with its user, as a read that can travel in a service's batch (services/accounts/signed-in.ts). */
export function sessionUserRead(db: Db, tokenHash: string, now: number): Read<SessionUser | null> {
  return read(
    {
      session: db
        .select({ userId: users.id, nickname: users.nickname })
        .from(authSessions)
        .innerJoin(users, eq(users.id, authSessions.userId))
        .where(and(eq(authSessions.tokenHash, tokenHash), gt(authSessions.expiresAt, now)))
        .limit(1),
    },
    ({ session: [row] }) => row ?? null,
  );
}

/** Whether a session cookie's value can be a token at all (anything else is no session, without a read). */
export function plausibleToken(token: string | undefined): token is string {
  return token !== undefined && token !== '' && token.length <= 128;
}

/** The user a session token belongs to, or null for a missing, forged or expired token. */
export async function sessionUser(db: Db, token: string | undefined, now: number): Promise<SessionUser | null> {
  if (!plausibleToken(token)) return null;
  return readOne(db, sessionUserRead(db, await sha256Hex(token), now));
}

/** The user of the session cookies: the token must be live and belong to the user id cookie. */
export async function userOfCookies(db: Db, cookies: SessionCookies | null, now: number): Promise<SessionUser | null> {
  if (!cookies) return null;
  const user = await sessionUser(db, cookies.token, now);
  return user && String(user.userId) === cookies.userId ? user : null;
}

/** Ends the session of a token (nothing happens for an unknown one). */
export async function endSession(db: Db, token: string | undefined): Promise<void> {
  if (!plausibleToken(token)) return;
  await db.delete(authSessions).where(eq(authSessions.tokenHash, await sha256Hex(token)));
}
