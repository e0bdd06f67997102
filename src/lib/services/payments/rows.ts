/** The payment and order rows every payment step reads. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { orders, type payments } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import type { OrderRow } from '../orders/queries.ts';

export type PaymentRow = typeof payments.$inferSelect;

/** An order by id, or order_not_found. */
export async function orderRow(db: Db, orderId: number): Promise<OrderRow> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!row) throw new DomainError('order_not_found');
  return row;
}
