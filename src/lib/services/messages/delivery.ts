/**
 * The message pipeline after the outbox. Triggers write a `messages` row with each state
 * change worth telling (migrations/0014_messages.sql). Then:
 *   1. the relay claims pending rows no queue holds and hands their ids to the MESSAGES queue; it
 *      runs after every API write and from the cron sweep (services/platform/after-write.ts), and hands over
 *      again a row the queue lost;
 *   2. the queue consumer (`deliverQueuedMessages`, a queue batch at a time) leases the rows, reads
 *      the facts each reports in the recipient's language, composes each text and hands it to the
 *      channel's provider; then marks each sent, leaves it pending for a retry after a delay, or marks
 *      it dead after the last try. The leases, the facts and the marks are one round trip each for
 *      the whole batch.
 * The facts and their words are message-facts.ts; the operators' dead letters, dead-letters.ts.
 * The lease makes the recipient see a message at most once from us even when the queue delivers its
 * id twice; the provider gets our id as its idempotency key for the crash between its accept and our mark.
 */
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { LOCAL_START_ORIGIN, MESSAGE_LEASE_MS, MESSAGE_PUBLISH_BATCH, MESSAGE_REPUBLISH_AFTER_MS } from '../../config/messages.ts';
import type { Db } from '../../data/client.ts';
import { readEach } from '../../data/read-together.ts';
import { batch } from '../../data/batch.ts';
import { messages } from '../../db/schema.ts';
import { deliveryVerdict, type DeliveryVerdict } from '../../domain/message-delivery.ts';
import { composeMessage } from '../../domain/message-text.ts';
import type { CurrencyTable } from '../../domain/money.ts';
import { publicOrigin, type OriginConfig } from '../../domain/public-origin.ts';
import { translator } from '../../i18n/index.ts';
import { currencyTable } from '../catalogue/currency.ts';
import type { ServiceEnv } from '../platform/env.ts';
import { providerFor } from './providers/index.ts';
import { DeliveryError } from './providers/types.ts';
import { factsOf, type FactsRows, factsReads, type MessageRow, type Payload } from './message-facts.ts';

/** What travels on the queue: the row's id, and the origin links are built on when none is configured (local builds). */
export interface QueuedMessage {
  id: string;
  origin: string | null;
}

/** The part of the MESSAGES queue binding the relay uses. */
export interface MessageQueue {
  sendBatch(messages: Iterable<MessageSendRequest<QueuedMessage>>): Promise<unknown>;
}

export type DeliveryEnv = ServiceEnv & OriginConfig;

/**
 * Claims messages for the queue: pending ones never handed over, and those handed over so long ago
 * that the queue must have lost them; and a message whose lease ran out while it was being sent and
 * that was not handed over since (its consumer died, or the queue's retry came while the lease held
 * and was acknowledged as leased elsewhere): without this it would stay "sending" for good. Claiming
 * (setting `enqueued_at`) comes before sending, so two relays running at once hand each message over once.
 */
export function claimPendingMessagesStatement(db: Db, now: number): D1PreparedStatement {
  return db.$client
    .prepare(`
    UPDATE messages SET enqueued_at = ?1
    WHERE status IN ('pending', 'sending') AND id IN (
      SELECT id FROM messages
      WHERE (status = 'pending' AND (enqueued_at IS NULL OR enqueued_at < ?2))
         OR (status = 'sending' AND lease_until < ?1 AND (enqueued_at IS NULL OR enqueued_at < lease_until OR enqueued_at < ?2))
      ORDER BY created_at LIMIT ?3)
    RETURNING id`)
    .bind(now, now - MESSAGE_REPUBLISH_AFTER_MS, MESSAGE_PUBLISH_BATCH);
}

/** Hands claimed messages to the queue; a failed send gives the claim back, for the next relay. */
export async function sendClaimedMessages(db: Db, queue: MessageQueue, ids: readonly string[], now: number, origin: string | null) {
  if (ids.length === 0) return 0;
  try {
    await queue.sendBatch(ids.map((id) => ({ body: { id, origin } })));
  } catch (error) {
    await db
      .update(messages)
      .set({ enqueuedAt: null })
      .where(and(inArray(messages.id, [...ids]), eq(messages.enqueuedAt, now)));
    throw error;
  }
  return ids.length;
}

export function claimedIds(result: D1Result): string[] {
  return (result.results as { id: string }[]).map((row) => row.id);
}

/** The outbox relay on its own: claim, then send. */
export async function publishPendingMessages(db: Db, queue: MessageQueue, now: number, origin: string | null): Promise<number> {
  return sendClaimedMessages(db, queue, claimedIds(await claimPendingMessagesStatement(db, now).all()), now, origin);
}

// ---------------------------------------------------------------------------------------------
// Delivering one message

export type DeliveryOutcome = DeliveryVerdict | { kind: 'skipped' };

/**
 * Takes the messages for this delivery, except those sent, dead, or being delivered by another
 * consumer right now: one statement for a whole queue batch.
 */
async function lease(db: Db, ids: readonly string[], now: number): Promise<MessageRow[]> {
  return db
    .update(messages)
    .set({ status: 'sending', attempts: sql`${messages.attempts} + 1`, leaseUntil: now + MESSAGE_LEASE_MS })
    .where(
      and(
        inArray(messages.id, [...new Set(ids)]),
        or(eq(messages.status, 'pending'), and(eq(messages.status, 'sending'), lt(messages.leaseUntil, now))),
      ),
    )
    .returning();
}

function failureOf(error: unknown): { permanent: boolean; text: string } {
  if (error instanceof DeliveryError) return { permanent: error.permanent, text: error.message };
  return { permanent: false, text: String((error as Error)?.message ?? error) };
}

type Failure = { permanent: boolean; text: string } | null;

/** What a leased message's text is made of. */
interface LeasedFacts {
  payload: Payload;
  rows: FactsRows;
  table: CurrencyTable;
}

/** Composes one leased message from its facts and hands it to its channel's provider; the failure, if any. */
async function sendLeased(
  db: Db,
  env: DeliveryEnv,
  message: MessageRow,
  queued: QueuedMessage,
  facts: LeasedFacts | Error,
  fetcher: typeof fetch,
): Promise<Failure> {
  try {
    if (facts instanceof Error) throw facts;
    const origin = publicOrigin(env, queued.origin ?? LOCAL_START_ORIGIN);
    if (!origin) throw new DeliveryError('PUBLIC_ORIGIN is not configured: links in messages cannot be built', false);
    const found = await factsOf(message, facts.payload, facts.rows, { origin, table: facts.table, env });
    // What it reported is gone (a deleted row): nothing true to send, and waiting will not bring it back.
    if (!found) throw new DeliveryError(`Nothing left to report for ${message.dedupeKey}`, true);
    const composed = composeMessage(found.facts, message.channel, translator(found.locale));
    await providerFor(message.channel, env, db, fetcher).deliver({
      id: message.id,
      channel: message.channel,
      to: message.target,
      ...composed,
      // The lease counted this attempt, so more than one means an earlier one may have been sent.
      ...(message.attempts > 1 ? { retrySince: message.createdAt } : {}),
    });
    return null;
  } catch (error) {
    return failureOf(error);
  }
}

/** Gives a leased message back untried: pending at once, this attempt not counted. */
function untriedMark(db: Db, message: MessageRow) {
  return db
    .update(messages)
    .set({ status: 'pending', leaseUntil: null, attempts: sql`${messages.attempts} - 1` })
    .where(and(eq(messages.id, message.id), eq(messages.status, 'sending')));
}

/** Records a tried message's verdict (sent, dead, or pending for a retry), and logs a failure. */
function triedMark(db: Db, message: MessageRow, verdict: DeliveryVerdict, failure: Failure, now: number) {
  const status = verdict.kind === 'sent' ? 'sent' : verdict.kind === 'dead' ? 'dead' : 'pending';
  if (failure) {
    const log = {
      event: verdict.kind === 'dead' ? 'message_dead' : 'message_retry',
      id: message.id,
      kind: message.kind,
      attempts: message.attempts,
      error: failure.text,
    };
    console.error(JSON.stringify(log));
  }
  return db
    .update(messages)
    .set({ status, leaseUntil: null, lastError: failure?.text ?? null, sentAt: verdict.kind === 'sent' ? now : null })
    .where(and(eq(messages.id, message.id), eq(messages.status, 'sending')));
}

/**
 * One delivery attempt of each message named (a queue batch's bodies), in a fixed number of round
 * trips however many there are: the leases in one statement, every message's facts in one batch,
 * and the outcomes in one batch; each message is composed and handed to its provider in turn. The
 * verdicts (in the order given) tell the queue consumer what to do with each queue message: ack it,
 * or retry it after the delay; a message leased elsewhere, sent or dead is skipped.
 */
export async function deliverQueuedMessages(
  db: Db,
  env: DeliveryEnv,
  queued: readonly QueuedMessage[],
  now: number,
  fetcher: typeof fetch = fetch,
  clock: () => number = Date.now,
): Promise<DeliveryOutcome[]> {
  if (queued.length === 0) return [];
  const leased = await lease(
    db,
    queued.map((each) => each.id),
    now,
  );
  const byId = new Map(leased.map((message) => [message.id, message]));
  const payloads = leased.map((message) => JSON.parse(message.payload) as Payload);
  // A facts read that fails is every leased message's failure this time (a retry, as any D1 error is).
  const facts: (LeasedFacts | Error)[] = await Promise.all([
    readEach(
      db,
      leased.map((message, index) => factsReads(db, message, payloads[index])),
    ),
    currencyTable(db, now),
  ]).then(
    ([rows, table]) => rows.map((each, index) => ({ payload: payloads[index], rows: each, table })),
    (error: unknown) => leased.map(() => (error instanceof Error ? error : new Error(String(error)))),
  );
  const verdicts = new Map<string, DeliveryVerdict>();
  const marks = [];
  // A delivery starts only in the first half of the leases, so it ends (a provider's calls time out
  // after PROVIDER_TIMEOUT_MS) while its message is still ours; the rest go back untried, at once.
  const startBy = now + MESSAGE_LEASE_MS / 2;
  for (const [index, message] of leased.entries()) {
    if (clock() >= startBy) {
      verdicts.set(message.id, { kind: 'retry', delaySeconds: 0 });
      marks.push(untriedMark(db, message));
      continue;
    }
    const failure = await sendLeased(db, env, message, queued.find((each) => each.id === message.id)!, facts[index], fetcher);
    const verdict = deliveryVerdict(message.attempts, failure);
    verdicts.set(message.id, verdict);
    marks.push(triedMark(db, message, verdict, failure, now));
  }
  await batch(db, { marks });
  // The same id twice in a queue batch is delivered once: its second copy is skipped.
  const answered = new Set<string>();
  return queued.map((each) => {
    const verdict = byId.has(each.id) && !answered.has(each.id) ? verdicts.get(each.id) : undefined;
    answered.add(each.id);
    return verdict ?? { kind: 'skipped' };
  });
}

/** One delivery attempt of the message `id` (a queue message's body); see deliverQueuedMessages. */
export async function deliverQueuedMessage(
  db: Db,
  env: DeliveryEnv,
  queued: QueuedMessage,
  now: number,
  fetcher: typeof fetch = fetch,
): Promise<DeliveryOutcome> {
  const [outcome] = await deliverQueuedMessages(db, env, [queued], now, fetcher);
  return outcome;
}

/** The queue consumer: one delivery attempt per queue message, acked or retried after the delay its verdict says. */
export async function consumeMessageBatch(batch: MessageBatch<QueuedMessage>, db: Db, env: DeliveryEnv): Promise<void> {
  let outcomes: DeliveryOutcome[];
  try {
    outcomes = await deliverQueuedMessages(
      db,
      env,
      batch.messages.map((message) => message.body),
      Date.now(),
    );
  } catch (error) {
    // The database failed us, not a provider: the queue tries again (its own max_retries); the rows stay claimable.
    const ids = batch.messages.map((message) => message.body.id);
    console.error(JSON.stringify({ event: 'message_delivery_crashed', ids, error: String(error) }));
    for (const message of batch.messages) message.retry();
    return;
  }
  batch.messages.forEach((message, index) => {
    const outcome = outcomes[index];
    if (outcome.kind === 'retry') message.retry({ delaySeconds: outcome.delaySeconds });
    else message.ack();
  });
}
