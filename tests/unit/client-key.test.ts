import { describe, expect, it } from 'vitest';
import { rateLimitClientKey } from '../../src/lib/domain/client-key.ts';

const noDevice = () => {
  throw new Error('no device id should be issued');
};

describe('rateLimitClientKey', () => {
  it('is the connecting address when the edge set one', () => {
    expect(rateLimitClientKey({ address: '203.0.113.7', sessionTokenHash: 'abc', deviceId: noDevice })).toBe('203.0.113.7');
  });

  it('without an address, is the session when signed in, without issuing a device id', () => {
    expect(rateLimitClientKey({ address: null, sessionTokenHash: 'abc', deviceId: noDevice })).toBe('session:abc');
  });

  it('else is the device id, so two browsers never share a key', () => {
    const first = rateLimitClientKey({ address: null, sessionTokenHash: null, deviceId: () => 'device-1' });
    const second = rateLimitClientKey({ address: null, sessionTokenHash: null, deviceId: () => 'device-2' });
    expect(first).toBe('device:device-1');
    expect(second).not.toBe(first);
  });
});
