/**
 * What a waiting room's page renders (auth route): the buyer's place in the line of a high-demand
 * session, or with `?tier=` of one tier's own on-sale, taken when the page opens (or the one their
 * account already has), with its texts; or the Turnstile widget when a new place needs a solved
 * challenge. A buyer let through goes on to the order confirmation, or to the activity page to
 * choose tickets when they joined before the sale opened.
 */
import type { AstroGlobal } from 'astro';
import { HEADER } from '../config/request.ts';
import { DomainError } from '../domain/errors.ts';
import { choicesQuery, onSaleOfPage, WAITING_ROOM_TIER_PARAM } from '../domain/on-sale.ts';
import { formatOrderTime } from '../domain/order-pages.ts';
import { formatWait } from '../domain/waiting-room.ts';
import { pageI18n } from '../i18n/page.ts';
import { pathTo } from '../routes.ts';
import { claimedPage } from './signed-in.ts';
import { joinWaitingRoom } from '../services/on-sale/waiting-room.ts';
import type { ChallengeWidget } from '../services/protection/turnstile.ts';
import { pageChallenge } from '../edge/challenge.ts';
import { presentedChallenge } from '../domain/turnstile.ts';
import { PageExit } from './page-exit.ts';

export async function loadWaitingRoom(astro: AstroGlobal) {
  const { locale, t, link } = pageI18n(astro.locals);
  const claimed = await claimedPage(astro);
  if (claimed instanceof PageExit) return claimed;

  const sessionId = Number(astro.params.id);
  const onSale = onSaleOfPage(sessionId, astro.url.searchParams);
  if (!/^[1-9]\d{0,9}$/.test(astro.params.id ?? '') || !onSale) return PageExit.notFound;
  const challenge = presentedChallenge(claimed.env, astro.url, astro.request.headers.get(HEADER.connectingAddress), undefined);
  let view: Awaited<ReturnType<typeof joinWaitingRoom>> | null = null;
  // A new place needs a solved Turnstile challenge: the page shows the widget, whose token joins and reloads.
  let widget: ChallengeWidget | null = null;
  try {
    view = await joinWaitingRoom(claimed, onSale, challenge);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'unauthorized') return PageExit.signIn;
    if (error instanceof DomainError && error.code === 'waiting_room_not_found') return PageExit.notFound;
    if (!(error instanceof DomainError && error.code === 'challenge_required')) throw error;
    widget = pageChallenge(astro, claimed.env);
  }
  const joinUrl = `/api/v1/waiting-rooms/${sessionId}${onSale.tierId === null ? '' : `?${WAITING_ROOM_TIER_PARAM}=${onSale.tierId}`}`;
  // Through the line: to the tickets chosen before queueing, or (joined early, before any could be chosen) to choose them.
  const next = (activityId: number) =>
    astro.url.searchParams.has('listingId')
      ? `${link(pathTo('orderConfirmPage'))}${choicesQuery(astro.url.searchParams)}`
      : link(pathTo('detailPage', { id: activityId }));
  if (view?.state === 'admitted') return PageExit.redirect(next(view.activityId), 303);

  const placeText = view?.place == null ? '' : t('waitingRoom.place', { place: view.place });
  const estimateText =
    view === null
      ? ''
      : view.state === 'early'
        ? t('waitingRoom.early', { time: formatOrderTime(view.opensAt, locale) })
        : view.soldOut
          ? t('waitingRoom.soldOut')
          : view.estimatedWaitMs === null
            ? t('waitingRoom.estimateUnknown')
            : t('waitingRoom.estimate', { duration: formatWait(view.estimatedWaitMs, locale) });
  return {
    estimateText,
    joinUrl,
    next,
    onSale,
    placeText,
    sessionId,
    view,
    widget,
  };
}
