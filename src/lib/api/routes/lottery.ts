/**
 * The free-ticket lottery ("Watch events for free"). Reading is public; joining and helping need a
 * session. A lottery past its draw time is drawn by the first read (or the cron sweep).
 *
 *   GET  v1/lotteries                          every lottery (open first)
 *   GET  v1/lotteries/{id}                     one lottery, with the caller's entry when signed in
 *   GET  v1/lotteries/{id}/draw                after the draw: seed, commitment, every code, the winners
 *   POST v1/lotteries/{id}/join                join: one entry, its first code and its share link
 *   GET  v1/lotteries/share/{token}            a share link's lottery, sharer and what the caller did
 *   POST v1/lotteries/share/{token}/help       a friend's help: one more code for the sharer
 *   GET  v1/lotteries/share/{token}/image.svg  the share image (SVG with a QR code of the link)
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { shareImageSvg } from '../../media/lottery-share-image.ts';
import { localizedPath } from '../../i18n/locales.ts';
import { requirePublicOrigin } from '../../services/platform/public-origin.ts';
import { helpEntry, joinLottery, shareImageData, shareView } from '../../services/on-sale/lottery-entries.ts';
import { drawRecord, listLotteries, lotteryDetail, sharePath } from '../../services/on-sale/lottery-views.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { queryId } from '../params.ts';
import { maybeSignedIn, signedIn } from '../session.ts';
import { input } from '../validate.ts';

const lotteryParam = z.object({ id: queryId });
const shareParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });

const doc = describe('Lottery');

export const lotteryRoutes = new Hono<ApiEnv>()
  .get('/v1/lotteries', doc.anyone('Every lottery, open ones first'), async (c) => c.json(success(await listLotteries(c.var.scope))))
  .get(
    '/v1/lotteries/share/:token',
    doc.maybe("A share link's lottery, its sharer, and what the caller did"),
    input('param', shareParam),
    maybeSignedIn,
    async (c) => {
      const viewerId = c.var.user?.userId ?? null;
      return c.json(success(await shareView(c.var.scope, c.req.valid('param').token, viewerId)));
    },
  )
  .post(
    '/v1/lotteries/share/:token/help',
    doc.user('Helps a friend: one more code for the sharer'),
    signedIn,
    input('param', shareParam),
    async (c) => c.json(success(await helpEntry(c.var.scope, c.req.valid('param').token))),
  )
  .get(
    '/v1/lotteries/share/:token/image.svg',
    doc.anyone('The share image: an SVG with a QR code of the link'),
    input('param', shareParam),
    async (c) => {
      const { token } = c.req.valid('param');
      const { lottery } = await shareImageData(c.var.scope, token);
      const t = c.get('t');
      const url = new URL(localizedPath(sharePath(token), c.get('ctx').locale), requirePublicOrigin(c.env, c.req.url)).href;
      const svg = shareImageSvg({
        title: t('lottery.title'),
        activityName: lottery.activity.name,
        prize: t('lottery.prize', { prizes: lottery.prizeCount, count: lottery.ticketsPerPrize }),
        drawAt: t('lottery.draw_at', { time: lottery.drawAtLabel }),
        steps: [t('lottery.image.step_open'), t('lottery.image.step_help'), t('lottery.image.step_draw')],
        url,
      });
      return c.body(svg, 200, { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'private, max-age=300' });
    },
  )
  .get(
    '/v1/lotteries/:id',
    doc.maybe("One lottery, with the caller's entry when signed in"),
    input('param', lotteryParam),
    maybeSignedIn,
    async (c) => {
      const viewerId = c.var.user?.userId ?? null;
      return c.json(success(await lotteryDetail(c.var.scope, c.req.valid('param').id, viewerId)));
    },
  )
  .get(
    '/v1/lotteries/:id/draw',
    doc.anyone("A drawn lottery's record: seed, commitment, codes, winners"),
    input('param', lotteryParam),
    async (c) => c.json(success(await drawRecord(c.var.scope, c.req.valid('param').id))),
  )
  .post(
    '/v1/lotteries/:id/join',
    doc.user('Joins a lottery: one entry, its first code and its share link'),
    signedIn,
    input('param', lotteryParam),
    async (c) => c.json(success(await joinLottery(c.var.scope, c.req.valid('param').id))),
  );
