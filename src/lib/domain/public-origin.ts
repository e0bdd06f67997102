/**
 * The origin every absolute link we hand out is built on: payment return and notify URLs, share
 * links, canonical links. It comes from configuration (PUBLIC_ORIGIN), never from the request's Host
 * header, which a client chooses. A local build without it (npm start on any port) uses the
 * origin it was asked on.
 */
import type { AppEnv } from './payment-provider-choice.ts';

export interface OriginConfig {
  APP_ENV: AppEnv;
  PUBLIC_ORIGIN?: string;
}

/** The configured public origin; null when a deployed build has none (or a malformed one) configured. */
export function publicOrigin(config: OriginConfig, requestUrl: string | URL): string | null {
  if (config.PUBLIC_ORIGIN) return URL.canParse(config.PUBLIC_ORIGIN) ? new URL(config.PUBLIC_ORIGIN).origin : null;
  return config.APP_ENV === 'local' ? new URL(requestUrl).origin : null;
}
