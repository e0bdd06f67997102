import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, countryList, countryName, isCountryCode } from '../../src/lib/domain/countries.ts';

describe('countries', () => {
  it('lists about 240 distinct two-letter codes', () => {
    expect(new Set(COUNTRY_CODES).size).toBe(COUNTRY_CODES.length);
    expect(COUNTRY_CODES.length).toBeGreaterThanOrEqual(240);
    expect(COUNTRY_CODES.every((code) => /^[A-Z]{2}$/.test(code))).toBe(true);
  });
  it('names each country in the locale, our markets first', () => {
    const english = countryList('en');
    expect(english.slice(0, 4).map((country) => country.code)).toEqual(['HK', 'MO', 'TW', 'CN']);
    expect(english.find((country) => country.code === 'JP')?.name).toBe('Japan');
    expect(countryName('JP', 'zh-HK')).toBe('日本');
    expect(countryName('DE', 'zh-CN')).toBe('德国');
    expect(countryName('DE', 'zh-TW')).toBe('德國');
    expect(countryList('zh-CN')).toHaveLength(COUNTRY_CODES.length);
  });
  it('knows only listed codes', () => {
    expect(isCountryCode('HK')).toBe(true);
    expect(isCountryCode('ZZ')).toBe(false);
    expect(isCountryCode('hk')).toBe(false);
  });
});
