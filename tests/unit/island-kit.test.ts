import { describe, expect, it } from 'vitest';
import { catalogues } from '../../src/lib/i18n/index.ts';
import { pluralCategory, pluralKey } from '../../src/lib/i18n/messages.ts';
import { AttemptKeys, loginHref } from '../../src/islands/shared/mutation.ts';

describe('island plurals', () => {
  it("pick the form by the locale's plural rules", () => {
    expect(pluralCategory(1, 'en')).toBe('one');
    expect(pluralCategory(0, 'en')).toBe('other');
    expect(pluralCategory(1, 'zh-HK')).toBe('other');
    const messages = { n_one: 'one', n_other: 'many' };
    expect(pluralKey(messages, 'n', 1, 'en')).toBe('n_one');
    expect(pluralKey(messages, 'n', 1, 'zh-CN')).toBe('n_other');
  });

  it('read the same in either form in Chinese, so a server render with English rules is right there too', () => {
    for (const name of ['zh-Hant', 'zh-Hans'] as const) {
      const catalogue = catalogues[name] as Record<string, string>;
      for (const key of Object.keys(catalogue).filter((k) => k.endsWith('_one'))) {
        expect(catalogue[key], `${name} ${key}`).toBe(catalogue[key.replace(/_one$/, '_other')]);
      }
    }
  });
});

describe('login after a 401', () => {
  it('comes back to the path and query, in the page language', () => {
    expect(loginHref('/zh-HK/profile/address/new', '?from=confirm&x=1', 'zh-HK')).toBe(
      '/zh-HK/login?redirect=%2Fzh-HK%2Fprofile%2Faddress%2Fnew%3Ffrom%3Dconfirm%26x%3D1',
    );
    expect(loginHref('/en/settings', '', 'unknown')).toBe('/en/login?redirect=%2Fen%2Fsettings');
  });
});

describe("a mutation's Idempotency-Keys", () => {
  const counting = () => {
    let issued = 0;
    return () => `key-${++issued}`;
  };

  it('stay for the retries of one attempt, and a success starts the next', () => {
    const keys = new AttemptKeys(false, counting());
    expect(keys.keyFor('')).toBe('key-1');
    expect(keys.keyFor('')).toBe('key-1');
    keys.succeeded('');
    expect(keys.keyFor('')).toBe('key-2');
  });

  it('kept per scope, are one per scope and outlive a success (a payment method repeated answers its payment)', () => {
    const keys = new AttemptKeys(true, counting());
    expect(keys.keyFor('wechat')).toBe('key-1');
    expect(keys.keyFor('card')).toBe('key-2');
    keys.succeeded('wechat');
    expect(keys.keyFor('wechat')).toBe('key-1');
    expect(keys.keyFor('card')).toBe('key-2');
  });

  it('are all new after a renewal', () => {
    const keys = new AttemptKeys(true, counting());
    keys.keyFor('wechat');
    keys.renew();
    expect(keys.keyFor('wechat')).toBe('key-2');
  });
});
