import { describe, expect, it } from 'vitest';
import { isAllowedOrigin, securityHeaders } from '../../src/lib/http/security.ts';
import { cleanText } from '../../src/lib/domain/text.ts';
import { rewardMonthStart } from '../../src/lib/domain/invitations.ts';
import { failuresSoFar, lockoutAfter, minutesUntil } from '../../src/lib/domain/lockout.ts';

describe('security headers', () => {
  it('frame nothing, sniff nothing, and send only the origin to other sites', () => {
    expect(securityHeaders({ production: false })).toEqual({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'strict-origin-when-cross-origin',
    });
  });

  it('add HSTS when deployed, no referrer for secret links, and a closed policy for API answers', () => {
    const headers = securityHeaders({ production: true, noReferrer: true, apiPolicy: true });
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d{8}; includeSubDomains$/);
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});

describe('the cross-site check', () => {
  const own = ['https://tickets.example.com', 'http://localhost:4321'];
  const write = (facts: Partial<Parameters<typeof isAllowedOrigin>[0]>) =>
    isAllowedOrigin({
      method: 'POST',
      origin: undefined,
      secFetchSite: undefined,
      contentType: 'application/json',
      ownOrigins: own,
      ...facts,
    });

  it('lets reads through from anywhere', () => {
    expect(write({ method: 'GET', origin: 'https://evil.example', secFetchSite: 'cross-site' })).toBe(true);
    expect(write({ method: 'HEAD', contentType: 'text/plain' })).toBe(true);
  });

  it('trusts the Origin a browser sends: ours passes, any other (or "null") does not', () => {
    expect(write({ origin: 'https://tickets.example.com' })).toBe(true);
    expect(write({ origin: 'http://localhost:4321', secFetchSite: 'same-origin' })).toBe(true);
    expect(write({ origin: 'https://evil.example' })).toBe(false);
    expect(write({ origin: 'https://tickets.example.com.evil.example' })).toBe(false);
    expect(write({ origin: 'null' })).toBe(false);
  });

  it("without an Origin, trusts Sec-Fetch-Site: same origin or the user's own navigation only", () => {
    expect(write({ secFetchSite: 'same-origin' })).toBe(true);
    expect(write({ secFetchSite: 'none' })).toBe(true);
    expect(write({ secFetchSite: 'same-site' })).toBe(false);
    expect(write({ secFetchSite: 'cross-site' })).toBe(false);
  });

  it('from a client that says nothing, refuses only what a plain HTML form could send', () => {
    expect(write({})).toBe(true);
    expect(write({ contentType: undefined })).toBe(true);
    expect(write({ method: 'DELETE', contentType: undefined })).toBe(true);
    expect(write({ method: 'PUT', contentType: 'text/plain' })).toBe(true);
    for (const contentType of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'Text/Plain; charset=utf-8']) {
      expect(write({ contentType }), String(contentType)).toBe(false);
    }
  });
});

describe('clean text', () => {
  it('normalises every string of a value to NFC, walking objects and arrays', () => {
    const result = cleanText({ name: 'Cafe\u0301', seats: ['A\u0301', 1], nested: { note: null } });
    expect(result).toEqual({ ok: true, value: { name: 'Caf\u00e9', seats: ['\u00c1', 1], nested: { note: null } } });
  });

  it('names the path of the first string that is not well-formed', () => {
    expect(cleanText({ name: 'ok', seats: ['A1', 'A2\uD800'] })).toEqual({ ok: false, path: ['seats', 1] });
    expect(cleanText('\uDC00x')).toEqual({ ok: false, path: [] });
    // A surrogate pair is one character, and well-formed.
    expect(cleanText('🎫')).toEqual({ ok: true, value: '🎫' });
  });
});

describe('the inviter reward month', () => {
  it('starts on the first of the month at 00:00 in UTC+8', () => {
    // 2026-12-01 00:30 in Hong Kong is still 30 November in UTC.
    expect(rewardMonthStart(Date.UTC(2026, 10, 30, 16, 30))).toBe(Date.UTC(2026, 10, 30, 16, 0));
    expect(rewardMonthStart(Date.UTC(2026, 10, 30, 15, 59))).toBe(Date.UTC(2026, 9, 31, 16, 0));
    expect(rewardMonthStart(Date.UTC(2027, 0, 15))).toBe(Date.UTC(2026, 11, 31, 16, 0));
  });
});

describe('password lockout', () => {
  const policy = { free: 5, firstLockMs: 60_000, maxLockMs: 15 * 60_000, forgetAfterMs: 86_400_000 } as const;

  it('locks after the free failures, doubling up to the cap', () => {
    expect([1, 4, 5, 6, 7, 8, 9, 10, 30].map((failures) => lockoutAfter(failures, policy) / 60_000)).toEqual([
      0, 0, 1, 2, 4, 8, 15, 15, 15,
    ]);
  });

  it('forgets failures a day old, and tells whole minutes left, at least one', () => {
    expect(failuresSoFar({ failures: 7, updatedAt: 0 }, 86_399_999, policy)).toBe(7);
    expect(failuresSoFar({ failures: 7, updatedAt: 0 }, 86_400_000, policy)).toBe(0);
    expect(failuresSoFar(undefined, 0, policy)).toBe(0);
    expect(minutesUntil(1_000 + 90_000, 1_000)).toBe(2);
    expect(minutesUntil(1_000 + 5_000, 1_000)).toBe(1);
  });
});
