/**
 * What the message consumer and the login codes need from an email or SMS provider (DESIGN.md,
 * Messages): deliver one message or say why not, and whether trying again could help.
 */
import type { OutgoingMessage } from '../../../domain/messages.ts';

export interface MessageProvider {
  /** Resolves once the provider accepted the message; throws a DeliveryError otherwise. */
  deliver(message: OutgoingMessage): Promise<void>;
}

/**
 * A message the provider did not take. `permanent` means the same request can never succeed (a bad
 * address, a refused key, a rejected body), so the caller gives up instead of retrying.
 */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** How the adapters call out: `fetch`, or a test's double of the provider. */
export type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

/** Every provider call gives up after this long, so a stalled provider cannot hold a request or a queue batch. */
export const PROVIDER_TIMEOUT_MS = 8000;

/**
 * Statuses that say "not now" rather than "never": timeout, conflict with a request still running,
 * too early, rate or quota limits, and the provider's own failures.
 */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/** Calls the provider; a network failure or the timeout is transient, the answer is the caller's to judge. */
export async function callProvider(provider: string, fetcher: Fetcher, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetcher(url, { ...init, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    throw new DeliveryError(`${provider} unreachable: ${String(error)}`, false);
  }
}

/** The JSON error body of a refused call, or an empty object when it has none. */
export async function errorBody(response: Response): Promise<Record<string, unknown>> {
  const body: unknown = await response.json().catch(() => null);
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}
