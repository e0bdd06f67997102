/**
 * The local database, for tests and demo scripts (local builds only: LOCAL_ONLY_API_PATH; 404 anywhere else).
 *
 *   POST v1/dev/sql   { sql } runs one statement through the worker's own binding and answers its rows
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { runStatement } from '../../services/dev-database.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { input } from '../validate.ts';

const statementBody = z.object({ sql: z.string().min(1) });

const doc = describe('Local development');

export const devRoutes = new Hono<ApiEnv>().post(
  '/v1/dev/sql',
  doc.anyone('Runs one SQL statement on the local database and answers its rows (local builds only)'),
  input('json', statementBody),
  async (c) => c.json(success(await runStatement(c.get('db'), c.req.valid('json').sql))),
);
