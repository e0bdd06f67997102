/**
 * What the lottery pages render: without `?id=` the list of lotteries, with it one lottery as the
 * visitor sees it (their entry when signed in) and its link preview. An id that is malformed or
 * names no lottery exits to the 404 page.
 */
import type { AstroGlobal } from 'astro';
import { messagesFor } from '../i18n/index.ts';
import { pageI18n } from '../i18n/page.ts';
import { orNotFound } from './not-found.ts';
import { pathTo } from '../routes.ts';
import { userOfCookies } from '../services/accounts/sessions.ts';
import { listLotteries, lotteryDetail, type LotteryDetail } from '../services/on-sale/lottery-views.ts';
import { pageScope } from '../edge/page-scope.ts';
import { lotteryHead } from '../edge/page-head.ts';
import { PageExit } from './page-exit.ts';

const ID_PATTERN = /^[1-9]\d{0,8}$/;

export async function loadLottery(astro: AstroGlobal) {
  const { locale, t, link } = pageI18n(astro.locals);
  const rawId = astro.url.searchParams.get('id');
  if (rawId !== null && !ID_PATTERN.test(rawId)) return PageExit.notFound;

  const scope = await pageScope(astro);
  const { db, now } = scope;
  const listPath = link(pathTo('OverloadTicketDetail'));

  let detail: LotteryDetail | null = null;
  let signedIn = false;
  if (rawId !== null) {
    const user = await userOfCookies(db, astro.locals.visitor.session, now);
    signedIn = user !== null;
    const found = await orNotFound(lotteryDetail(scope, Number(rawId), user?.userId ?? null));
    if (found instanceof PageExit) return found;
    detail = found;
  }
  const lotteries = detail ? [] : await listLotteries(scope);

  const detailPath = detail ? `${listPath}?id=${detail.id}` : listPath;
  const loginUrl = `${link(pathTo('loginPage'))}?redirect=${encodeURIComponent(detailPath)}`;
  const appInfoUrl = `/appInfo.html?language=${encodeURIComponent(locale)}`;
  const localePrefix = astro.locals.localeFromPrefix ? `/${locale}` : '';
  const entryMessages = messagesFor(locale, ['lottery.']);
  return {
    head: detail ? lotteryHead(astro.url, locale, t, detail) : {},
    appInfoUrl,
    detail,
    entryMessages,
    listPath,
    localePrefix,
    loginUrl,
    lotteries,
    signedIn,
  };
}
