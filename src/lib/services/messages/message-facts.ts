/** The facts a message reports, read in one batch with the rest of its delivery and put in the recipient's language. */
import { eq } from 'drizzle-orm';
import { ORDER_TIME_ZONE } from '../../config/orders.ts';
import { prefixedTable } from '../../data/batch-columns.ts';
import type { Db } from '../../data/client.ts';
import { type Bound, compiledSelect } from '../../data/compiled-select.ts';
import { type Answers, known, read } from '../../data/read-together.ts';
import {
  activities,
  cities,
  listings,
  lotteries,
  type messages,
  orders,
  ticketTiers,
  users,
  venues,
  waitlistOffers,
} from '../../db/schema.ts';
import type { MessageFacts, OrderFacts, ShowFacts } from '../../domain/messages.ts';
import { formattedMoney, type CurrencyTable } from '../../domain/money.ts';
import { allInAmount } from '../../domain/pricing.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import { offerCheckoutPath } from '../../domain/waitlist.ts';
import { DEFAULT_LOCALE, isLocale, localizedName, localizedPath, type Locale } from '../../i18n/locales.ts';
import { pathTo } from '../../routes.ts';
import type { ServiceEnv } from '../platform/env.ts';
import { orderWithShowQuery, showQuery } from '../catalogue/show-query.ts';
import { voucherUrl } from '../orders/voucher-link.ts';

export type MessageRow = typeof messages.$inferSelect;

export interface Payload {
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

// Read by every delivery of a message about an order (most of them): its SQL is built once (data/compiled-select.ts).
const orderFactsStatement = compiledSelect<{ orderId: number }, ReturnType<typeof orderFactsSelect>>(['orderId'], orderFactsSelect);

function orderFactsSelect(db: Db, { orderId }: { orderId: Bound<number> }) {
  return orderWithShowQuery(db).where(eq(orders.id, orderId));
}

/** Everything a message's text needs: reads that go into the delivery's one batch. */
export function factsReads(db: Db, message: MessageRow, payload: Payload) {
  return {
    user: read(
      { user: db.select({ languageCode: users.languageCode }).from(users).where(eq(users.id, message.userId)) },
      ({ user: [row] }) => (isLocale(row?.languageCode) ? row.languageCode : DEFAULT_LOCALE),
    ),
    order:
      message.orderId === null
        ? known(null)
        : read({ order: orderFactsStatement(db, { orderId: message.orderId }) }, ({ order: [row] }) => row ?? null),
    offer:
      payload.offerId === undefined
        ? known(null)
        : read(
            {
              offer: showQuery(db, { offer: prefixedTable('offer', waitlistOffers) })
                .innerJoin(listings, eq(listings.tierId, ticketTiers.id))
                .innerJoin(waitlistOffers, eq(waitlistOffers.listingId, listings.id))
                .where(eq(waitlistOffers.id, payload.offerId)),
            },
            ({ offer: [row] }) => row ?? null,
          ),
    activity:
      payload.activityId === undefined
        ? known(null)
        : read(
            {
              activity: db
                .select({
                  activity: prefixedTable('activity', activities),
                  venue: prefixedTable('venue', venues),
                  city: prefixedTable('city', cities),
                })
                .from(activities)
                .innerJoin(venues, eq(venues.id, activities.venueId))
                .innerJoin(cities, eq(cities.id, venues.cityId))
                .where(eq(activities.id, payload.activityId)),
            },
            ({ activity: [row] }) => (row ? { ...row, session: { startsAt: row.activity.startsAt } } : null),
          ),
    lottery:
      payload.lotteryId === undefined
        ? known(null)
        : read(
            {
              lottery: showQuery(db, {})
                .innerJoin(lotteries, eq(lotteries.tierId, ticketTiers.id))
                .where(eq(lotteries.id, payload.lotteryId)),
            },
            ({ lottery: [row] }) => row ?? null,
          ),
  };
}

export type FactsRows = Answers<ReturnType<typeof factsReads>>;

interface FactsContext {
  locale: Locale;
  origin: string;
  table: CurrencyTable;
  /** What voucher links are signed with. */
  env: ServiceEnv;
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
export async function factsOf(
  message: MessageRow,
  payload: Payload,
  rows: FactsRows,
  context: Omit<FactsContext, 'locale'>,
): Promise<{ facts: MessageFacts; locale: Locale } | null> {
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
    unitPrice: money(allInAmount(order.unitPrice, 1), order.currency),
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
