/**
 * The pop-up boxes of scenes such as HOME (SPEC.md section 7: POST /api/v1/popBox/list), also
 * readable as GET /api/v1/popBox/list?sceneType=HOME (one scene, for links and caches).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { popBoxes } from '../../services/catalogue/popups.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { input } from '../validate.ts';

const MAX_SCENES = 10;
const sceneType = z.string().regex(/^[A-Z][A-Z0-9_]{0,31}$/);
const listBody = z.object({ sceneTypeList: z.array(sceneType).min(1).max(MAX_SCENES) });
const listQuery = z.object({ sceneType });

const doc = describe('Catalogue');

export const popupRoutes = new Hono<ApiEnv>()
  .post('/v1/popBox/list', doc.anyone('The pop-up boxes of some scenes'), input('json', listBody), async (c) =>
    c.json(success(await popBoxes(c.var.scope, c.req.valid('json').sceneTypeList))),
  )
  .get('/v1/popBox/list', doc.anyone('The pop-up boxes of one scene'), input('query', listQuery), async (c) =>
    c.json(success(await popBoxes(c.var.scope, [c.req.valid('query').sceneType]))),
  );
