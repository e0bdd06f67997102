/**
 * Which provider new payments go to. A local build (npm start, the tests) pays in the built-in
 * sandbox; a deployed one only through a real provider, and there is none configured until a real
 * adapter is wired (issue 14), so a deployed build opens no payment at all rather than taking
 * sandbox "money" for real tickets.
 */
import { SANDBOX_PROVIDER } from '../config.ts';

export type AppEnv = 'local' | 'production';

/** The provider's name, or null when payments cannot be taken in this environment. */
export function checkoutProvider(appEnv: AppEnv): string | null {
  return appEnv === 'local' ? SANDBOX_PROVIDER : null;
}
