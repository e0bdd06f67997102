/**
 * What the order detail page renders (auth route; SPEC.md sections 2, 3 and 6): the buyer's order, its
 * status and hint, what changed of its show, and whether and until when its attendees may change.
 * A malformed id, a missing order and someone else's order all exit to the 404 page.
 */
import type { AstroGlobal } from 'astro';
import { ATTENDEE_CHANGE_CUTOFF_MS } from '../config/orders.ts';
import { formatOrderTime, parseOrderId, statusKeys } from '../domain/order-pages.ts';
import { messagesFor } from '../i18n/index.ts';
import { pageI18n } from '../i18n/page.ts';
import { orNotFound } from './not-found.ts';
import { orderDetail } from '../services/orders/queries.ts';
import { orderAttendeeChanges } from '../services/orders/attendee-changes.ts';
import { signedInPage } from './signed-in.ts';
import { PageExit } from './page-exit.ts';

export async function loadOrderDetail(astro: AstroGlobal) {
  const { locale, t } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;
  const orderId = parseOrderId(astro.params.id);
  if (orderId === null) return PageExit.notFound;

  const { now } = signedIn.scope;
  const order = await orNotFound(orderDetail(signedIn.scope, orderId));
  if (order instanceof PageExit) return order;

  const time = (ms: number) => formatOrderTime(ms, locale);
  const unpaid = order.status === 'pending_payment';
  const statusText = statusKeys(order.status, order.paymentSubstatus)
    .map((key) => t(key))
    .join(' · ');
  const hint =
    order.status === 'pending_payment'
      ? order.paymentSubstatus
        ? t(`orders.hint.${order.paymentSubstatus}`)
        : t('orders.hint.pending_payment', { deadline: time(order.paymentDeadline) })
      : order.status === 'cancelled'
        ? t(`orders.hint.cancelled.${order.cancelReason ?? 'user'}`)
        : t(`orders.hint.${order.status}`);
  const { cost } = order;
  // An order that will still get tickets says where they will appear; a closed one without any says nothing.
  const awaitingTickets = order.status === 'pending_payment' || order.status === 'pending_ticketing';
  const hasActions =
    order.actions.pay || order.actions.cancel || order.actions.confirmReceipt || order.actions.requestRefund || order.transferable > 0;
  const showChange = order.showChange;
  const showChangeText = !showChange
    ? null
    : showChange.status === 'cancelled'
      ? order.status === 'refunded'
        ? t('orders.show.cancelled', { amount: order.refund?.formatted ?? showChange.refund.formatted })
        : t('orders.show.cancelledUnpaid')
      : order.status === 'refunded'
        ? t('orders.show.postponedRefunded', { amount: order.refund?.formatted ?? showChange.refund.formatted })
        : t('orders.show.postponed', { from: showChange.originalLabel ?? order.session.label, to: order.session.label });
  const anyListed = order.tickets.some((ticket) => ticket.listed);
  const countdownMessages = messagesFor(locale, ['orders.countdown.']);
  // A real-name order says whether and until when its attendees may change; a paid order without names says why it has none to change.
  const attendeeChanges = order.attendees.length > 0 ? await orderAttendeeChanges(signedIn.scope, order.id) : null;
  const namesNothing =
    order.attendees.length === 0 && order.paidAt !== null && ['pending_ticketing', 'pending_receipt', 'completed'].includes(order.status);
  const changeNote = !attendeeChanges
    ? null
    : attendeeChanges.refusal === null
      ? t('orders.change.until', { deadline: time(attendeeChanges.deadline) })
      : attendeeChanges.refusal === 'attendee_change_closed'
        ? t('orders.change.closed', { hours: ATTENDEE_CHANGE_CUTOFF_MS / 3_600_000 })
        : t('orders.change.notPaid');
  const changeMessages = messagesFor(locale, ['orders.change.', 'orders.detail.attendeeId', 'profile.attendee.', 'error.']);
  return {
    anyListed,
    attendeeChanges,
    awaitingTickets,
    changeMessages,
    changeNote,
    cost,
    countdownMessages,
    hasActions,
    hint,
    namesNothing,
    now,
    order,
    showChange,
    showChangeText,
    statusText,
    time,
    unpaid,
  };
}
