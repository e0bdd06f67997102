/**
 * Accounts: verification codes, sign-in by code or password, email registration, password reset
 * and change, and the profile; the session a sign-in starts is sessions.ts's.
 *
 * Nothing here tells one person whether another has an account: every code request answers the
 * same and stores a code either way (the mail says "no account" instead of carrying it), a wrong
 * password and an unknown account fail alike and take the same time, and failure counters and
 * captcha thresholds do not depend on whether the account exists.
 */
import { and, asc, desc, eq, isNull, lt, ne, sql } from 'drizzle-orm';
import {
  CAPTCHA_AFTER_FAILURES,
  CODE_MAX_ATTEMPTS,
  CODE_SEND_LIMITS,
  CODE_TTL_MS,
  EMAIL_CODE_LENGTH,
  TURNSTILE_ACTION,
} from '../../config/accounts.ts';
import type { Db } from '../../data/client.ts';
import { authSessions, countries, loginFailures, users, verificationCodes } from '../../db/schema.ts';
import { DomainError, type ErrorCode } from '../../domain/errors.ts';
import { failuresSoFar, lockoutAfter, minutesUntil } from '../../domain/lockout.ts';
import { mailboxOf } from '../../domain/mailbox.ts';
import type { MessageChannel } from '../../domain/messages.ts';
import { DECOY_PASSWORD_HASH, constantTimeEqual, hashPassword, randomString, sha256Hex, verifyPassword } from '../../domain/password.ts';
import type { PhoneNumber } from '../../domain/validation.ts';
import type { Translate } from '../../i18n/index.ts';
import type { Locale } from '../../i18n/locales.ts';
import { solveChallenge } from '../protection/captcha.ts';
import { inviterByCode, welcomeNewUser } from './invitations.ts';
import { DeliveryError, type ProviderConfig, providerFor } from '../messages/providers/index.ts';
import { countIn, hitAll, resetCounter, type Window } from '../protection/rate-limit.ts';
import type { PresentedChallenge } from '../../domain/turnstile.ts';
import { requireSolvedChallenge, type TurnstileEnv } from '../protection/turnstile.ts';
import type { UserScope } from '../platform/scope.ts';
import { createSession, type SessionUser, type SignedIn } from './sessions.ts';
import { batch } from '../../data/batch.ts';

/** What every account operation needs: the database, delivery, the request's language, who asks, and when. */
export interface AuthDeps {
  db: Db;
  /** Which provider delivers codes (message-providers/index.ts). */
  messaging: ProviderConfig;
  t: Translate;
  /** The language the request speaks: a new account keeps it, so messages to it speak it too. */
  locale: Locale;
  /** Who the client is (domain/client-key.ts): rate limits and captchas are per client as well as per account. */
  clientKey: string;
  now: number;
  /** Turnstile's settings: a new phone's first code and every email's need a solved challenge (turnstile.ts). */
  turnstile: TurnstileEnv;
}

/**
 * Refuses a code without a solved challenge where a bot farm asks for codes by the thousand: for a
 * phone with no account yet (signing in creates it), and for every email, whose answers never tell
 * whether it has an account, so neither may the challenge. A known phone's code needs none.
 */
async function challengeCodeRequest(deps: AuthDeps, account: Account, known: boolean, challenge: PresentedChallenge): Promise<void> {
  if (account.kind === 'phone' && known) return;
  await requireSolvedChallenge(deps.turnstile, TURNSTILE_ACTION.loginCode, challenge);
}

export type Account = { kind: 'email'; email: string } | { kind: 'phone'; phone: PhoneNumber };
/** What an account's own codes are for. */
type AccountCodePurpose = 'login' | 'register' | 'reset_password';
/** What a code is for: an account's, or confirming the number of an order's pickup taker. */
export type CodePurpose = AccountCodePurpose | 'taker_phone';

/** A captcha answer sent with a sign-in, and the challenge (from its cookie) it answers. */
export interface CaptchaAttempt {
  id: string | undefined;
  answer: string | undefined;
}

const DAY_MS = 24 * 3600 * 1000;
const DIGITS = '0123456789';
const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const INVITE_CODE_LENGTH = 8;
const CREATE_TRIES = 3;
/** Failures that count toward the captcha: wrong guesses, not expired codes or bad input. */
const GUESS_FAILURES = new Set<ErrorCode>(['credentials_wrong', 'code_wrong', 'code_attempts_exceeded', 'old_password_wrong']);

/** The address a code goes to: the email, or the phone as "+852 91234567". */
export function targetOf(account: Account): string {
  return account.kind === 'email' ? account.email : `${account.phone.callingCode} ${account.phone.number}`;
}

function channelOf(account: Account): MessageChannel {
  return account.kind === 'email' ? 'email' : 'sms';
}

function accountKey(account: Account): string {
  return `${account.kind}:${targetOf(account)}`;
}

// ---------------------------------------------------------------- verification codes

const codeHash = (purpose: CodePurpose, target: string, code: string) => sha256Hex(`code:${purpose}:${target}:${code}`);

/** Whom the per-target send limits count: an email's mailbox, so its plus and dot spellings share one count. */
function limitedTargetOf(account: Account): string {
  return account.kind === 'email' ? mailboxOf(account.email) : targetOf(account);
}

async function enforceSendLimits(deps: AuthDeps, target: string): Promise<void> {
  const { targetPerMinute, targetPerDay, clientPerMinute, clientPerDay } = CODE_SEND_LIMITS;
  const rules = [
    { ...targetPerMinute, key: `send:target:minute:${target}`, code: 'code_too_frequent' },
    { ...targetPerDay, key: `send:target:day:${target}`, code: 'code_daily_limit' },
    { ...clientPerMinute, key: `send:client:minute:${deps.clientKey}`, code: 'code_too_frequent' },
    { ...clientPerDay, key: `send:client:day:${deps.clientKey}`, code: 'code_daily_limit' },
  ] as const;
  const hits = await hitAll(deps.db, rules, deps.now);
  const refused = rules.findIndex((rule, index) => hits[index].count > rule.limit);
  if (refused >= 0) {
    const seconds = Math.max(1, Math.ceil((hits[refused].resetsAt - deps.now) / 1000));
    throw new DomainError(rules[refused].code, { seconds });
  }
}

/**
 * Where a code goes and what it proves: the address it is sent to, the key it is stored and checked
 * under (the address itself for an account; an order's taker number is keyed by its order too), and
 * whom the send limits count.
 */
export interface CodeAddress {
  channel: MessageChannel;
  to: string;
  key: string;
  limited: string;
}

function codeAddressOf(account: Account): CodeAddress {
  const target = targetOf(account);
  return { channel: channelOf(account), to: target, key: target, limited: limitedTargetOf(account) };
}

/** The words of a code's message, given the code and the minutes it lives. */
export type CodeMessage = (code: string, minutes: number) => { subject: string; text: string };

/**
 * Stores a new code for an address and purpose (the older ones stop working) and sends it with the
 * words `message` gives it. A message may leave the code out (an email with no account is told why
 * no code came): the code is stored all the same, so the answer and every later check look alike.
 */
export async function issueCode(deps: AuthDeps, address: CodeAddress, purpose: CodePurpose, message: CodeMessage): Promise<void> {
  const { key, channel } = address;
  await enforceSendLimits(deps, address.limited);
  const code = randomString(EMAIL_CODE_LENGTH, DIGITS);
  await batch(deps.db, {
    superseded: deps.db
      .update(verificationCodes)
      .set({ usedAt: deps.now })
      .where(and(eq(verificationCodes.target, key), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.usedAt))),
    // Codes of the address older than a day serve nothing (the daily limit is counted elsewhere).
    stale: deps.db
      .delete(verificationCodes)
      .where(and(eq(verificationCodes.target, key), lt(verificationCodes.createdAt, deps.now - DAY_MS))),
    issued: deps.db.insert(verificationCodes).values({
      channel,
      target: key,
      purpose,
      codeHash: await codeHash(purpose, key, code),
      expiresAt: deps.now + CODE_TTL_MS,
      createdAt: deps.now,
    }),
  });
  const { subject, text } = message(code, CODE_TTL_MS / 60_000);
  try {
    // Sent within the request, not through the message queue: the person is waiting for the code.
    await providerFor(channel, deps.messaging, deps.db).deliver({
      id: crypto.randomUUID(),
      channel,
      to: address.to,
      subject,
      text,
      html: null,
    });
  } catch (error) {
    if (!(error instanceof DeliveryError)) throw error;
    // A code that cannot be delivered must never look sent.
    console.error(JSON.stringify({ event: 'code_not_delivered', channel, permanent: error.permanent, error: error.message }));
    throw new DomainError('messaging_unavailable');
  }
}

/** An account's code for a purpose: the code itself, or (`disclose` false) only the notice why none came. */
function accountCode(deps: AuthDeps, account: Account, purpose: AccountCodePurpose, disclose: boolean, notice: string): Promise<void> {
  const bodyKey = ({ login: 'auth.mail.loginBody', register: 'auth.mail.registerBody', reset_password: 'auth.mail.resetBody' } as const)[
    purpose
  ];
  return issueCode(deps, codeAddressOf(account), purpose, (code, minutes) => ({
    subject: deps.t(disclose ? 'auth.mail.codeSubject' : 'auth.mail.noticeSubject'),
    text: disclose ? deps.t(bodyKey, { code, minutes }) : notice,
  }));
}

/**
 * Checks a code against the latest one stored under a key and purpose. Each check uses one of
 * CODE_MAX_ATTEMPTS attempts (a guarded update, so parallel guesses cannot exceed it); with
 * `consume` a right code is also used up, once.
 */
export async function checkCode(deps: AuthDeps, key: string, purpose: CodePurpose, code: string, consume: boolean): Promise<void> {
  const { db, now } = deps;
  const [latest] = await db
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.target, key), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.usedAt)))
    .orderBy(desc(verificationCodes.id))
    .limit(1);
  if (!latest) throw new DomainError('code_wrong', {}, 'code');
  if (latest.expiresAt <= now) throw new DomainError('code_expired', {}, 'code');
  const [counted] = await db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(and(eq(verificationCodes.id, latest.id), isNull(verificationCodes.usedAt), lt(verificationCodes.attempts, CODE_MAX_ATTEMPTS)))
    .returning({ attempts: verificationCodes.attempts });
  if (!counted) throw new DomainError('code_attempts_exceeded', {}, 'code');
  if (!constantTimeEqual(await codeHash(purpose, key, code), latest.codeHash)) {
    throw new DomainError(counted.attempts >= CODE_MAX_ATTEMPTS ? 'code_attempts_exceeded' : 'code_wrong', {}, 'code');
  }
  if (!consume) return;
  const [used] = await db
    .update(verificationCodes)
    .set({ usedAt: now })
    .where(and(eq(verificationCodes.id, latest.id), isNull(verificationCodes.usedAt)))
    .returning({ id: verificationCodes.id });
  if (!used) throw new DomainError('code_wrong', {}, 'code');
}

// ---------------------------------------------------------------- failed sign-ins and the captcha

function failureWindows(deps: AuthDeps, key: string): [Window, Window] {
  const { windowMs } = CAPTCHA_AFTER_FAILURES;
  return [
    { key: `fail:account:${key}`, windowMs },
    { key: `fail:client:${deps.clientKey}`, windowMs },
  ];
}

/** Whether the next sign-in for this account from this client must carry a solved captcha. */
async function captchaNeeded(deps: AuthDeps, key: string): Promise<boolean> {
  const [account, client] = failureWindows(deps, key);
  const [accountFailures, clientFailures] = await Promise.all([countIn(deps.db, account, deps.now), countIn(deps.db, client, deps.now)]);
  return accountFailures >= CAPTCHA_AFTER_FAILURES.perAccount || clientFailures >= CAPTCHA_AFTER_FAILURES.perClient;
}

/**
 * Runs a credential check behind the captcha gate: after repeated failures for the account or the
 * client a solved captcha is required first; wrong guesses are counted, success clears the account.
 */
async function guarded<T>(deps: AuthDeps, key: string, captcha: CaptchaAttempt, check: () => Promise<T>): Promise<T> {
  if (await captchaNeeded(deps, key)) {
    if (!captcha.answer?.trim()) throw new DomainError('captcha_required', {}, 'captcha');
    if (!(await solveChallenge(deps.db, captcha.id, captcha.answer, deps.clientKey, deps.now))) {
      throw new DomainError('captcha_wrong', {}, 'captcha');
    }
  }
  try {
    const result = await check();
    await resetCounter(deps.db, failureWindows(deps, key)[0].key);
    return result;
  } catch (error) {
    if (error instanceof DomainError && GUESS_FAILURES.has(error.code)) await hitAll(deps.db, failureWindows(deps, key), deps.now);
    throw error;
  }
}

// ---------------------------------------------------------------- users and sessions

type UserRow = typeof users.$inferSelect;

async function findUser(db: Db, account: Account): Promise<UserRow | undefined> {
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
async function createUser(
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

function storedHash(row: UserRow | undefined) {
  if (!row?.passwordHash || !row.passwordSalt || !row.passwordIterations) return null;
  return { hash: row.passwordHash, salt: row.passwordSalt, iterations: row.passwordIterations };
}

// ---------------------------------------------------------------- flows

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

/** Sends a registration code to an email (an already registered one gets a notice instead). */
export async function sendRegisterCode(deps: AuthDeps, email: string, challenge: PresentedChallenge): Promise<void> {
  const account: Account = { kind: 'email', email };
  const taken = !!(await findUser(deps.db, account));
  await challengeCodeRequest(deps, account, taken, challenge);
  await accountCode(deps, account, 'register', !taken, deps.t('auth.mail.alreadyRegisteredBody'));
}

/** Creates an email account with its password, after the registration code, and signs it in; `inviteCode` names who invited it. */
export async function register(
  deps: AuthDeps,
  email: string,
  code: string,
  password: string,
  captcha: CaptchaAttempt,
  inviteCode?: string,
): Promise<SignedIn> {
  const account: Account = { kind: 'email', email };
  // Checked before the code is used up, so a mistyped invite code costs the user nothing.
  const inviter = inviteCode ? await inviterByCode(deps.db, inviteCode) : null;
  return guarded(deps, accountKey(account), captcha, async () => {
    await checkCode(deps, targetOf(account), 'register', code, true);
    const user = await createUser(deps.db, account, password, deps.now, inviter?.id ?? null, deps.locale);
    if (!user) throw new DomainError('registration_failed');
    return createSession(deps.db, user, deps.now);
  });
}

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
