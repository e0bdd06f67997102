/**
 * The cost breakdown of an order (SPEC.md section 3): ticket price, service fee, postage including
 * the fuel surcharge, coupon and total, all in the order's currency and minor units. The server
 * computes it for the quote and again when the order is created, so a client's figures are never trusted.
 */
import { COURIER_FUEL_SURCHARGE, COURIER_POSTAGE, SERVICE_FEE_BASIS_POINTS } from '../config/orders.ts';
import type { DeliveryType } from './delivery.ts';
import { convert, type CurrencyTable, type Money } from './money.ts';

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
 * What a buyer pays for tickets before postage and coupons: the tickets plus their service fee. Every
 * price shown is this "all-in" amount, so the checkout total of a delivery without postage and without
 * a coupon is exactly the price the buyer saw. The fee is taken per ticket, so that the one all-in
 * price per ticket a buyer reads (card, picker, confirm page, order, message) times the quantity is
 * the total to the minor unit.
 */
export function allInAmount(unitPrice: number, quantity: number): number {
  return (unitPrice + serviceFeeOf(unitPrice)) * quantity;
}

/**
 * A "from" price (cards, lists, the detail page's lowest price, a tier's cheapest offer) as shown: an
 * all-in amount in minor units rounded UP to whole units of its currency (HK$423.91 → HK$424, CN¥92.01 →
 * CN¥93; TWD, IDR and VND have no minor digits and stay exact). Up, never down or to nearest, so the
 * buyer never pays more than a "from" price says, by less than one unit; every price of a chosen
 * listing (the picker's per-ticket price and totals, checkout) stays exact in minor units.
 */
export function fromPrice(amount: number, minorDigits: number): number {
  const unit = 10 ** minorDigits;
  return Math.ceil(amount / unit) * unit;
}

/**
 * The "from" price of one ticket at a listing's price, in the buyer's currency: converted as checkout
 * converts it (the unit price first), then all-in, then rounded up to whole units.
 */
export function fromPriceOf(price: Money, currency: string, table: CurrencyTable): Money {
  const unitPrice = convert(price, currency, table).amount;
  return { amount: fromPrice(allInAmount(unitPrice, 1), table.get(currency)?.minorDigits ?? 2), currency };
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
  const serviceFee = allInAmount(input.unitPrice, input.quantity) - ticketAmount;
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
