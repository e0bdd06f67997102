/** The payment providers by name. Payments remember the provider they were made with. */
import { ApiError } from '../../api/errors.ts';
import { SANDBOX_PROVIDER } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { sandboxProvider } from './sandbox.ts';
import type { PaymentProvider } from './types.ts';

const PROVIDERS: Record<string, (db: Db) => PaymentProvider> = {
  [SANDBOX_PROVIDER]: sandboxProvider,
};

/** The provider called `name`; an unknown name (a webhook path, a stored payment) is a 404. */
export function paymentProvider(name: string, db: Db): PaymentProvider {
  const make = Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name] : undefined;
  if (!make) throw new ApiError(404, 'not_found');
  return make(db);
}
