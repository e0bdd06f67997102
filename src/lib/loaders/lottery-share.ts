/**
 * What a lottery entry's share page renders: the lottery, who shares it and whether the visitor can
 * help them with a code, and its link preview. A token that is malformed or names no entry exits to
 * the 404 page.
 */
import type { AstroGlobal } from 'astro';
import { pageI18n } from '../i18n/page.ts';
import { orNotFound } from './not-found.ts';
import { pathTo } from '../routes.ts';
import { userOfCookies } from '../services/accounts/sessions.ts';
import { sharePath } from '../services/on-sale/lottery-views.ts';
import { shareView } from '../services/on-sale/lottery-entries.ts';
import { pageScope } from '../edge/page-scope.ts';
import { lotteryShareHead } from '../edge/page-head.ts';
import { PageExit } from './page-exit.ts';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export async function loadLotteryShare(astro: AstroGlobal) {
  const { locale, t, link } = pageI18n(astro.locals);
  const token = astro.params.id ?? '';
  if (!TOKEN_PATTERN.test(token)) return PageExit.notFound;

  const scope = await pageScope(astro);
  const { db, now } = scope;
  const user = await userOfCookies(db, astro.locals.visitor.session, now);
  const view = await orNotFound(shareView(scope, token, user?.userId ?? null));
  if (view instanceof PageExit) return view;
  const { lottery, sharerName, sharerCodeCount, viewer } = view;
  const lotteryPath = `${link(pathTo('OverloadTicketDetail'))}?id=${lottery.id}`;
  const loginUrl = `${link(pathTo('loginPage'))}?redirect=${encodeURIComponent(link(sharePath(token)))}`;
  const appInfoUrl = `/appInfo.html?language=${encodeURIComponent(locale)}`;
  const open = lottery.phase === 'open';
  const canHelp = open && viewer !== null && !viewer.isSharer && !viewer.helpedInLottery && sharerCodeCount < lottery.maxCodesPerEntry;
  return {
    head: lotteryShareHead(astro.url, locale, t, sharerName, lottery),
    appInfoUrl,
    canHelp,
    loginUrl,
    lottery,
    lotteryPath,
    open,
    sharerCodeCount,
    sharerName,
    token,
    viewer,
  };
}
