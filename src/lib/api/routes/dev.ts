/**
 * The API's local-only part, for tests, demo scripts and the person at the keyboard. app.ts mounts it
 * in a local build only (LOCAL_BUILD, integrations/local-build.ts): a production bundle holds none of this
 * code, so no spelling of these paths reaches it. Everything is built inside `mountLocalOnlyRoutes`, so
 * the module has nothing at its top level that a production bundle would have to keep.
 *
 *   POST v1/dev/sql                             { sql } runs one statement through the worker's own binding and answers its rows
 *   GET  v1/dev/outbox?target=                  the latest 50 messages "sent", or those to one email or phone
 *   POST v1/dev/waiting-rooms/{id}[?tier=]      { admissionsPerMinute?, admitNext? } changes a room's rate or lets the next through
 *   POST v1/dev/orders/{id}/end-payment-time    the signed-in buyer's unpaid order expires now
 *   POST v1/dev/fixtures/{name}                 one of the end-to-end tests' typed fixtures (services/platform/dev-fixtures.ts)
 *   GET  /api/openapi.json, /api/docs           the API document (docs.ts) and its reading page
 */
import { Hono, type Context, type Next } from 'hono';
import type { OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';
import { DomainError } from '../../domain/errors.ts';
import { normalizeEmail } from '../../domain/validation.ts';
import { runStatement } from '../../services/platform/dev-database.ts';
import { type DevFixture, type DevFixtureName, devFixtures } from '../../services/platform/dev-fixtures.ts';
import { outboxFor } from '../../services/messages/providers/dev-outbox.ts';
import { endPaymentTimeNow } from '../../services/orders/lifecycle.ts';
import { orderDetail } from '../../services/orders/queries.ts';
import { admitNextBuyers, setAdmissionRate } from '../../services/on-sale/waiting-room.ts';
import type { ApiEnv } from '../context.ts';
import { describe, docsPage, openApiDocument } from '../docs.ts';
import { success } from '../errors.ts';
import { accountText, idParam } from '../params.ts';
import { signedIn } from '../session.ts';
import { input } from '../validate.ts';
import { onSaleOf, roomQuery } from './waiting-room.ts';

/**
 * The first handler of every local-only route: a local build deployed by mistake (APP_ENV=production)
 * still answers 404. Bound to the routes themselves, so it runs on exactly the requests Hono routed here,
 * whatever the spelling of their path.
 */
async function localEnvironmentOnly(c: Context<ApiEnv>, next: Next): Promise<void> {
  if (c.env.APP_ENV !== 'local') throw new DomainError('not_found');
  await next();
}

function devRoutes() {
  const statementBody = z.object({ sql: z.string().min(1) });
  const outboxQuery = z.object({ target: accountText.optional() });
  const roomBody = z.object({
    admissionsPerMinute: z.number().int().min(0).max(1_000_000).optional(),
    admitNext: z.number().int().min(1).max(1_000_000).optional(),
  });
  const doc = describe('Local development');
  const routes = new Hono<ApiEnv>()
    .post(
      '/v1/dev/sql',
      localEnvironmentOnly,
      doc.anyone('Runs one SQL statement on the local database and answers its rows (local builds only)'),
      input('json', statementBody),
      async (c) => c.json(success(await runStatement(c.get('db'), c.req.valid('json').sql))),
    )
    .get(
      '/v1/dev/outbox',
      localEnvironmentOnly,
      doc.anyone('The latest messages "sent", or those to one email or phone (local builds only)'),
      input('query', outboxQuery),
      async (c) => {
        const { target } = c.req.valid('query');
        const normalized = target === undefined ? undefined : target.includes('@') ? normalizeEmail(target) : target.trim();
        return c.json(success(await outboxFor(c.get('db'), normalized)));
      },
    )
    .post(
      '/v1/dev/waiting-rooms/:id',
      localEnvironmentOnly,
      doc.anyone("Changes a waiting room's rate or lets the next buyers through now (local builds only)"),
      input('param', idParam),
      input('query', roomQuery),
      input('json', roomBody),
      async (c) => {
        const { scope } = c.var;
        const onSale = onSaleOf(c.req.valid('param').id, c.req.valid('query'));
        const { admissionsPerMinute, admitNext } = c.req.valid('json');
        let front = admissionsPerMinute === undefined ? null : await setAdmissionRate(scope, onSale, admissionsPerMinute);
        if (admitNext !== undefined) front = await admitNextBuyers(scope, onSale, admitNext);
        return c.json(success(front));
      },
    )
    .post(
      '/v1/dev/orders/:id/end-payment-time',
      localEnvironmentOnly,
      doc.user("Ends an unpaid order's payment time now (local builds only)"),
      signedIn,
      input('param', idParam),
      async (c) => {
        const { scope } = c.var;
        const orderId = c.req.valid('param').id;
        await endPaymentTimeNow(scope, orderId);
        return c.json(success(await orderDetail(scope, orderId)));
      },
    );
  const fixtures = devFixtures();
  for (const name of Object.keys(fixtures) as DevFixtureName[]) {
    const fixture: DevFixture = fixtures[name];
    routes.post(
      `/v1/dev/fixtures/${name}`,
      localEnvironmentOnly,
      doc.anyone(`${fixture.summary} (local builds only)`),
      input('json', fixture.input),
      async (c) => c.json(success(await fixture.run(c.var.scope, c.req.valid('json')))),
    );
  }
  return routes;
}

/** Mounts the dev routes beside `routes` (under /api and the /api/api alias) and the document of both under /api. */
export function mountLocalOnlyRoutes(api: Hono<ApiEnv>, routes: Hono<ApiEnv>): void {
  const dev = devRoutes();
  api.route('/api/api', dev);
  api.route('/api', dev);
  // Generated once per isolate, on its first reader.
  let document: Promise<OpenAPIV3_1.Document> | null = null;
  const apiDocument = () => (document ??= openApiDocument(new Hono<ApiEnv>().route('/', routes).route('/', dev)));
  api.get('/api/openapi.json', localEnvironmentOnly, async (c) => c.json(await apiDocument()));
  api.get('/api/docs', localEnvironmentOnly, async (c) => c.html(docsPage(await apiDocument())));
}
