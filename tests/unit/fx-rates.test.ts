/** The exchange rates' rules: which provider answers are believed, when the job refreshes, when a rate is stale, how an operator types one. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FX_RATES_BAND_FACTOR, FX_RATES_CRON, FX_RATES_REFRESH_AFTER_MS } from '../../src/lib/config/rates.ts';
import {
  checkedRates,
  currencyCodeProblem,
  ratePerHkd,
  rateIsStale,
  ratesRefreshDue,
  type StoredRate,
  typedRateMicros,
} from '../../src/lib/domain/fx-rates.ts';
import { ageText, utcInputMoment, utcInputValue } from '../../src/lib/domain/console-time.ts';

const HOUR = 3_600_000;
const stored: StoredRate[] = [
  { quote: 'HKD', perHkdMicros: 1_000_000, source: 'seed', pinned: false },
  { quote: 'USD', perHkdMicros: 128_500, source: 'provider', pinned: false },
  { quote: 'TWD', perHkdMicros: 4_100_000, source: 'seed', pinned: false },
  { quote: 'MYR', perHkdMicros: 600_000, source: 'manual', pinned: true },
];

describe('checkedRates', () => {
  it('takes every unpinned quote but the base, in millionths', () => {
    const verdict = checkedRates({ HKD: 1, USD: 0.1279, TWD: 4.2, MYR: 0.57, EUR: 0.11 }, stored, FX_RATES_BAND_FACTOR);
    expect(verdict).toEqual({
      ok: true,
      rates: new Map([
        ['USD', 127_900],
        ['TWD', 4_200_000],
      ]),
    });
  });

  it('refuses the whole answer when a quote is missing or not a number', () => {
    expect(checkedRates({ USD: 0.128 }, stored, 1.5)).toEqual({ ok: false, problem: 'quote_missing', quote: 'TWD' });
    expect(checkedRates({ USD: '0.128', TWD: 4.1 }, stored, 1.5)).toMatchObject({ ok: false, problem: 'quote_missing', quote: 'USD' });
    expect(checkedRates({ USD: Number.NaN, TWD: 4.1 }, stored, 1.5)).toMatchObject({ ok: false, quote: 'USD' });
  });

  it('refuses a quote that is not positive or rounds to nothing', () => {
    expect(checkedRates({ USD: 0.128, TWD: -1 }, stored, 1.5)).toMatchObject({ ok: false, problem: 'quote_not_positive', quote: 'TWD' });
    expect(checkedRates({ USD: 0.128, TWD: 0.0000001 }, stored, 1.5)).toMatchObject({ ok: false, problem: 'quote_not_positive' });
  });

  it('refuses a quote outside the band of the provider’s previous one, and bands no seed or manual rate', () => {
    expect(checkedRates({ USD: 0.2, TWD: 4.1 }, stored, 1.5)).toEqual({
      ok: false,
      problem: 'quote_out_of_band',
      quote: 'USD',
      previous: 128_500,
      fetched: 200_000,
    });
    expect(checkedRates({ USD: 0.08, TWD: 4.1 }, stored, 1.5)).toMatchObject({ ok: false, problem: 'quote_out_of_band' });
    expect(checkedRates({ USD: 0.19, TWD: 41 }, stored, 1.5)).toMatchObject({ ok: true });
  });
});

describe('ratesRefreshDue', () => {
  it('is due with no provider rate yet, and once the newest is a day old (less an hour, for the hourly job)', () => {
    const now = 1_800_000_000_000;
    expect(ratesRefreshDue(null, now, FX_RATES_REFRESH_AFTER_MS)).toBe(true);
    expect(ratesRefreshDue(now - 22 * HOUR, now, FX_RATES_REFRESH_AFTER_MS)).toBe(false);
    expect(ratesRefreshDue(now - 23 * HOUR, now, FX_RATES_REFRESH_AFTER_MS)).toBe(true);
  });

  it('runs on a cron wrangler.toml schedules', () => {
    const toml = readFileSync(new URL('../../wrangler.toml', import.meta.url), 'utf8');
    const crons = /^crons = \[(.*)\]$/m.exec(toml)?.[1] ?? '';
    expect(crons.split(',').map((cron) => cron.trim().replace(/"/g, ''))).toContain(FX_RATES_CRON);
  });
});

describe('a rate in the console', () => {
  it('is stale two days after it was written, unless pinned or the base', () => {
    const now = 1_800_000_000_000;
    expect(rateIsStale({ quote: 'USD', updatedAt: now - 49 * HOUR, pinned: false }, now, 48 * HOUR)).toBe(true);
    expect(rateIsStale({ quote: 'USD', updatedAt: now - 47 * HOUR, pinned: false }, now, 48 * HOUR)).toBe(false);
    expect(rateIsStale({ quote: 'USD', updatedAt: now - 99 * HOUR, pinned: true }, now, 48 * HOUR)).toBe(false);
    expect(rateIsStale({ quote: 'HKD', updatedAt: 0, pinned: false }, now, 48 * HOUR)).toBe(false);
  });

  it('is typed as a positive decimal and read back the same', () => {
    expect(typedRateMicros(' 0.1285 ')).toBe(128_500);
    expect(typedRateMicros('2050')).toBe(2_050_000_000);
    for (const wrong of ['', '0', '0.0000001', '-1', '1e3', '1,5', 'abc', '1.2.3']) expect(typedRateMicros(wrong), wrong).toBeNull();
    expect(ratePerHkd(128_500)).toBe('0.1285');
    expect(ratePerHkd(1_000_000)).toBe('1');
    expect(ratePerHkd(3_250_000_000)).toBe('3250');
    expect(currencyCodeProblem('USD')).toBe(false);
    expect(currencyCodeProblem('usd')).toBe(true);
  });

  it('shows its age in the page’s language', () => {
    const now = 1_800_000_000_000;
    expect(ageText(now - 3 * HOUR - 5, now, 'en')).toBe('3 hours ago');
    expect(ageText(now - 2 * 24 * HOUR, now, 'en')).toBe('2 days ago');
    expect(ageText(now - 10_000, now, 'en')).toBe('this minute');
    expect(ageText(now - 3 * HOUR, now, 'zh-HK')).toBe('3 小時前');
  });

  it('takes and shows moments in UTC', () => {
    expect(utcInputValue(Date.UTC(2026, 10, 29, 16, 30))).toBe('2026-11-29T16:30');
    expect(utcInputMoment('2026-11-29T16:30')).toBe(Date.UTC(2026, 10, 29, 16, 30));
    expect(utcInputMoment('2026-11-29')).toBeNull();
  });
});
