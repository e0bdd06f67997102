/** The hot search keywords (SPEC.md section 7); the header shows the first HOT_KEYWORDS_SHOWN. */
import { Hono } from 'hono';
import { listHotKeywords } from '../../services/hot-keywords.ts';
import type { ApiEnv } from '../context.ts';
import { success } from '../errors.ts';

export const keywordRoutes = new Hono<ApiEnv>()
  .get('/v1/keyWord/hotKeyWord', async (c) => c.json(success(await listHotKeywords(c.get('db'), c.get('ctx').locale))));
