/**
 * The ticket picker's offers (SPEC.md section 4): the DIRECT_BUY offer of a tier, its seller listings
 * that have tickets in the quantities the activity allows, cheapest first, priced all-in in the
 * request currency; stock comes from the listings' `quantity_available`.
 */
import type { DeliveryType } from '../../domain/delivery.ts';
import { listingOnSale, sessionOpen } from '../../domain/availability.ts';
import { DomainError } from '../../domain/errors.ts';
import { allInAmount } from '../../domain/pricing.ts';
import {
  compareListings,
  DIRECT_BUY,
  parseDeliveryTypes,
  quantityRange,
  rangeAllows,
  type OrderLimits,
  type Seating,
} from '../../domain/ticket-offer.ts';
import { translator } from '../../i18n/index.ts';
import type { RequestScope } from '../platform/scope.ts';
import {
  type ActivityRow,
  inRequestCurrency,
  type ListingRow,
  type Loaded,
  loadAll,
  type Pricing,
  pricing,
  saleOf,
  type TierRow,
  view,
} from './activity-load.ts';

/** A listing with this many tickets or fewer carries a "tickets left" tip. */
const LOW_STOCK_TIP_AT = 5;

export interface TicketGroupInfo {
  /** The quantity preselected for this listing: the smallest allowed. */
  selectCount: number;
  /** A short note for the buyer ("3 tickets left"), or ''. */
  tip: string;
  currency: string;
  /** All-in total (service fee included) for `selectCount` tickets, formatted. */
  totalPriceView: string;
  /**
   * `id` is the listing id an order is placed on; prices are converted minor units of `currency`:
   * `salePrice` is one ticket without the service fee, as checkout's unit price (pricing.ts allInAmount adds it).
   */
  ticketGroup: { id: number; originPrice: number; salePrice: number };
  /** One ticket all-in (service fee included), exact in minor units. */
  salePriceView: string;
  originPriceView: string;
  available: number;
  minQuantity: number;
  maxQuantity: number;
  seating: Seating;
  deliveryTypes: DeliveryType[];
}

export interface TicketOffer {
  type: typeof DIRECT_BUY;
  numMin: number;
  numMax: number;
  /** The quantities any listing of the offer allows (selectNumMax 0 when none has tickets). */
  selectNumMin: number;
  selectNumMax: number;
  currency: string;
  /** Digits of the currency's minor unit, so the picker formats totals as the server does. */
  minorDigits: number;
  ticketGroupInfoList: TicketGroupInfo[];
}

function offerOf(activity: ActivityRow, tier: TierRow, tierListings: readonly ListingRow[], p: Pricing): TicketOffer {
  const t = translator(p.locale);
  const limits: OrderLimits = { numMin: activity.numMin, numMax: activity.numMax };
  const origin = inRequestCurrency({ amount: tier.faceValue, currency: tier.currency }, p);
  const groups = tierListings
    .filter(listingOnSale)
    .map((listing) => ({
      listing,
      range: quantityRange(limits, listing.quantityAvailable),
      price: inRequestCurrency({ amount: listing.price, currency: listing.currency }, p),
    }))
    .filter(({ range }) => rangeAllows(range))
    .sort((a, b) => compareListings({ price: a.price.amount, id: a.listing.id }, { price: b.price.amount, id: b.listing.id }))
    .map(
      ({ listing, range, price }): TicketGroupInfo => ({
        selectCount: range.min,
        tip: listing.quantityAvailable <= LOW_STOCK_TIP_AT ? t('detail.offer.ticketsLeft', { count: listing.quantityAvailable }) : '',
        currency: p.currency,
        totalPriceView: view({ amount: allInAmount(price.amount, range.min), currency: p.currency }, p),
        ticketGroup: { id: listing.id, originPrice: origin.amount, salePrice: price.amount },
        salePriceView: view({ amount: allInAmount(price.amount, 1), currency: p.currency }, p),
        originPriceView: view(origin, p),
        available: listing.quantityAvailable,
        minQuantity: range.min,
        maxQuantity: range.max,
        seating: listing.seating,
        deliveryTypes: parseDeliveryTypes(listing.deliveryTypes),
      }),
    );
  return {
    type: DIRECT_BUY,
    numMin: limits.numMin,
    numMax: limits.numMax,
    selectNumMin: Math.max(1, limits.numMin),
    selectNumMax: groups.reduce((max, group) => Math.max(max, group.maxQuantity), 0),
    currency: p.currency,
    minorDigits: p.digits,
    ticketGroupInfoList: groups,
  };
}

/** The offer of one tier, or the reason there is none (unknown tier, or activity not on sale). */
export function tierOffer(loaded: Loaded, tierId: number, p: Pricing, now: number): TicketOffer {
  const tier = loaded.tierRows.find((row) => row.id === tierId);
  const session = tier && loaded.sessionRows.find((row) => row.id === tier.sessionId);
  if (!tier || !session || !sessionOpen(session.startsAt, now)) throw new DomainError('ticket_category_not_found', {}, 'ticketCategoryId');
  if (!saleOf(loaded, now).bookable) throw new DomainError('activity_not_on_sale');
  return offerOf(
    loaded.activity,
    tier,
    loaded.listingRows.filter((row) => row.tierId === tier.id),
    p,
  );
}

/**
 * The spec's `POST /api/v8/tickets` answer: the offers of one tier of an activity, as a list whose
 * DIRECT_BUY entry the picker uses. 404 for an unknown activity or a tier that is not one of its open
 * sessions'; 409 when the activity is not on sale.
 */
export async function ticketOffers(scope: RequestScope, eventId: number, ticketCategoryId: number): Promise<TicketOffer[]> {
  const { ctx, now } = scope;
  const loaded = await loadAll(scope, eventId);
  if (!loaded) throw new DomainError('activity_not_found');
  return [tierOffer(loaded, ticketCategoryId, pricing(loaded.table, ctx), now)];
}

export interface InitialPick {
  sessionId: number;
  tierId: number;
  offer: TicketOffer;
}
