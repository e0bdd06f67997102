import { describe, expect, it, beforeAll } from 'vitest';
import type { HeaderChoices } from '../../src/lib/pages/header.ts';
import type { Messages } from '../../src/lib/i18n/messages.ts';
import { call, seed } from './helpers.ts';

beforeAll(() => seed());

type Answer = HeaderChoices & { messages: { cityPicker: Messages; preferences: Messages } };

describe('GET /api/v1/header/choices', () => {
  it("answers the header dialogs' lists and texts in the caller's language, cacheable by language", async () => {
    const english = await call<Answer>('/api/v1/header/choices', { headers: { language: 'en' } });
    expect(english.status).toBe(200);
    expect(english.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(english.headers.get('vary')).toBe('language');
    expect(english.headers.has('set-cookie')).toBe(false);
    expect(english.body.data.cities).toContainEqual({ id: 341, name: 'Hong Kong', letter: 'H' });
    expect(english.body.data.messages.cityPicker['header.city.title']).toBe('Choose a city');
    expect(english.body.data.messages.preferences['header.prefs.title']).toBe('Language and currency');
    // Only the languages the storefront is translated into, and nothing but what the dialog renders.
    expect(english.body.data.languages.map((language) => language.code).sort()).toEqual(['en', 'zh-CN', 'zh-HK', 'zh-TW']);
    expect(Object.keys(english.body.data.languages[0]).sort()).toEqual(['code', 'id', 'name']);

    const chinese = await call<Answer>('/api/v1/header/choices', { headers: { language: 'zh-HK' } });
    expect(chinese.body.data.cities).toContainEqual({ id: 341, name: '香港', letter: 'H' });
    expect(chinese.body.data.messages.cityPicker['header.city.title']).toBe('選擇城市');
    const hkd = chinese.body.data.currencies.find((currency) => currency.code === 'HKD');
    expect(hkd?.desc).not.toBe(english.body.data.currencies.find((currency) => currency.code === 'HKD')?.desc);
    expect(chinese.body.data.hotCityIds).toEqual(english.body.data.hotCityIds);
    expect(chinese.body.data.hotCityIds.length).toBeGreaterThan(0);
  });
});
