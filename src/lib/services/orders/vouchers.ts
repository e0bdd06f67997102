/**
 * The voucher of an order: what the gate needs per ticket (number, state, and for a valid
 * e-ticket its entry secret, from which the voucher page computes the rotating entry code on the
 * holder's device) plus the show it admits to. It is public behind the link's key, which
 * is checked before the database is asked, so a wrong key learns nothing about the order.
 */
import { asc, eq } from 'drizzle-orm';
import type { DeliveryType } from '../../domain/delivery.ts';
import { orders, tickets } from '../../db/schema.ts';
import type { OrderStatus } from '../../domain/order-state.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import { localizedAddress, localizedName } from '../../i18n/locales.ts';
import type { RequestScope } from '../platform/scope.ts';
import { orderWithShowQuery } from '../catalogue/show-query.ts';
import { entrySecrets } from '../gate/entry-secrets.ts';
import { voucherKeyValid } from './voucher-link.ts';

export type TicketStatus = (typeof tickets.$inferSelect)['status'];

export interface VoucherTicket {
  ticketNo: string;
  seat: string | null;
  status: TicketStatus;
  /**
   * The secret the rotating entry code is computed from (domain/entry-code.ts): only a valid
   * e-ticket has one (a paper ticket is its own entry; a used, resold or void one admits no more).
   */
  entrySecret: string | null;
}

export interface Voucher {
  orderNo: string;
  orderStatus: OrderStatus;
  activity: { name: string; venueName: string; venueAddress: string; cityName: string };
  session: { startsAt: number; label: string };
  tier: { name: string };
  deliveryType: DeliveryType;
  trackingNo: string | null;
  pickup: { address: string; time: number; label: string } | null;
  tickets: VoucherTicket[];
}

/** Order numbers are digits (letters and hyphens allowed for other formats); keys are base64url signatures. */
const ORDER_NO_PATTERN = /^[A-Za-z0-9-]{1,40}$/;
const KEY_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The voucher a link opens (its `order` and `key` parameters as given), or null when either is
 * malformed, the key was not signed for the order, or the order is gone: all look the same.
 */
export async function voucherFor(scope: RequestScope, orderNo: string, key: string): Promise<Voucher | null> {
  const { db, env } = scope;
  const { locale } = scope.ctx;
  if (!ORDER_NO_PATTERN.test(orderNo) || !KEY_PATTERN.test(key) || !(await voucherKeyValid(env, orderNo, key))) return null;
  const [row] = await orderWithShowQuery(db).where(eq(orders.orderNo, orderNo));
  if (!row) return null;
  const { order, activity, venue, city, session, tier } = row;
  const ticketRows = await db.select().from(tickets).where(eq(tickets.orderId, order.id)).orderBy(asc(tickets.id));
  const entrySecretOf = await entrySecrets(env);
  const timeLabel = (at: number) => formatSessionTime(at, locale, city.timeZone);
  return {
    orderNo: order.orderNo,
    orderStatus: order.status,
    activity: {
      name: localizedName(activity, locale),
      venueName: localizedName(venue, locale),
      venueAddress: localizedAddress(venue, locale),
      cityName: localizedName(city, locale),
    },
    session: { startsAt: session.startsAt, label: timeLabel(session.startsAt) },
    tier: { name: localizedName(tier, locale) },
    deliveryType: order.deliveryType as DeliveryType,
    trackingNo: order.trackingNo,
    pickup:
      order.pickupAddress && order.pickupTime !== null
        ? { address: order.pickupAddress, time: order.pickupTime, label: timeLabel(order.pickupTime) }
        : null,
    tickets: await Promise.all(
      ticketRows.map(async (ticket) => ({
        ticketNo: ticket.ticketNo,
        seat: ticket.seat,
        status: ticket.status,
        entrySecret: ticket.status === 'valid' && ticket.entryNonce ? await entrySecretOf(ticket.ticketNo, ticket.entryNonce) : null,
      })),
    ),
  };
}
