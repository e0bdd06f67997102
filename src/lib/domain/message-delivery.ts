/**
 * What happens to a message after a delivery attempt: sent, tried again after a delay, or dead.
 * A provider's permanent refusal (a bad address) cannot get better by waiting, so it is dead at once.
 */
import { MESSAGE_MAX_ATTEMPTS, MESSAGE_RETRY_DELAYS_S } from '../config/messages.ts';

export type DeliveryVerdict = { kind: 'sent' } | { kind: 'retry'; delaySeconds: number } | { kind: 'dead' };

/** The verdict after attempt number `attempts` (1 for the first) ended with `failure`, or succeeded when it is null. */
export function deliveryVerdict(attempts: number, failure: { permanent: boolean } | null): DeliveryVerdict {
  if (!failure) return { kind: 'sent' };
  if (failure.permanent || attempts >= MESSAGE_MAX_ATTEMPTS) return { kind: 'dead' };
  return { kind: 'retry', delaySeconds: MESSAGE_RETRY_DELAYS_S[Math.max(0, attempts - 1)] };
}
