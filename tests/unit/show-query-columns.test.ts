import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/data/client.ts';
import { orderWithShowQuery } from '../../src/lib/services/catalogue/show-query.ts';

/** D1 answers no result of more than 100 columns ("too many columns in result set"). */
const D1_MAX_RESULT_COLUMNS = 100;

function selectedColumns(sql: string): number {
  const list = sql.slice('select '.length, sql.indexOf(' from '));
  return list.split(', ').length;
}

describe('an order with its show', () => {
  it('stays within the columns D1 answers in one result, as the schema grows', () => {
    const { sql } = orderWithShowQuery(new QueryBuilder() as unknown as Db).toSQL();
    expect(sql.startsWith('select ')).toBe(true);
    expect(selectedColumns(sql)).toBeLessThanOrEqual(D1_MAX_RESULT_COLUMNS);
  });
});
