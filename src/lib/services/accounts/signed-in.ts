/**
 * Sign-in checked inside a service's own first read, for the hot checkout requests: the request
 * names the user its id cookie claims, the token's session is read in the same D1 batch as the
 * service's rows, and those rows are used only once the session confirms the claim. One round trip
 * instead of a session read followed by the service's read.
 */
import type { Db } from '../../data/client.ts';
import { type Answers, known, type Read, readOne, readTogether } from '../../data/read-together.ts';
import { DomainError } from '../../domain/errors.ts';
import { sha256Hex } from '../../domain/password.ts';
import { plausibleToken, sessionUserRead } from './sessions.ts';
import type { ClaimedUserScope, RequestScope, UserScope } from '../platform/scope.ts';

const USER_ID = /^[1-9]\d{0,15}$/;

/**
 * The claim of a request's session cookies: the id cookie's user with the token's session read to
 * confirm it, or, without a usable id cookie, the session read now. Null (no session) for a missing
 * or impossible token, or a token with no live session. An `exact` claim (a page's, whose middleware
 * wants both cookies to agree) is null without a usable id cookie, and no other user's session confirms it.
 */
export async function claimedSignIn(
  db: Db,
  token: string | undefined,
  userIdCookie: string | undefined,
  now: number,
  exact = false,
): Promise<Pick<ClaimedUserScope, 'claimedUserId' | 'session' | 'exact'> | null> {
  if (!plausibleToken(token)) return null;
  const usableId = userIdCookie !== undefined && USER_ID.test(userIdCookie);
  if (exact && !usableId) return null;
  const session = sessionUserRead(db, await sha256Hex(token), now);
  if (usableId) return { claimedUserId: Number(userIdCookie), session, exact };
  const user = await readOne(db, session);
  return user ? { claimedUserId: user.userId, session: known(user) } : null;
}

/** A scope whose sign-in is already checked (a page's middleware read the session), for a service that takes a claim. */
export function confirmedClaim(scope: UserScope): ClaimedUserScope {
  const { userId, ...request } = scope;
  return { ...request, claimedUserId: userId, session: known({ userId }) };
}

const SESSION = 'signedInSession';

/**
 * Reads `reads` (made for the claimed user) in one batch with the session, and answers them with the
 * signed-in scope once the session confirms the claim. No live session is a 401; a session of another
 * user than the cookie claims reads again, for that user (one more round trip, as the API always
 * went by the token alone), or is a 401 too for an `exact` claim (a page's). The reads may include
 * writes that are anyone's to make (the lazy expiry of a listing's overdue holds): they run even
 * when the sign-in then fails.
 */
export async function readSignedIn<R extends Record<string, Read<unknown>>>(
  claimed: ClaimedUserScope,
  reads: (scope: UserScope) => R,
): Promise<{ scope: UserScope; rows: Answers<R> }> {
  const { claimedUserId, session, exact: _exact, ...request } = claimed;
  const forUser = (userId: number): UserScope => ({ ...(request as RequestScope), userId });
  const scope = forUser(claimedUserId);
  const answers = await readTogether(claimed.db, { ...reads(scope), [SESSION]: session });
  const user = answers[SESSION] as { userId: number } | null;
  if (user?.userId === claimedUserId) return { scope, rows: answers as Answers<R> };
  if (!user || claimed.exact) throw new DomainError('unauthorized');
  const verified = forUser(user.userId);
  return { scope: verified, rows: await readTogether(claimed.db, reads(verified)) };
}

/** The claim confirmed with nothing else to read (one round trip), or `unauthorized`. */
export async function confirmSignIn(claimed: ClaimedUserScope): Promise<UserScope> {
  return (await readSignedIn(claimed, () => ({}))).scope;
}
