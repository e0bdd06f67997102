import { describe, expect, it } from 'vitest';
import { WEBHOOK_TOLERANCE_MS } from '../../src/lib/config/orders.ts';
import { parseSignatureHeader, signatureHeader, signedPayload, timestampFresh } from '../../src/lib/domain/payment-webhook.ts';

const signature = 'abcdefghijklmnopqrstuvwxyz0123456789_-ABCDE';

describe('webhook signature header', () => {
  it('round-trips the timestamp and signature', () => {
    const header = signatureHeader({ timestamp: 1_790_000_000_123, signature });
    expect(header).toBe(`t=1790000000123,v1=${signature}`);
    expect(parseSignatureHeader(header)).toEqual({ timestamp: 1_790_000_000_123, signature });
  });

  it('refuses missing, reordered, non-numeric or oversized values', () => {
    for (const bad of [
      null,
      undefined,
      '',
      `v1=${signature},t=1`,
      `t=abc,v1=${signature}`,
      't=1,v1=short',
      `t=1,v1=${signature}!`,
      `t=1,v1=${'a'.repeat(129)}`,
      `t=1234567890123456,v1=${signature}`,
    ]) {
      expect(parseSignatureHeader(bad), String(bad)).toBeNull();
    }
  });

  it('signs the timestamp together with the exact body', () => {
    expect(signedPayload(5, '{"a":1}')).toBe('5.{"a":1}');
    expect(signedPayload(5, '{"a":1}')).not.toBe(signedPayload(6, '{"a":1}'));
    expect(signedPayload(5, '{"a":1}')).not.toBe(signedPayload(5, '{"a": 1}'));
  });
});

describe('webhook freshness', () => {
  const now = 1_790_000_000_000;

  it('accepts deliveries within five minutes either way', () => {
    expect(WEBHOOK_TOLERANCE_MS).toBe(5 * 60 * 1000);
    expect(timestampFresh(now, now)).toBe(true);
    expect(timestampFresh(now - WEBHOOK_TOLERANCE_MS, now)).toBe(true);
    expect(timestampFresh(now + WEBHOOK_TOLERANCE_MS, now)).toBe(true);
  });

  it('refuses older or future-dated deliveries', () => {
    expect(timestampFresh(now - WEBHOOK_TOLERANCE_MS - 1, now)).toBe(false);
    expect(timestampFresh(now + WEBHOOK_TOLERANCE_MS + 1, now)).toBe(false);
    expect(timestampFresh(0, now)).toBe(false);
  });
});
