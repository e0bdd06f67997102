import { describe, expect, it } from 'vitest';
import { MESSAGE_MAX_ATTEMPTS, MESSAGE_RETRY_DELAYS_S } from '../../src/lib/config/messages.ts';
import { deliveryVerdict } from '../../src/lib/domain/message-delivery.ts';

describe('deliveryVerdict', () => {
  it('is sent when the provider took the message, whatever the attempt', () => {
    expect(deliveryVerdict(1, null)).toEqual({ kind: 'sent' });
    expect(deliveryVerdict(MESSAGE_MAX_ATTEMPTS, null)).toEqual({ kind: 'sent' });
  });

  it('retries a passing failure after a delay that grows with each attempt', () => {
    const delays = MESSAGE_RETRY_DELAYS_S.map((_, index) => deliveryVerdict(index + 1, { permanent: false }));
    expect(delays).toEqual(MESSAGE_RETRY_DELAYS_S.map((delaySeconds) => ({ kind: 'retry', delaySeconds })));
    for (let index = 1; index < MESSAGE_RETRY_DELAYS_S.length; index += 1) {
      expect(MESSAGE_RETRY_DELAYS_S[index]).toBeGreaterThan(MESSAGE_RETRY_DELAYS_S[index - 1]);
    }
  });

  it('gives up after the last attempt, and at once on a permanent refusal', () => {
    expect(deliveryVerdict(MESSAGE_MAX_ATTEMPTS, { permanent: false })).toEqual({ kind: 'dead' });
    expect(deliveryVerdict(MESSAGE_MAX_ATTEMPTS + 3, { permanent: false })).toEqual({ kind: 'dead' });
    expect(deliveryVerdict(1, { permanent: true })).toEqual({ kind: 'dead' });
  });
});
