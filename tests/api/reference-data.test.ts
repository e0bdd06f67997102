import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CITY_ID } from '../../src/lib/config/request.ts';
import { buildReferenceRows, REFERENCE_TABLES } from '../../src/lib/db/reference-rows.ts';
import { seed } from './helpers.ts';

/** Rows as comparable text, in one order whatever order they came in. */
const asText = (rows: Record<string, unknown>[]) => rows.map((row) => JSON.stringify(row)).sort();

describe('the reference data migration', () => {
  const reference = buildReferenceRows();

  it('gives a migrated database exactly the reference rows, the default city among them', async () => {
    for (const table of REFERENCE_TABLES) {
      const columns = Object.keys(reference[table][0]).map((column) => `"${column}"`);
      const { results } = await env.DB.prepare(`SELECT ${columns.join(', ')} FROM "${table}"`).all();
      expect(asText(results), table).toEqual(asText(reference[table]));
    }
    const city = await env.DB.prepare('SELECT name_en FROM cities WHERE id = ?').bind(DEFAULT_CITY_ID).first();
    expect(city).toEqual({ name_en: 'Hong Kong' });
  });

  it('leaves room for the demo seed, which adds its catalogue without repeating a reference row', async () => {
    await seed();
    const { results } = await env.DB.prepare('PRAGMA foreign_key_check').all();
    expect(results).toEqual([]);
    const cities = await env.DB.prepare('SELECT COUNT(*) AS n FROM cities').first<{ n: number }>();
    expect(cities?.n).toBe(reference.cities.length);
  });
});
