/**
 * The pop-up boxes of scenes such as HOME (SPEC.md section 7: POST /api/v1/popBox/list), also
 * readable as GET /api/v1/popBox/list?sceneType=HOME (one scene, for links and caches).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { popBoxes } from '../../services/popups.ts';
import type { ApiEnv } from '../context.ts';
import { success } from '../errors.ts';
import { jsonBody, parseInput } from '../validate.ts';

const MAX_SCENES = 10;
const sceneType = z.string().regex(/^[A-Z][A-Z0-9_]{0,31}$/);
const listBody = z.object({ sceneTypeList: z.array(sceneType).min(1).max(MAX_SCENES) });
const listQuery = z.object({ sceneType });

export const popupRoutes = new Hono<ApiEnv>()
  .post('/v1/popBox/list', async (c) => {
    const { sceneTypeList } = parseInput(listBody, await jsonBody(c.req.raw));
    return c.json(success(await popBoxes(c.get('db'), sceneTypeList, Date.now())));
  })
  .get('/v1/popBox/list', async (c) => {
    const { sceneType: scene } = parseInput(listQuery, c.req.query());
    return c.json(success(await popBoxes(c.get('db'), [scene], Date.now())));
  });
