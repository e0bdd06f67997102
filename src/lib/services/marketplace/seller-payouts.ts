/** A seller's recorded proceeds from transfers. */
import { desc, eq } from 'drizzle-orm';
import { sellerPayouts } from '../../db/schema.ts';
import { formattedMoney, type FormattedMoney } from '../../domain/money.ts';
import type { UserScope } from '../platform/scope.ts';

export interface PayoutView {
  id: number;
  orderId: number;
  listingId: number;
  amount: FormattedMoney;
  platformFee: FormattedMoney;
  payableAfter: number;
  status: (typeof sellerPayouts.$inferSelect)['status'];
}

/** The seller's recorded proceeds, newest first (paying them out happens after each event). */
export async function myPayouts(scope: UserScope): Promise<PayoutView[]> {
  const { db, ctx, currencies: table, userId } = scope;
  const rows = await db.select().from(sellerPayouts).where(eq(sellerPayouts.sellerId, userId)).orderBy(desc(sellerPayouts.id));
  return rows.map((payout) => ({
    id: payout.id,
    orderId: payout.orderId,
    listingId: payout.listingId,
    amount: formattedMoney(payout.amount, payout.currency, ctx.locale, table),
    platformFee: formattedMoney(payout.platformFee, payout.currency, ctx.locale, table),
    payableAfter: payout.payableAfter,
    status: payout.status,
  }));
}
