/**
 * What the layout's head says of each public page type beyond its title: the link preview's image and
 * text, and the schema.org data (home's organisation and search action, the breadcrumbs of list
 * pages, an activity's events), all on the configured public origin; nothing without one, as with
 * canonical links.
 */
import { env } from 'cloudflare:workers';
import { SITE_SHARE_CARD, type PreviewImage } from '../domain/link-preview.ts';
import { imageDelivery, shareImage } from '../domain/poster-images.ts';
import { publicOrigin } from '../domain/public-origin.ts';
import { breadcrumbJsonLd, eventsJsonLd, siteJsonLd, type JsonLd } from '../domain/structured-data.ts';
import type { Translate } from '../i18n/index.ts';
import { localizedPath, type Locale } from '../i18n/locales.ts';
import { pathTo } from '../routes.ts';
import type { ActivityDetail } from '../services/catalogue/activity-detail.ts';
import type { InvitationReward } from '../services/accounts/invitations.ts';
import type { LotteryView } from '../services/on-sale/lottery-views.ts';
import { invitationCard, lotteryCard, shareCardPreview } from './share-cards.ts';

/** The origin absolute links are built on (domain/public-origin.ts), or null. */
export function pageOrigin(requestUrl: URL): string | null {
  return publicOrigin(env, requestUrl);
}

/** A poster's share image (domain/poster-images.ts) on the public origin. */
function posterPreviewImage(poster: string, origin: string, alt: string): PreviewImage {
  const { path, ...size } = shareImage(poster, imageDelivery(env.APP_ENV));
  return { url: new URL(path, origin).href, alt, ...size };
}

export function siteShareCard(origin: string, alt: string): PreviewImage {
  const { path, width, height, type } = SITE_SHARE_CARD;
  return { url: new URL(path, origin).href, width, height, type, alt };
}

function absolute(origin: string, path: string, locale: Locale): string {
  return new URL(localizedPath(path, locale), origin).href;
}

export function homeStructuredData(origin: string | null, locale: Locale, t: Translate): JsonLd[] {
  if (!origin) return [];
  return siteJsonLd({
    name: t('site.brand'),
    url: absolute(origin, '/', locale),
    logoUrl: new URL('/logo.svg', origin).href,
    language: locale,
    // Built as text: a URL would percent-encode the braces search engines look for.
    searchUrlTemplate: `${origin}${localizedPath('/s_', locale)}{search_term_string}`,
  });
}

/** A category or search page: home, then the page itself at `path` (locale-free). */
export function listingStructuredData(origin: string | null, locale: Locale, t: Translate, path: string, name: string): JsonLd[] {
  if (!origin) return [];
  return [
    breadcrumbJsonLd([
      { name: t('title.homePage'), url: absolute(origin, '/', locale) },
      { name, url: absolute(origin, path, locale) },
    ]),
  ];
}

/** An activity page: one event per session still to come, and home › category › activity. */
export function activityStructuredData(
  origin: string | null,
  locale: Locale,
  t: Translate,
  detail: ActivityDetail,
  imageUrl: string,
): JsonLd[] {
  if (!origin) return [];
  const url = absolute(origin, pathTo('detailPage', { id: detail.id }), locale);
  const events = eventsJsonLd({
    name: detail.name,
    description: detail.description,
    categorySlug: detail.category.slug,
    url,
    imageUrl,
    language: locale,
    timeZone: detail.timeZone,
    venue: {
      name: detail.venue.name,
      address: detail.venue.address,
      city: detail.venue.city,
      latitude: detail.venue.latitude,
      longitude: detail.venue.longitude,
    },
    performer: detail.performer,
    organizer: { name: t('site.brand'), url: absolute(origin, '/', locale) },
    sale: { state: detail.saleState, notifyMe: detail.notifyMe, saleStartsAt: detail.saleStartsAt },
    prices: detail.priceRange && { ...detail.priceRange, currency: detail.currency, minorDigits: detail.minorDigits },
    sessions: detail.sessions.map((session) => ({
      startsAt: session.startsAt,
      endsAt: session.endsAt,
      status: session.status,
      originalStartsAt: session.originalStartsAt,
      hasTicket: session.hasTicket,
    })),
  });
  const breadcrumbs = breadcrumbJsonLd([
    { name: t('title.homePage'), url: absolute(origin, '/', locale) },
    { name: detail.category.name, url: absolute(origin, `/${detail.category.slug}`, locale) },
    { name: detail.name, url },
  ]);
  return [...events, breadcrumbs];
}

/** An activity page's head: its poster as the preview, when and where (and from what price) as the preview's text, and its events. */
export function activityHead(requestUrl: URL, locale: Locale, t: Translate, detail: ActivityDetail) {
  const origin = pageOrigin(requestUrl);
  if (!origin) return {};
  const previewImage = posterPreviewImage(detail.poster, origin, t('seo.posterAlt', { name: detail.name }));
  const where = { time: detail.timeRange, venue: detail.venue.name };
  return {
    previewImage,
    previewDescription: detail.lowPriceView
      ? t('seo.activity.summaryWithPrice', { ...where, price: detail.lowPriceView })
      : t('seo.activity.summary', where),
    structuredData: activityStructuredData(origin, locale, t, detail, previewImage.url),
  };
}

/** What a lottery gives away, for its preview's text. */
function prizeFacts(lottery: LotteryView) {
  return {
    activity: lottery.activity.name,
    prizes: lottery.prizeCount,
    count: lottery.ticketsPerPrize,
    tier: lottery.tierName,
    drawAt: lottery.drawAtLabel,
  };
}

/** A lottery's own page: its share card (the show, the prize) and the prizes as text; its id stays in the shared link. */
export function lotteryHead(requestUrl: URL, locale: Locale, t: Translate, lottery: LotteryView) {
  const origin = pageOrigin(requestUrl);
  const contentQuery = `?id=${lottery.id}`;
  if (!origin) return { contentQuery };
  return {
    contentQuery,
    previewImage: shareCardPreview(origin, t, lotteryCard(t, locale, lottery)),
    previewDescription: t('seo.lottery.prizes', prizeFacts(lottery)),
  };
}

/** A lottery entry's share page: the lottery's share card, and what a friend's help may win. */
export function lotteryShareHead(requestUrl: URL, locale: Locale, t: Translate, sharerName: string, lottery: LotteryView) {
  const origin = pageOrigin(requestUrl);
  if (!origin) return {};
  return {
    previewImage: shareCardPreview(origin, t, lotteryCard(t, locale, lottery)),
    previewDescription: t('seo.lottery.description', { name: sharerName, ...prizeFacts(lottery) }),
  };
}

/**
 * The login page opened from a friend's invitation link: who invites, the coupons the friend gets (by
 * name, and on the invitation's share card with what each gives, in the page's currency), and the
 * code kept in the link.
 */
export function invitationHead(
  requestUrl: URL,
  locale: Locale,
  currency: string,
  t: Translate,
  inviteCode: string,
  inviterNickname: string,
  rewards: readonly InvitationReward[],
) {
  const origin = pageOrigin(requestUrl);
  const card = origin ? invitationCard(t, locale, currency, rewards) : null;
  return {
    contentQuery: `?inviteCode=${encodeURIComponent(inviteCode)}`,
    previewTitle: t('seo.invite.title', { nickname: inviterNickname }),
    previewDescription:
      rewards.length > 0 ? t('seo.invite.description', { rewards: rewards.map((reward) => reward.name).join(', ') }) : undefined,
    ...(origin && card ? { previewImage: shareCardPreview(origin, t, card) } : {}),
  };
}
