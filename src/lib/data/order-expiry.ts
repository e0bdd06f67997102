/**
 * Unpaid orders past their payment deadline close as `cancelled` (reason `timeout`); the
 * `orders_release_hold` trigger gives their tickets and coupons back.
 */
import { and, eq, lte, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';
import { orders } from '../db/schema.ts';

/** Whose orders to close: a buyer's, a listing's, a session's (its inventory object's), or everyone's. */
export interface ExpiryScope {
  userId?: number;
  listingId?: number;
  sessionId?: number;
}

/**
 * Closes unpaid orders past their deadline; the trigger gives their tickets and coupons back. Runs
 * lazily before reads (scoped to a buyer or a listing) and from the scheduled sweep (unscoped).
 */
export function expireOverdueOrdersStatement(db: Db, now: number, scope: ExpiryScope = {}) {
  const conditions: SQL[] = [eq(orders.status, 'pending_payment'), lte(orders.paymentDeadline, now)];
  if (scope.userId !== undefined) conditions.push(eq(orders.userId, scope.userId));
  if (scope.listingId !== undefined) conditions.push(eq(orders.listingId, scope.listingId));
  if (scope.sessionId !== undefined) conditions.push(eq(orders.sessionId, scope.sessionId));
  return db
    .update(orders)
    .set({ status: 'cancelled', cancelReason: 'timeout', paymentSubstatus: null, closedAt: now, updatedAt: now })
    .where(and(...conditions))
    .returning({ id: orders.id });
}

/** The same on its own; answers how many orders it closed. */
export async function expireOverdueOrders(db: Db, now: number, scope: ExpiryScope = {}): Promise<number> {
  return (await expireOverdueOrdersStatement(db, now, scope)).length;
}
