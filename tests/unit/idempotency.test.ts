import { describe, expect, it } from 'vitest';
import { canonicalJson, requestHash, sameRequest } from '../../src/lib/domain/idempotency.ts';

describe('request hashes', () => {
  it('do not depend on the order of fields, at any depth', async () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}');
    expect(await requestHash({ quantity: 2, listingId: 7 })).toBe(await requestHash({ listingId: 7, quantity: 2 }));
  });

  it('differ when any value differs, and leave out absent fields', async () => {
    expect(await requestHash({ listingId: 7, quantity: 2 })).not.toBe(await requestHash({ listingId: 7, quantity: 1 }));
    expect(await requestHash({ method: 'visa' })).not.toBe(await requestHash({ method: 'alipay' }));
    expect(await requestHash({ method: 'visa', coupon: undefined })).toBe(await requestHash({ method: 'visa' }));
    expect(await requestHash({ method: 'visa' })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('match a row stored before hashes existed', () => {
    expect(sameRequest(null, 'abc')).toBe(true);
    expect(sameRequest('abc', 'abc')).toBe(true);
    expect(sameRequest('abc', 'abd')).toBe(false);
  });
});
