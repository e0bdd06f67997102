/**
 * Share cards (media/share-card.ts) of the lottery and invitation links: what each says, built the
 * same way by the page that names the card in its link preview and by the endpoint that draws it
 * (src/pages/share-cards/[...card].ts), so the version in the page's URL is the one the endpoint
 * finds. The endpoint keeps each drawn card in the edge cache under its versioned path: a card is
 * drawn once per data centre until its offer changes, and then its URL changes too.
 */
import type { APIContext } from 'astro';
import { env, waitUntil } from 'cloudflare:workers';
import type { PreviewImage } from '../domain/link-preview.ts';
import { isMediaFilePath } from '../domain/poster-images.ts';
import {
  parseShareCardPath,
  SHARE_CARD_SIZE,
  SHARE_CARD_TYPE,
  type ShareCardContent,
  type ShareCardSubject,
  shareCardPath,
  shareCardVersion,
} from '../media/share-card.ts';
import { DomainError } from '../domain/errors.ts';
import { type Translate, translator } from '../i18n/index.ts';
import type { Locale } from '../i18n/locales.ts';
import { type InvitationReward, inviteeRewards } from '../services/accounts/invitations.ts';
import { invitationRewardText } from './invitation-rewards.ts';
import { mediaFileResponse } from './media-files.ts';
import { type LotteryView, lotteryDetail } from '../services/on-sale/lottery-views.ts';
import { pageScope } from './page-scope.ts';

/** A lottery's card: the show's poster and name, when, where (venue and city), the prizes in their tier, and the draw. */
export function lotteryCard(t: Translate, locale: Locale, lottery: LotteryView): ShareCardContent {
  return {
    subject: { kind: 'lottery', lotteryId: lottery.id },
    locale,
    badge: t('lottery.title'),
    title: lottery.activity.name,
    lines: [
      lottery.activity.sessionLabel,
      t('seo.card.lottery.venue', { venue: lottery.activity.venueName, city: lottery.activity.cityName }),
      t('seo.card.lottery.prize', { prizes: lottery.prizeCount, count: lottery.ticketsPerPrize, tier: lottery.tierName }),
      t('lottery.draw_at', { time: lottery.drawAtLabel }),
    ],
    poster: lottery.activity.poster,
    brand: t('site.brand'),
  };
}

/** The most coupons an invitation card lists; the preview's description names them all. */
const INVITATION_CARD_REWARDS = 4;

/**
 * An invitation link's card: the coupons a new friend gets and what each gives, in the page's currency,
 * and nothing of the inviter (the same card serves every inviter's link); null when no coupon is offered now.
 */
export function invitationCard(
  t: Translate,
  locale: Locale,
  currency: string,
  rewards: readonly InvitationReward[],
): ShareCardContent | null {
  if (rewards.length === 0) return null;
  return {
    subject: { kind: 'invitation', currency },
    locale,
    badge: t('seo.card.invite.badge'),
    title: t('seo.card.invite.title'),
    lines: rewards
      .slice(0, INVITATION_CARD_REWARDS)
      .map((reward) => t('seo.card.invite.reward', { name: reward.name, offer: invitationRewardText(t, reward) })),
    poster: null,
    brand: t('site.brand'),
  };
}

/** The card as a link preview's image, on the public origin. */
export function shareCardPreview(origin: string, t: Translate, content: ShareCardContent): PreviewImage {
  return {
    url: new URL(shareCardPath(content), origin).href,
    ...SHARE_CARD_SIZE,
    type: SHARE_CARD_TYPE,
    alt: t('seo.card.alt', { badge: content.badge, title: content.title }),
  };
}

/** The data centre's cache: Workers' caches.default (the DOM's CacheStorage type lacks it). */
function edgeCache(): Cache {
  return (caches as unknown as { default: Cache }).default;
}

/** A drawn card never changes under its path (a change of offer makes a new one): anyone may keep it. */
const CARD_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** An old version is sent to the current one, which may change again: nobody keeps the redirect long. */
const REDIRECT_CACHE_CONTROL = 'public, max-age=300';

/** What the card of a subject says now in a language, or null when it has none (an unknown lottery or currency, no coupon offered). */
async function currentCard(context: APIContext, locale: Locale, subject: ShareCardSubject): Promise<ShareCardContent | null> {
  const page = await pageScope(context);
  const currency = subject.kind === 'invitation' ? subject.currency : page.ctx.currency;
  if (!page.currencies.has(currency)) return null;
  const scope = { ...page, ctx: { ...page.ctx, locale, currency } };
  const t = translator(locale);
  if (subject.kind === 'invitation') return invitationCard(t, locale, currency, await inviteeRewards(scope));
  try {
    return lotteryCard(t, locale, await lotteryDetail(scope, subject.lotteryId, null));
  } catch (error) {
    if (error instanceof DomainError && error.code === 'lottery_not_found') return null;
    throw error;
  }
}

/** Says where a card came from: the edge cache (hit) or drawn for this request (miss). */
export const SHARE_CARD_CACHE_HEADER = 'X-Share-Card-Cache';

/** Cards being drawn in this isolate, by path: a burst of chat apps asking for a new card draws it once. */
const drawing = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

function drawOnce(path: string, draw: () => Promise<Uint8Array<ArrayBuffer>>): Promise<Uint8Array<ArrayBuffer>> {
  let jpeg = drawing.get(path);
  if (!jpeg) {
    jpeg = draw().finally(() => drawing.delete(path));
    drawing.set(path, jpeg);
  }
  return jpeg;
}

/** The endpoint's answer: the card from the edge cache or drawn now; an outdated version redirects to the current one. */
export async function shareCardAnswer(context: APIContext): Promise<Response> {
  const { pathname } = context.url;
  const card = parseShareCardPath(pathname);
  if (!card) return new Response(null, { status: 404 });
  // Keyed by path alone: neither the host asked nor a query makes another card.
  const key = new Request(new URL(pathname, 'https://share-card.invalid').href);
  const cached = await edgeCache().match(key);
  if (cached) {
    // A cached answer's headers are immutable, and the middleware adds its own.
    const answer = new Response(cached.body, cached);
    answer.headers.set(SHARE_CARD_CACHE_HEADER, 'hit');
    return answer;
  }

  const content = await currentCard(context, card.locale, card.subject);
  if (!content) return new Response(null, { status: 404, headers: { 'cache-control': 'no-store' } });
  if (shareCardVersion(content) !== card.version) {
    return new Response(null, { status: 302, headers: { location: shareCardPath(content), 'cache-control': REDIRECT_CACHE_CONTROL } });
  }
  const jpeg = await drawOnce(pathname, async () => {
    // Loaded when a card is drawn: the renderer's code is most of the worker's, and no page needs it.
    const { renderShareCard } = await import('../services/catalogue/share-card-image.ts');
    // An uploaded poster is in the MEDIA bucket; fonts and generated posters are static assets.
    return renderShareCard((path) => {
      const url = new URL(path, context.url);
      return isMediaFilePath(path) ? mediaFileResponse(env.MEDIA, path, new Request(url)) : env.ASSETS.fetch(url);
    }, content);
  });
  const headers = { 'content-type': SHARE_CARD_TYPE, 'cache-control': CARD_CACHE_CONTROL };
  waitUntil(edgeCache().put(key, new Response(jpeg, { headers })));
  return new Response(jpeg, { headers: { ...headers, [SHARE_CARD_CACHE_HEADER]: 'miss' } });
}
