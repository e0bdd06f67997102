/**
 * The scheduled sweep (a Workers cron trigger, every minute): closes unpaid orders past their
 * deadline even when nobody reads them, draws the lotteries whose time has come, finishes the
 * reissue of paid transfer orders that failed after payment, gives back money whose refund
 * failed, deletes rows whose only purpose has passed (past minutes' order counts among them), tells notify-me subscribers of sales that
 * started, moves ended activities to the back of the search index (services/search/hide-ended.ts), picks again the
 * cards' cheapest listings whose session has started (services/catalogue/catalogue.ts), and then
 * does what follows any write (services/platform/after-write.ts).
 */
import { lt } from 'drizzle-orm';
import { CODE_SEND_LIMITS } from '../../config/accounts.ts';
import type { Db } from '../../data/client.ts';
import { authSessions, captchaChallenges, rateLimits, sessionOrderRates, verificationCodes } from '../../db/schema.ts';
import { minuteOf } from '../../domain/order-rate.ts';
import { writeSaleStartedMessages } from '../catalogue/activity-subscriptions.ts';
import { afterWrite } from './after-write.ts';
import { repickStartedCheapestListings } from '../catalogue/catalogue.ts';
import type { ServiceEnv } from './env.ts';
import type { MessageQueue } from '../messages/delivery.ts';
import { drawDueLotteries } from '../on-sale/lottery-draw.ts';
import { expireOverdueOrders } from '../../data/order-expiry.ts';
import { batch } from '../../data/batch.ts';
import { retryOwedRefunds } from '../payments/refunds.ts';
import { reissueTransferOrder } from '../payments/settlement.ts';
import { hideEndedFromSearch } from '../search/hide-ended.ts';
import { transferOrdersAwaitingReissue } from '../marketplace/transfer-reissue.ts';

/** The longest rate-limit window: a counter older than this can no longer refuse anything. */
const LONGEST_WINDOW_MS = Math.max(...Object.values(CODE_SEND_LIMITS).map((limit) => limit.windowMs));

export interface SweepResult {
  expiredOrders: number;
  drawnLotteries: number;
  /** Paid transfer orders whose tickets were reissued now, and those refunded because their listing no longer had them. */
  reissuedTransfers: number;
  refundedTransfers: number;
  /** Payments of closed orders given back now, their first refund having failed. */
  retriedRefunds: number;
  /** Waitlist offers made and messages handed to the queue, after all of the above returned tickets or wrote messages. */
  waitlistOffers: number;
  publishedMessages: number;
}

/** Each order is tried on its own: one that keeps failing is logged and does not hold up the rest. */
async function retryTransferReissues(
  db: Db,
  env: ServiceEnv,
  now: number,
): Promise<Pick<SweepResult, 'reissuedTransfers' | 'refundedTransfers'>> {
  const counts = { reissuedTransfers: 0, refundedTransfers: 0 };
  for (const orderId of await transferOrdersAwaitingReissue(db)) {
    try {
      const outcome = await reissueTransferOrder(db, env, orderId, now);
      if (outcome === 'ticketed') counts.reissuedTransfers += 1;
      if (outcome === 'unavailable') counts.refundedTransfers += 1;
    } catch (error) {
      console.error(JSON.stringify({ event: 'transfer_reissue_failed', orderId, error: String(error) }));
    }
  }
  return counts;
}

export async function sweep(db: Db, env: ServiceEnv, queue: MessageQueue, now: number): Promise<SweepResult> {
  const expiredOrders = await expireOverdueOrders(db, now);
  const drawnLotteries = await drawDueLotteries(db, now);
  const transfers = await retryTransferReissues(db, env, now);
  const retriedRefunds = await retryOwedRefunds(db, env, now);
  await batch(db, {
    expired: [
      db.delete(rateLimits).where(lt(rateLimits.windowStart, now - LONGEST_WINDOW_MS)),
      db.delete(captchaChallenges).where(lt(captchaChallenges.expiresAt, now)),
      db.delete(verificationCodes).where(lt(verificationCodes.expiresAt, now)),
      db.delete(authSessions).where(lt(authSessions.expiresAt, now)),
      // An order's rate reads its own minute's count and the one before (domain/order-rate.ts).
      db.delete(sessionOrderRates).where(lt(sessionOrderRates.minute, minuteOf(now) - 1)),
    ],
  });
  await writeSaleStartedMessages(db, now);
  await hideEndedFromSearch(db, now);
  await repickStartedCheapestListings(db, now);
  const settled = await afterWrite(db, queue, now, null);
  return {
    expiredOrders,
    drawnLotteries,
    ...transfers,
    retriedRefunds,
    waitlistOffers: settled.offers,
    publishedMessages: settled.published,
  };
}
