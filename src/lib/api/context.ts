/** What every API handler can read from its Hono context. */
import type { Db } from '../db/client.ts';
import type { CurrencyTable } from '../domain/money.ts';
import type { RequestContext } from '../domain/request-context.ts';
import type { Translate } from '../i18n/index.ts';

export interface ApiEnv {
  Bindings: Cloudflare.Env;
  Variables: {
    db: Db;
    ctx: RequestContext;
    currencies: CurrencyTable;
    t: Translate;
  };
}
