/**
 * What checkout works out before it writes anything: the listing being bought with its show, the
 * buyer's coupons judged against the order, and the price. The quote and the order are both made of
 * a Priced (checkout.ts makes it, presenters.ts shows it).
 */
import type { DeliveryType } from '../../domain/delivery.ts';
import type { activities, activitySessions, cities, coupons, listings, ticketTiers, venues } from '../../db/schema.ts';
import type { CouponVerdict } from '../../domain/coupons.ts';
import type { OnSale } from '../../domain/on-sale.ts';
import type { CostBreakdown } from '../../domain/pricing.ts';

/** What is bought: a listing with its tier's show and its seller's name. */
export interface Target {
  listing: typeof listings.$inferSelect;
  /** The tier, session, activity and venue as a view of a show reads them (show-query.ts): without what only the console edits. */
  tier: Omit<typeof ticketTiers.$inferSelect, 'highDemand' | 'quota'>;
  session: Omit<typeof activitySessions.$inferSelect, 'highDemand' | 'accountTicketCap' | 'onSaleAt' | 'offSaleAt'>;
  /** The session's own cap of tickets per account, null for the default (domain/order-limits.ts). */
  accountTicketCap: number | null;
  /**
   * The high-demand on-sale it is bought through (its session's, or its tier's own; domain/on-sale.ts):
   * its order needs that on-sale's pass and its hold goes through that on-sale's inventory object
   * (durable-objects/session-inventory.ts). Null for a plain purchase.
   */
  onSale: OnSale | null;
  activity: Omit<
    typeof activities.$inferSelect,
    'saleStatus' | 'publishedAt' | 'buyingNotesEn' | 'buyingNotesZhHant' | 'buyingNotesZhHans'
  >;
  venue: Omit<typeof venues.$inferSelect, 'mapUrl'>;
  /** The city's names and clock, all a view of a show reads of it (show-query.ts). */
  city: Pick<typeof cities.$inferSelect, 'id' | 'nameEn' | 'nameZhHant' | 'nameZhHans' | 'timeZone'>;
  countryCode: string;
  sellerName: string;
}

/** One of the buyer's unused coupons with its verdict for the order at hand. */
export interface JudgedCoupon {
  id: number;
  coupon: typeof coupons.$inferSelect;
  verdict: CouponVerdict;
  validTo: number;
}

/** The checked purchase and its price: what both the quote and the order are made of. */
export interface Priced {
  target: Target;
  deliveryType: DeliveryType;
  unitPrice: number;
  judged: JudgedCoupon[];
  applied: JudgedCoupon | null;
  cost: CostBreakdown;
}
