/**
 * The scheduled sweep (a Workers cron trigger, every minute): closes unpaid orders past their
 * deadline even when nobody reads them, draws the lotteries whose time has come, and deletes rows
 * whose only purpose has passed.
 */
import { lt } from 'drizzle-orm';
import { CODE_SEND_LIMITS } from '../config.ts';
import type { Db } from '../db/client.ts';
import { authSessions, captchaChallenges, rateLimits, verificationCodes } from '../db/schema.ts';
import { drawDueLotteries } from './lottery.ts';
import { expireOverdueOrders } from './orders.ts';

/** The longest rate-limit window: a counter older than this can no longer refuse anything. */
const LONGEST_WINDOW_MS = Math.max(...Object.values(CODE_SEND_LIMITS).map((limit) => limit.windowMs));

export interface SweepResult {
  expiredOrders: number;
  drawnLotteries: number;
}

export async function sweep(db: Db, now: number): Promise<SweepResult> {
  const expiredOrders = await expireOverdueOrders(db, now);
  const drawnLotteries = await drawDueLotteries(db, now);
  await db.batch([
    db.delete(rateLimits).where(lt(rateLimits.windowStart, now - LONGEST_WINDOW_MS)),
    db.delete(captchaChallenges).where(lt(captchaChallenges.expiresAt, now)),
    db.delete(verificationCodes).where(lt(verificationCodes.expiresAt, now)),
    db.delete(authSessions).where(lt(authSessions.expiresAt, now)),
  ]);
  return { expiredOrders, drawnLotteries };
}
