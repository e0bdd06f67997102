/**
 * The message pipeline after the outbox (issue 18). Triggers write a `messages` row with each state
 * change worth telling (migrations/0014_messages.sql). Then:
 *   1. the relay claims pending rows no queue holds and hands their ids to the MESSAGES queue; it
 *      runs after every API write and from the cron sweep (services/after-write.ts), and hands over
 *      again a row the queue lost;
 *   2. the queue consumer (`deliverQueuedMessage`) leases the row, reads the facts it reports in the
 *      recipient's language, composes the text and hands it to the channel's provider; then marks it
 *      sent, leaves it pending for a retry after a delay, or marks it dead after the last try.
 * The lease makes the recipient see a message at most once from us even when the queue delivers its
 * id twice; the provider gets our id as its idempotency key for the crash between its accept and our mark.
 */
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { LOCAL_START_ORIGIN, MESSAGE_LEASE_MS, MESSAGE_PUBLISH_BATCH, MESSAGE_REPUBLISH_AFTER_MS, ORDER_TIME_ZONE } from '../config.ts';
import { prefixedTable } from '../db/batch-columns.ts';
import type { Db } from '../db/client.ts';
import { known, read, readTogether } from '../db/read-together.ts';
import { activities, cities, listings, lotteries, messages, orders, ticketTiers, users, venues, waitlistOffers } from '../db/schema.ts';
import { DomainError } from '../domain/errors.ts';
import { deliveryVerdict, type DeliveryVerdict } from '../domain/message-delivery.ts';
import { composeMessage } from '../domain/message-text.ts';
import type { MessageFacts, OrderFacts, ShowFacts } from '../domain/messages.ts';
import { formattedMoney, type CurrencyTable } from '../domain/money.ts';
import { publicOrigin, type OriginConfig } from '../domain/public-origin.ts';
import { formatSessionTime } from '../domain/session-time.ts';
import { offerCheckoutPath } from '../domain/waitlist.ts';
import { translator } from '../i18n/index.ts';
import { DEFAULT_LOCALE, isLocale, localizedName, localizedPath, type Locale } from '../i18n/locales.ts';
import { pathTo } from '../routes.ts';
import { currencyTable } from './currency.ts';
import type { ServiceEnv } from './env.ts';
import { providerFor } from './message-providers/index.ts';
import { DeliveryError } from './message-providers/types.ts';
import { orderWithShowQuery, showQuery } from './show-query.ts';
import { voucherUrl } from './voucher-link.ts';

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
 * Claims pending messages for the queue: those never handed over, and those handed over so long ago
 * that the queue must have lost them. Claiming (setting `enqueued_at`) comes before sending, so two
 * relays running at once hand each message over once.
 */
export function claimPendingMessagesStatement(db: Db, now: number): D1PreparedStatement {
  return db.$client
    .prepare(`
    UPDATE messages SET enqueued_at = ?1
    WHERE status = 'pending' AND id IN (
      SELECT id FROM messages WHERE status = 'pending' AND (enqueued_at IS NULL OR enqueued_at < ?2) ORDER BY created_at LIMIT ?3)
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
// The facts a message reports, in the recipient's language

type MessageRow = typeof messages.$inferSelect;

interface Payload {
  deadline?: number;
  trackingNo?: string | null;
  pickupAddress?: string | null;
  pickupTime?: number | null;
  amount?: number;
  currency?: string;
  startsAt?: number;
  refundUntil?: number | null;
  offerId?: number;
  lotteryId?: number;
  activityId?: number;
  won?: number | boolean;
  attendee?: string;
}

/** What every message names of a show: the columns of the show query it uses. */
interface ShowRow {
  activity: { nameEn: string; nameZhHant: string; nameZhHans: string };
  session: { startsAt: number };
  venue: { nameEn: string; nameZhHant: string; nameZhHans: string };
  city: { timeZone: string };
}

/** Everything a message's text needs, read in one batch. */
function factsRead(db: Db, message: MessageRow, payload: Payload) {
  return readTogether(db, {
    user: read([db.select({ languageCode: users.languageCode }).from(users).where(eq(users.id, message.userId))], ([[row]]) =>
      isLocale(row?.languageCode) ? row.languageCode : DEFAULT_LOCALE,
    ),
    order:
      message.orderId === null
        ? known(null)
        : read([orderWithShowQuery(db).where(eq(orders.id, message.orderId))], ([[row]]) => row ?? null),
    offer:
      payload.offerId === undefined
        ? known(null)
        : read(
            [
              showQuery(db, { offer: prefixedTable('offer', waitlistOffers) })
                .innerJoin(listings, eq(listings.tierId, ticketTiers.id))
                .innerJoin(waitlistOffers, eq(waitlistOffers.listingId, listings.id))
                .where(eq(waitlistOffers.id, payload.offerId)),
            ],
            ([[row]]) => row ?? null,
          ),
    activity:
      payload.activityId === undefined
        ? known(null)
        : read(
            [
              db
                .select({
                  activity: prefixedTable('activity', activities),
                  venue: prefixedTable('venue', venues),
                  city: prefixedTable('city', cities),
                })
                .from(activities)
                .innerJoin(venues, eq(venues.id, activities.venueId))
                .innerJoin(cities, eq(cities.id, venues.cityId))
                .where(eq(activities.id, payload.activityId)),
            ],
            ([[row]]) => (row ? { ...row, session: { startsAt: row.activity.startsAt } } : null),
          ),
    lottery:
      payload.lotteryId === undefined
        ? known(null)
        : read(
            [showQuery(db, {}).innerJoin(lotteries, eq(lotteries.tierId, ticketTiers.id)).where(eq(lotteries.id, payload.lotteryId))],
            ([[row]]) => row ?? null,
          ),
  });
}

interface FactsContext {
  locale: Locale;
  origin: string;
  table: CurrencyTable;
  env: DeliveryEnv;
}

function showFacts(show: ShowRow, link: string, { locale, origin }: FactsContext): ShowFacts {
  return {
    activity: localizedName(show.activity, locale),
    session: formatSessionTime(show.session.startsAt, locale, show.city.timeZone),
    venue: localizedName(show.venue, locale),
    link: `${origin}${link.startsWith('/') ? localizedPath(link, locale) : link}`,
  };
}

function timeText(at: number, locale: Locale, timeZone = ORDER_TIME_ZONE): string {
  return formatSessionTime(at, locale, timeZone);
}

/** The facts of one message; null when what it reports is gone (then there is nothing true to say). */
async function factsOf(
  db: Db,
  message: MessageRow,
  context: Omit<FactsContext, 'locale'>,
): Promise<{ facts: MessageFacts; locale: Locale } | null> {
  const payload = JSON.parse(message.payload) as Payload;
  const rows = await factsRead(db, message, payload);
  const ctx: FactsContext = { ...context, locale: rows.user };
  const { locale, table } = ctx;
  const money = (amount: number, currency: string) => formattedMoney(amount, currency, locale, table).formatted;

  if (message.kind === 'waitlist_offer') {
    if (!rows.offer) return null;
    const { offer } = rows.offer;
    const base = showFacts(rows.offer, offerCheckoutPath(pathTo('orderConfirmPage'), offer), ctx);
    return {
      locale,
      facts: {
        kind: 'waitlist_offer',
        ...base,
        tier: localizedName(rows.offer.tier, locale),
        quantity: offer.quantity,
        holdUntil: timeText(offer.expiresAt, locale),
      },
    };
  }
  if (message.kind === 'sale_started') {
    if (!rows.activity || payload.activityId === undefined) return null;
    const link = pathTo('detailPage', { id: payload.activityId });
    return { locale, facts: { kind: 'sale_started', ...showFacts(rows.activity, link, ctx) } };
  }
  if (message.kind === 'lottery_result') {
    if (!rows.lottery || payload.lotteryId === undefined) return null;
    const link = `${pathTo('OverloadTicketDetail')}?id=${payload.lotteryId}`;
    return { locale, facts: { kind: 'lottery_result', ...showFacts(rows.lottery, link, ctx), won: Boolean(payload.won) } };
  }
  if (!rows.order) return null;
  const { order } = rows.order;
  if (message.kind === 'listing_sold') {
    const base = showFacts(rows.order, pathTo('myListingsPage'), ctx);
    return {
      locale,
      facts: {
        kind: 'listing_sold',
        ...base,
        quantity: order.quantity,
        payout: money(payload.amount ?? 0, payload.currency ?? order.currency),
      },
    };
  }
  // A new voucher (issued, or reissued for a changed attendee) is what the message points to.
  const voucherMessage = message.kind === 'tickets_issued' || message.kind === 'attendee_change_approved';
  const link = voucherMessage ? await voucherUrl(ctx.env, order.orderNo) : pathTo('orderDetailPage', { id: order.id });
  const base: OrderFacts = {
    ...showFacts(rows.order, link, ctx),
    orderNo: order.orderNo,
    tier: localizedName(rows.order.tier, locale),
    quantity: order.quantity,
    total: money(order.total, order.currency),
  };
  const facts = orderMessageFacts(message.kind, base, payload, ctx, rows.order.city.timeZone, money, order);
  return facts && { locale, facts };
}

function orderMessageFacts(
  kind: MessageRow['kind'],
  base: OrderFacts,
  payload: Payload,
  { locale }: FactsContext,
  venueZone: string,
  money: (amount: number, currency: string) => string,
  order: typeof orders.$inferSelect,
): MessageFacts | null {
  switch (kind) {
    case 'order_placed':
    case 'payment_failed':
      return { kind, ...base, paymentDeadline: timeText(payload.deadline ?? 0, locale) };
    case 'payment_received':
    case 'tickets_issued':
    case 'order_expired':
    case 'show_cancelled':
      return { kind, ...base };
    case 'pickup_details':
      return {
        kind,
        ...base,
        pickupAddress: payload.pickupAddress ?? '',
        pickupTime: payload.pickupTime ? timeText(payload.pickupTime, locale, venueZone) : '',
        takerName: order.takerName ?? '',
      };
    case 'courier_shipped':
      return { kind, ...base, trackingNo: payload.trackingNo ?? '' };
    case 'attendee_change_approved':
    case 'attendee_change_refused':
      return { kind, ...base, attendee: payload.attendee ?? '' };
    case 'refund_made':
      return { kind, ...base, refundAmount: money(payload.amount ?? 0, order.currency) };
    case 'show_postponed':
      return {
        kind,
        ...base,
        newSession: timeText(payload.startsAt ?? 0, locale, venueZone),
        refundUntil: payload.refundUntil ? timeText(payload.refundUntil, locale) : '',
      };
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Delivering one message

export type DeliveryOutcome = DeliveryVerdict | { kind: 'skipped' };

/** Takes the message for this delivery, unless it is sent, dead, or being delivered by another consumer right now. */
async function lease(db: Db, id: string, now: number): Promise<MessageRow | null> {
  const [row] = await db
    .update(messages)
    .set({ status: 'sending', attempts: sql`${messages.attempts} + 1`, leaseUntil: now + MESSAGE_LEASE_MS })
    .where(and(eq(messages.id, id), or(eq(messages.status, 'pending'), and(eq(messages.status, 'sending'), lt(messages.leaseUntil, now)))))
    .returning();
  return row ?? null;
}

function failureOf(error: unknown): { permanent: boolean; text: string } {
  if (error instanceof DeliveryError) return { permanent: error.permanent, text: error.message };
  return { permanent: false, text: String((error as Error)?.message ?? error) };
}

/**
 * One delivery attempt of the message `id` (a queue message's body). The verdict tells the queue
 * consumer what to do with the queue message: ack it, or retry it after the delay.
 */
export async function deliverQueuedMessage(
  db: Db,
  env: DeliveryEnv,
  queued: QueuedMessage,
  now: number,
  fetcher: typeof fetch = fetch,
): Promise<DeliveryOutcome> {
  const message = await lease(db, queued.id, now);
  if (!message) return { kind: 'skipped' };
  let failure: { permanent: boolean; text: string } | null = null;
  try {
    const origin = publicOrigin(env, queued.origin ?? LOCAL_START_ORIGIN);
    if (!origin) throw new DeliveryError('PUBLIC_ORIGIN is not configured: links in messages cannot be built', false);
    const found = await factsOf(db, message, { origin, table: await currencyTable(db, now), env });
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
  } catch (error) {
    failure = failureOf(error);
  }
  const verdict = deliveryVerdict(message.attempts, failure);
  const status = verdict.kind === 'sent' ? 'sent' : verdict.kind === 'dead' ? 'dead' : 'pending';
  await db
    .update(messages)
    .set({ status, leaseUntil: null, lastError: failure?.text ?? null, sentAt: verdict.kind === 'sent' ? now : null })
    .where(and(eq(messages.id, message.id), eq(messages.status, 'sending')));
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
  return verdict;
}

/** The queue consumer: one delivery attempt per queue message, acked or retried after the delay its verdict says. */
export async function consumeMessageBatch(batch: MessageBatch<QueuedMessage>, db: Db, env: DeliveryEnv): Promise<void> {
  for (const message of batch.messages) {
    try {
      const outcome = await deliverQueuedMessage(db, env, message.body, Date.now());
      if (outcome.kind === 'retry') message.retry({ delaySeconds: outcome.delaySeconds });
      else message.ack();
    } catch (error) {
      // The database failed us, not the provider: the queue tries again (its own max_retries); the row stays claimable.
      console.error(JSON.stringify({ event: 'message_delivery_crashed', id: message.body.id, error: String(error) }));
      message.retry();
    }
  }
}

/** Messages that will not be delivered, newest first: what operators look at (GET /api/v1/operator/messages). */
export async function deadMessages(db: Db, limit = 50) {
  return db
    .select({
      id: messages.id,
      kind: messages.kind,
      channel: messages.channel,
      target: messages.target,
      orderId: messages.orderId,
      attempts: messages.attempts,
      lastError: messages.lastError,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(eq(messages.status, 'dead'))
    .orderBy(desc(messages.createdAt))
    .limit(limit);
}

/** An operator sends a dead message again (say, after fixing a provider's settings): pending, its tries counted afresh. */
export async function redeliverDeadMessage(db: Db, id: string): Promise<void> {
  const revived = await db
    .update(messages)
    .set({ status: 'pending', attempts: 0, enqueuedAt: null, lastError: null })
    .where(and(eq(messages.id, id), eq(messages.status, 'dead')))
    .returning({ id: messages.id });
  if (revived.length === 0) throw new DomainError('not_found');
}
