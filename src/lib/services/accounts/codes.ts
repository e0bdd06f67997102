/**
 * Verification codes: issued to an address for a purpose under send limits, delivered within the
 * request, and checked against a bounded number of attempts. Also what every account operation
 * needs (AuthDeps) and the account a code goes to.
 *
 * Nothing here tells one person whether another has an account: every code request answers the
 * same and stores a code either way (the mail says "no account" instead of carrying it).
 */
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import { CODE_MAX_ATTEMPTS, CODE_SEND_LIMITS, CODE_TTL_MS, EMAIL_CODE_LENGTH, TURNSTILE_ACTION } from '../../config/accounts.ts';
import type { Db } from '../../data/client.ts';
import { verificationCodes } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { mailboxOf } from '../../domain/mailbox.ts';
import type { MessageChannel } from '../../domain/messages.ts';
import { constantTimeEqual, randomString, sha256Hex } from '../../domain/password.ts';
import type { PhoneNumber } from '../../domain/validation.ts';
import type { Translate } from '../../i18n/index.ts';
import type { Locale } from '../../i18n/locales.ts';
import { DeliveryError, type ProviderConfig, providerFor } from '../messages/providers/index.ts';
import { hitAll } from '../protection/rate-limit.ts';
import type { PresentedChallenge } from '../../domain/turnstile.ts';
import { requireSolvedChallenge, type TurnstileEnv } from '../protection/turnstile.ts';
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
export async function challengeCodeRequest(deps: AuthDeps, account: Account, known: boolean, challenge: PresentedChallenge): Promise<void> {
  if (account.kind === 'phone' && known) return;
  await requireSolvedChallenge(deps.turnstile, TURNSTILE_ACTION.loginCode, challenge);
}

export type Account = { kind: 'email'; email: string } | { kind: 'phone'; phone: PhoneNumber };
/** What an account's own codes are for. */
export type AccountCodePurpose = 'login' | 'register' | 'reset_password';
/** What a code is for: an account's, or confirming the number of an order's pickup taker. */
export type CodePurpose = AccountCodePurpose | 'taker_phone';

const DAY_MS = 24 * 3600 * 1000;
const DIGITS = '0123456789';

/** The address a code goes to: the email, or the phone as "+852 91234567". */
export function targetOf(account: Account): string {
  return account.kind === 'email' ? account.email : `${account.phone.callingCode} ${account.phone.number}`;
}

function channelOf(account: Account): MessageChannel {
  return account.kind === 'email' ? 'email' : 'sms';
}

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
export function accountCode(
  deps: AuthDeps,
  account: Account,
  purpose: AccountCodePurpose,
  disclose: boolean,
  notice: string,
): Promise<void> {
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
