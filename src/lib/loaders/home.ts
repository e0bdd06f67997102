/**
 * What home renders: the city's home configuration, the shows of the coming days, and the HOME
 * pop-up boxes, with a signed-in user's new invitee / inviter coupons first, each shown once (the
 * inviteCouponSeen cookie, set when they are rendered).
 */
import type { AstroGlobal } from 'astro';
import { HOME_POPUP_SCENE } from '../config/browse.ts';
import { INVITE_COUPON_SEEN_COOKIE, PREFERENCE_COOKIE_MAX_AGE_S } from '../config/request.ts';
import { known, readTogether } from '../data/read-together.ts';
import { inviteCouponSeenValue, seenInviteCouponId } from '../domain/invitations.ts';
import { ALL_CATEGORIES } from '../domain/listing-url.ts';
import { homeStructuredData, pageOrigin } from '../edge/page-head.ts';
import { keepUnshared } from '../edge/page-request.ts';
import { pageScope } from '../edge/page-scope.ts';
import { pageI18n } from '../i18n/page.ts';
import { pathTo } from '../routes.ts';
import { userOfCookies } from '../services/accounts/sessions.ts';
import { calendarListRead } from '../services/catalogue/calendar.ts';
import { currentCityRow, homeConfigRead } from '../services/catalogue/catalogue.ts';
import { popBoxMessagesRead } from '../services/catalogue/popups.ts';
import { couponAmountText, inviteCouponPopupsRead } from '../services/orders/coupons.ts';

const RECENT_SHOWS_LISTED = 10;

export async function loadHome(astro: Pick<AstroGlobal, 'locals' | 'url' | 'cookies'>) {
  const { locale, t } = pageI18n(astro.locals);
  const scope = await pageScope(astro);
  const { db, now } = scope;
  const tkd = { title: t('site.title'), keywords: t('site.keywords'), description: t('site.description') };
  // Only a signed-in visitor (never served from the shared cache) costs a round trip before the page's one batch.
  const { visitor } = astro.locals;
  const user = visitor.session ? await userOfCookies(db, visitor.session, now) : null;
  const { home, recent, generalBoxes, invitePopups } = await readTogether(db, {
    home: homeConfigRead(scope, tkd),
    recent: calendarListRead(
      scope,
      { cityCode: currentCityRow(scope.reference, scope.ctx.cityId).cityCode, type: ALL_CATEGORIES },
      null,
      RECENT_SHOWS_LISTED,
    ),
    generalBoxes: visitor.hidePopBox ? known([]) : popBoxMessagesRead(scope, HOME_POPUP_SCENE),
    invitePopups: user
      ? inviteCouponPopupsRead(
          { ...scope, userId: user.userId },
          seenInviteCouponId(astro.cookies.get(INVITE_COUPON_SEEN_COOKIE)?.value, user.userId),
        )
      : known([]),
  });
  const city = home.currentCity;
  if (user && invitePopups.length > 0) {
    const lastShown = Math.max(...invitePopups.map((popup) => popup.id));
    keepUnshared(astro.locals);
    astro.cookies.set(INVITE_COUPON_SEEN_COOKIE, inviteCouponSeenValue(user.userId, lastShown), {
      path: '/',
      maxAge: PREFERENCE_COOKIE_MAX_AGE_S,
      sameSite: 'lax',
    });
  }
  // The invite coupons come first: they are the user's own news, and each is shown only this once.
  const popBoxes = [
    ...invitePopups.map((popup) => {
      const offer = popup.amount
        ? t('coupons.amountOff', { amount: couponAmountText(popup.amount, popup.mainAmount, t) })
        : t('coupons.popup.percentOff', { percent: popup.percentOff ?? 0 });
      return {
        id: `invite-${popup.id}`,
        title: t(`coupons.popup.${popup.type}.title`),
        body: t(popup.count > 1 ? 'coupons.popup.bodyMany' : 'coupons.popup.body', { offer, name: popup.name, count: popup.count }),
        link: pathTo('couponListPage'),
      };
    }),
    ...generalBoxes,
  ];
  const monitored = [
    ['banners', home.banners],
    ['categories', home.categories],
    ['rareActivities', home.rareActivities],
    ['discountActivities', home.discountActivities],
    ['recentShows', recent.activities],
  ] as const;
  for (const [name, list] of monitored) {
    // SPEC.md section 8: the home page reports empty lists to monitoring (the server log here).
    if (list.length === 0) console.warn(JSON.stringify({ monitor: 'home_empty_list', list: name, cityId: city.cityId }));
  }
  return {
    home,
    recent,
    city,
    popBoxes,
    showAppBanner: !visitor.hideAppInfo,
    sections: [
      { id: 'hot', title: t('home.hot'), cards: home.rareActivities, empty: 'rareActivities' },
      { id: 'bargains', title: t('home.bargains'), cards: home.discountActivities, empty: 'discountActivities' },
    ],
    structuredData: homeStructuredData(pageOrigin(astro.url), locale, t),
  };
}
