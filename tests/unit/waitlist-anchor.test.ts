import { describe, expect, it } from 'vitest';
import { safeRedirect } from '../../src/lib/domain/validation.ts';
import { tierOfWaitlistHash, waitlistAnchor } from '../../src/lib/domain/waitlist-anchor.ts';

describe('waitlist anchor', () => {
  it('names a tier and reads it back from a hash', () => {
    expect(waitlistAnchor(12)).toBe('waitlist-tier-12');
    expect(tierOfWaitlistHash(`#${waitlistAnchor(12)}`)).toBe(12);
    expect(tierOfWaitlistHash(waitlistAnchor(7))).toBe(7);
  });

  it('reads nothing from another hash', () => {
    for (const hash of ['', '#', '#waitlist-tier-', '#waitlist-tier-1x', '#cost-heading', '#waitlist-tier--3']) {
      expect(tierOfWaitlistHash(hash)).toBeNull();
    }
  });

  it('survives the sign-in page as part of its redirect', () => {
    const back = `/zh-HK/activity/5#${waitlistAnchor(12)}`;
    expect(safeRedirect(decodeURIComponent(encodeURIComponent(back)))).toBe(back);
  });
});
