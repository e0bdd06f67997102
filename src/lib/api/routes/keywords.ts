/** The hot search keywords (SPEC.md section 7); the header shows the first HOT_KEYWORDS_SHOWN. */
import { Hono } from 'hono';
import { listHotKeywords } from '../../services/search/hot-keywords.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';

const doc = describe('Search');

export const keywordRoutes = new Hono<ApiEnv>().get('/v1/keyWord/hotKeyWord', doc.anyone('The hot search keywords'), (c) =>
  c.json(success(listHotKeywords(c.var.scope.reference, c.get('ctx').locale, c.var.scope.now))),
);
