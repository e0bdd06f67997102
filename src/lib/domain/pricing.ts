/**
 * The cost breakdown of an order (SPEC.md section 3): ticket price, service fee, postage including
 * the fuel surcharge, coupon and total, all in the order's currency and minor units. The server
 * computes it for the quote and again when the order is created, so a client's figures are never trusted.
 */
import { COURIER_FUEL_SURCHARGE, COURIER_POSTAGE, SERVICE_FEE_BASIS_POINTS, type DeliveryType } from '../config.ts';
import { convert, type CurrencyTable } from './money.ts';

export interface CostBreakdown {
  currency: string;
  ticketAmount: number;
  serviceFee: number;
  /** Postage including the fuel surcharge. */
  postage: number;
  /** The part of `postage` that is fuel surcharge, shown beside it. */
  fuelSurcharge: number;
  couponDiscount: number;
  total: number;
}

/** The service fee of a ticket amount, rounded half up to the minor unit. */
export function serviceFeeOf(ticketAmount: number): number {
  return Math.floor((ticketAmount * SERVICE_FEE_BASIS_POINTS + 5_000) / 10_000);
}

/** Postage and the fuel surcharge inside it: only a courier delivery costs anything. */
export function postageOf(deliveryType: DeliveryType, currency: string, table: CurrencyTable): { postage: number; fuelSurcharge: number } {
  if (deliveryType !== 'courier') return { postage: 0, fuelSurcharge: 0 };
  const base = convert(COURIER_POSTAGE, currency, table).amount;
  const fuelSurcharge = convert(COURIER_FUEL_SURCHARGE, currency, table).amount;
  return { postage: base + fuelSurcharge, fuelSurcharge };
}

/**
 * The whole breakdown. A coupon discounts the tickets only, never the fees, and never more than
 * the ticket amount, so the total is at least the fees.
 */
export function costBreakdown(input: {
  unitPrice: number;
  quantity: number;
  currency: string;
  deliveryType: DeliveryType;
  couponDiscount: number;
  table: CurrencyTable;
}): CostBreakdown {
  const ticketAmount = input.unitPrice * input.quantity;
  const serviceFee = serviceFeeOf(ticketAmount);
  const { postage, fuelSurcharge } = postageOf(input.deliveryType, input.currency, input.table);
  const couponDiscount = Math.min(Math.max(0, input.couponDiscount), ticketAmount);
  return {
    currency: input.currency,
    ticketAmount,
    serviceFee,
    postage,
    fuelSurcharge,
    couponDiscount,
    total: ticketAmount + serviceFee + postage - couponDiscount,
  };
}
