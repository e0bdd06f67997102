/** What every API handler can read from its Hono context. */
import type { Db } from '../data/client.ts';
import type { CurrencyTable } from '../domain/money.ts';
import type { RequestContext } from '../domain/request-context.ts';
import type { Translate } from '../i18n/index.ts';
import type { AfterWriteWork } from '../data/after-write.ts';
import type { RequestScope } from '../services/platform/scope.ts';

export interface ApiEnv {
  Bindings: Cloudflare.Env;
  Variables: {
    db: Db;
    ctx: RequestContext;
    currencies: CurrencyTable;
    t: Translate;
    /** db, ctx and currencies again, with the request's clock: what service calls take. */
    scope: RequestScope;
    /** A write request's after-write work (data/after-write.ts; its pass services/platform/after-write.ts), which its service may carry in its own batch; null for a read. */
    afterWrite: AfterWriteWork | null;
    /** Set by a write route that writes nothing to D1 (routes/waiting-room.ts's join): no after-write work follows it. */
    d1Untouched?: boolean;
  };
}
