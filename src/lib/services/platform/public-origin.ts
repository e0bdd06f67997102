/** The configured public origin (src/lib/domain/public-origin.ts) or a 503 when a deployed build lacks it. */
import { DomainError } from '../../domain/errors.ts';
import { publicOrigin, type OriginConfig } from '../../domain/public-origin.ts';

export function requirePublicOrigin(config: OriginConfig, requestUrl: string | URL): string {
  const origin = publicOrigin(config, requestUrl);
  if (origin) return origin;
  console.error('PUBLIC_ORIGIN is not set (or not a URL): a deployed build builds no absolute link from the request.');
  throw new DomainError('server_misconfigured');
}
