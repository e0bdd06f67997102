/** The hot search keywords (SPEC.md section 7); the header shows the first HOT_KEYWORDS_SHOWN. */
import { Hono } from 'hono';
import { listHotKeywords } from '../../services/hot-keywords.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';

const doc = describe('Search');

export const keywordRoutes = new Hono<ApiEnv>().get('/v1/keyWord/hotKeyWord', doc.anyone('The hot search keywords'), async (c) =>
  c.json(success(await listHotKeywords(c.get('db'), c.get('ctx').locale))),
);
