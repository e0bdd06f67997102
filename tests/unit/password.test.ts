import { describe, expect, it } from 'vitest';
import { PASSWORD_ITERATIONS } from '../../src/lib/config/accounts.ts';
import {
  constantTimeEqual,
  fromBase64Url,
  hashPassword,
  randomString,
  randomToken,
  toBase64Url,
  verifyPassword,
} from '../../src/lib/domain/password.ts';

describe('password hashing', () => {
  it('uses a fresh salt per hash and verifies only the right password', async () => {
    const one = await hashPassword('Tickets2026');
    const two = await hashPassword('Tickets2026');
    expect(one.iterations).toBe(PASSWORD_ITERATIONS);
    expect(one.salt).not.toBe(two.salt);
    expect(one.hash).not.toBe(two.hash);
    expect(fromBase64Url(one.hash)).toHaveLength(32);
    expect(await verifyPassword('Tickets2026', one)).toBe(true);
    expect(await verifyPassword('Tickets2027', one)).toBe(false);
  });
});

describe('helpers', () => {
  it('compares in constant time, by content and length', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });

  it('round-trips base64url', () => {
    const bytes = Uint8Array.from([0, 250, 251, 252, 253, 254, 255, 62, 63]);
    expect(toBase64Url(bytes)).not.toMatch(/[+/=]/);
    expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
  });

  it('draws random strings from the alphabet and unguessable tokens', () => {
    const code = randomString(6, '0123456789');
    expect(code).toMatch(/^\d{6}$/);
    expect(randomToken()).toMatch(/^[\w-]{43}$/);
    expect(randomToken()).not.toBe(randomToken());
  });
});
