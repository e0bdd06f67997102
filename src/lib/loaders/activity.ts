/**
 * What an activity's page renders (SPEC.md sections 2-4): its detail and the ticket picker's first
 * state, the tiers to wait for (on the waitlist, or in a high-demand on-sale's line), whether the
 * visitor subscribed to notify-me, the buying notes and the page's head. Unknown or malformed ids
 * exit to the 404 page.
 */
import type { AstroGlobal } from 'astro';
import { activityPage } from '../services/catalogue/activity-detail.ts';
import { FAVOURITE_TYPE_NOTIFY, subscriptionStatus } from '../services/catalogue/activity-subscriptions.ts';
import { userOfCookies } from '../services/accounts/sessions.ts';
import type { SessionCookies } from '../domain/visitor.ts';
import { staffRolesOf } from '../services/staff/roles.ts';
import { allows } from '../domain/staff.ts';
import type { RequestScope } from '../services/platform/scope.ts';
import { pageScope } from '../edge/page-scope.ts';
import { currencyNameIn, messagesFor } from '../i18n/index.ts';
import type { MessageKey } from '../i18n/keys.ts';
import { pageI18n } from '../i18n/page.ts';
import { PAYMENT_TIME_LIMIT_MS } from '../config/orders.ts';
import { groupSizeBounds } from '../domain/waitlist.ts';
import { waitlistAnchor } from '../domain/waitlist-anchor.ts';
import { type OnSale, onSaleOf, waitingPageQuery } from '../domain/on-sale.ts';
import { pathTo } from '../routes.ts';
import { activityHead } from '../edge/page-head.ts';
import { PageExit } from './page-exit.ts';
import { keepPrivate } from '../edge/page-request.ts';

const ID_PATTERN = /^[1-9]\d{0,8}$/;

/**
 * The activity's page as a buyer sees it, or, for staff whose roles cover the catalogue, the preview
 * of one not published (a 404 for everyone else). This page is no auth route: the session is read here.
 */
export async function activityOrPreview(scope: RequestScope, id: number, session: SessionCookies | null) {
  const page = await activityPage(scope, id);
  if (page) return { page, preview: false };
  const user = await userOfCookies(scope.db, session, scope.now);
  if (!user || !allows(await staffRolesOf(scope.db, user.userId), 'catalogue')) return { page: null, preview: false };
  return { page: await activityPage(scope, id, true), preview: true };
}

export async function loadActivity(astro: AstroGlobal) {
  const { locale, t, link } = pageI18n(astro.locals);
  const rawId = astro.params.id ?? '';
  if (!ID_PATTERN.test(rawId)) return PageExit.notFound;

  const scope = await pageScope(astro);
  const { db, now } = scope;
  const { page, preview } = await activityOrPreview(scope, Number(rawId), astro.locals.visitor.session);
  if (!page) return PageExit.notFound;
  // A preview is its staff member's alone: no cache keeps it.
  if (preview) keepPrivate(astro);

  const { detail, initial } = page;
  /** The waiting page of a high-demand on-sale (a session's, or a tier's own). */
  const waitingPageOf = (onSale: OnSale) =>
    `${link(pathTo('waitingRoomPage', { id: onSale.sessionId }))}${waitingPageQuery(onSale, new URLSearchParams())}`;
  // Tiers without tickets while the show sells can be waited for: on the waitlist, or, for a
  // high-demand on-sale, in its waiting room's line, which takes the tickets that come back
  // (docs/hot-on-sale.md "Returned tickets"). "Not yet on sale" keeps notify-me.
  const soldOut = detail.saleState === 'soldOut';
  const waitedTiers =
    soldOut || detail.bookable
      ? detail.sessions.flatMap((session) =>
          session.tiers
            .filter((tier) => !tier.hasTicket)
            .map((tier) => {
              const onSale = onSaleOf(session, tier);
              return { id: tier.id, label: `${session.label} · ${tier.specification}`, waitingPage: onSale ? waitingPageOf(onSale) : null };
            }),
        )
      : [];
  const waitlistTiers = waitedTiers.map(({ id, label, waitingPage }) => ({ id, label, joinable: waitingPage === null }));
  const lineTiers = waitedTiers.filter((tier) => tier.waitingPage !== null);
  // Only notify-me and the waitlist depend on who is looking; the session is checked only when one is offered.
  const user = detail.notifyMe || waitlistTiers.length > 0 ? await userOfCookies(db, astro.locals.visitor.session, now) : null;
  const notify = detail.notifyMe && !soldOut;
  const subscribed = user && notify ? await subscriptionStatus({ ...scope, userId: user.userId }, detail.id, FAVOURITE_TYPE_NOTIFY) : false;
  const groupSizes = groupSizeBounds(detail);
  const detailPath = link(pathTo('detailPage', { id: detail.id }));
  const loginUrl = `${link(pathTo('loginPage'))}?redirect=${encodeURIComponent(detailPath)}`;
  // Signed out, each sold-out tier says its waitlist exists; signing in comes back to that tier's.
  const signedOutWaitlist = user
    ? []
    : waitlistTiers
        .filter((tier) => tier.joinable)
        .map((tier) => ({
          ...tier,
          anchor: waitlistAnchor(tier.id),
          loginUrl: `${link(pathTo('loginPage'))}?redirect=${encodeURIComponent(`${detailPath}#${waitlistAnchor(tier.id)}`)}`,
        }));
  const stateHint: MessageKey =
    detail.saleState === 'soldOut' ? 'detail.soldOutHint' : detail.notifyMe ? 'detail.notYetOnSaleHint' : 'detail.endedHint';
  const pickerMessages = messagesFor(locale, ['detail.picker.', 'detail.seating.', 'detail.delivery.']);
  const notes = [
    t('detail.notes.guarantee'),
    t('detail.notes.refund'),
    t('detail.picker.limit', { count: detail.numMax }),
    t('detail.notes.payment', { minutes: PAYMENT_TIME_LIMIT_MS / 60_000 }),
    ...(detail.realNameRequired ? [t('detail.notes.realName')] : []),
    ...(detail.buyingNotes.trim() === '' ? [] : [detail.buyingNotes]),
    t('detail.notes.delivery'),
    t('detail.notes.seating'),
    t('detail.notes.prices', { currency: currencyNameIn(locale, detail.currency, detail.currency) }),
  ];
  const steps = ['select', 'confirm', 'pay', 'completed'] as const;
  return {
    notifyType: FAVOURITE_TYPE_NOTIFY,
    preview,
    head: activityHead(astro.url, locale, t, detail),
    detail,
    groupSizes,
    initial,
    lineTiers,
    loginUrl,
    notes,
    signedOutWaitlist,
    notify,
    pickerMessages,
    soldOut,
    stateHint,
    steps,
    subscribed,
    user,
    waitingPageOf,
    waitlistTiers,
  };
}
