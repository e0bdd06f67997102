import { describe, expect, it, beforeAll } from 'vitest';
import type { HeaderChoices } from '../../src/lib/services/catalogue/header-choices.ts';
import { call, seed } from './helpers.ts';

beforeAll(() => seed());

describe('GET /api/v1/header/choices', () => {
  it("answers the header dialogs' lists in the caller's language, cacheable by language", async () => {
    const english = await call<HeaderChoices>('/api/v1/header/choices', { headers: { language: 'en' } });
    expect(english.status).toBe(200);
    expect(english.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(english.headers.get('vary')).toBe('language');
    expect(english.headers.has('set-cookie')).toBe(false);
    expect(english.body.data.cities).toContainEqual({ id: 341, name: 'Hong Kong', letter: 'H' });
    // Only the languages the storefront is translated into, and nothing but what the dialog renders.
    expect(english.body.data.languages.map((language) => language.code).sort()).toEqual(['en', 'zh-CN', 'zh-HK', 'zh-TW']);
    expect(Object.keys(english.body.data.languages[0]).sort()).toEqual(['code', 'id', 'name']);

    const chinese = await call<HeaderChoices>('/api/v1/header/choices', { headers: { language: 'zh-HK' } });
    expect(chinese.body.data.cities).toContainEqual({ id: 341, name: '香港', letter: 'H' });
    const hkd = chinese.body.data.currencies.find((currency) => currency.code === 'HKD');
    expect(hkd?.desc).not.toBe(english.body.data.currencies.find((currency) => currency.code === 'HKD')?.desc);
    expect(chinese.body.data.hotCityIds).toEqual(english.body.data.hotCityIds);
    expect(chinese.body.data.hotCityIds.length).toBeGreaterThan(0);
  });
});
