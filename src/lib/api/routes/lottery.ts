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
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import { TOKEN_COOKIE } from '../../config.ts';
import { shareImageSvg } from '../../domain/lottery-share-image.ts';
import { localizedPath } from '../../i18n/locales.ts';
import { requireUser, sessionUser } from '../../services/auth.ts';
import { requirePublicOrigin } from '../../services/public-origin.ts';
import { drawRecord, helpEntry, joinLottery, listLotteries, lotteryDetail, sharePath, shareImageData, shareView } from '../../services/lottery.ts';
import type { ApiEnv } from '../context.ts';
import { success } from '../errors.ts';
import { parseInput } from '../validate.ts';
import { queryId } from '../params.ts';

const lotteryParam = z.object({ id: queryId });
const shareParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });

async function viewerId(c: Context<ApiEnv>): Promise<number | null> {
  const user = await sessionUser(c.get('db'), getCookie(c, TOKEN_COOKIE), Date.now());
  return user?.userId ?? null;
}

export const lotteryRoutes = new Hono<ApiEnv>()
  .get('/v1/lotteries', async (c) => c.json(success(await listLotteries(c.get('db'), c.get('ctx'), Date.now()))))
  .get('/v1/lotteries/share/:token', async (c) => {
    const { token } = parseInput(shareParam, c.req.param());
    return c.json(success(await shareView(c.get('db'), c.get('ctx'), token, await viewerId(c), Date.now())));
  })
  .post('/v1/lotteries/share/:token/help', async (c) => {
    const user = await requireUser(c);
    const { token } = parseInput(shareParam, c.req.param());
    return c.json(success(await helpEntry(c.get('db'), token, user.userId, Date.now())));
  })
  .get('/v1/lotteries/share/:token/image.svg', async (c) => {
    const { token } = parseInput(shareParam, c.req.param());
    const { lottery } = await shareImageData(c.get('db'), c.get('ctx'), token, Date.now());
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
  })
  .get('/v1/lotteries/:id', async (c) => {
    const { id } = parseInput(lotteryParam, c.req.param());
    return c.json(success(await lotteryDetail(c.get('db'), c.get('ctx'), id, await viewerId(c), Date.now())));
  })
  .get('/v1/lotteries/:id/draw', async (c) => {
    const { id } = parseInput(lotteryParam, c.req.param());
    return c.json(success(await drawRecord(c.get('db'), id, Date.now())));
  })
  .post('/v1/lotteries/:id/join', async (c) => {
    const user = await requireUser(c);
    const { id } = parseInput(lotteryParam, c.req.param());
    return c.json(success(await joinLottery(c.get('db'), c.get('ctx'), user.userId, id, Date.now())));
  });
