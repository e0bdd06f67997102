import { env } from 'cloudflare:workers';
import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../src/lib/db/schema.ts';
import { seed } from './helpers.ts';

const tables = Object.values(schema).filter((value) => is(value, SQLiteTable)) as SQLiteTable[];

describe('migrations', () => {
  it('create every table and column of the Drizzle schema', async () => {
    expect(tables.length).toBeGreaterThan(25);
    for (const table of tables) {
      const name = getTableName(table);
      const { results } = await env.DB.prepare(`PRAGMA table_info("${name}")`).all<{ name: string }>();
      const columns = results.map((row) => row.name).sort();
      const expected = Object.values(getTableColumns(table))
        .map((column) => column.name)
        .sort();
      expect(columns, name).toEqual(expected);
    }
  });

  it('accept the demo seed with every foreign key satisfied', async () => {
    await seed();
    const { results } = await env.DB.prepare('PRAGMA foreign_key_check').all();
    expect(results).toEqual([]);
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM activities').first<{ n: number }>();
    expect(count?.n).toBeGreaterThanOrEqual(300);
  });
});
